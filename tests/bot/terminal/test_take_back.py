"""``back`` in the terminal game (issue #41): the player at the prompt takes back their own last
move when nobody acted after it and it showed nothing hidden, once per move; the bot's rule."""

from __future__ import annotations

import io

from bot.terminal.game import play
from engine.core import get_game
from engine.core.undo import revealed

SEED = 5


def script() -> tuple[list[str], str, str]:
    """Typed lines for a hot-seat Flaming Pyramids game: a drawing move (then ``back`` by the next
    player: refused), moves until a player has a move that keeps their turn and shows nothing,
    that move and ``back`` (taken back), the move again and ``back`` (once per move)."""
    game = get_game("flaming-pyramids")
    state = game.setup(2, {}, SEED)
    typed: list[str] = []
    drew = quiet = ""
    for _ in range(200):
        seat = game.waiting_for(state)
        assert seat is not None
        moves = game.legal_moves(state)
        kinds = {m: revealed(game, state, seat, m) for m in moves}
        keeps = [m for m in moves if kinds[m] is None and game.waiting_for(game.play(state, seat, m)[0]) == seat]
        if drew and keeps:
            quiet = keeps[0]
            return [*typed, quiet, "back", quiet, "back", "quit"], drew, quiet
        move = next((m for m in moves if kinds[m] is not None), moves[0])
        after, _ = game.play(state, seat, move)
        if not drew and kinds[move] is not None and game.waiting_for(after) != seat:
            drew = move
            typed += [move, "back"]
        else:
            typed.append(move)
        state = after
    raise AssertionError("no position found")


def test_back_takes_the_players_own_quiet_move_back_once_and_refuses_after_someone_acted() -> None:
    typed, _, quiet = script()
    out = io.StringIO()
    code = play(["flaming-pyramids", "--seats", "you,you", "--seed", str(SEED), "--no-pictures", "--lang", "en"],
                stdin=io.StringIO("\n".join(typed) + "\n"), stdout=out)
    text = out.getvalue()
    assert code == 0, text
    assert "You can take back only your own last move" in text, "after a draw, the next player acted"
    assert text.count(f"↩ You took back {quiet}.") == 1, text[-2000:]
    assert "one undo per turn" in text
