"""What changed since your turn, through the emulator: a four-player Flaming Pyramids
game where, after the first player's move, the three others move; the first
player's next hand DM carries the board with exactly those three moves' places
outlined, and a line naming each mover."""

from __future__ import annotations

import re
from typing import Any

from bot.cards.boards import board_labels, public_view
from emulator.harness import Harness
from emulator.model import Message
from render import render_board
from tests.bot.e2e.driver import boards, bot_of, flaming_game_of, session_of

#: Events whose cells point at places without changing them (where a tile may fall).
POINTING = {"fall_choice", "free_air"}


def settled_line(game: Any, state: Any, length: int) -> list[tuple[int, str, list[str]]] | None:
    """``length`` moves from ``state``, none leaving a fall to decide (so each player
    makes exactly one move), found depth first; each with its seat and the places it
    changes: every place its public events name."""
    if length == 0:
        return []
    seat = game.to_act(state)
    for move in game.legal_moves(state):
        after, events = game.play(state, seat, move)
        if game.pending(after) is not None or game.to_act(after) is None:
            continue
        rest = settled_line(game, after, length - 1)
        if rest is not None:
            cells = [c for e in events if e.visible(None) and e.kind not in POINTING for c in e.cells]
            return [(seat, str(move), list(dict.fromkeys(cells))), *rest]
    return None


def hand_dm(harness: Harness, user: Any, version: int) -> Message:
    found = [m for m in harness.dm(user) if f"your hand after move {version}" in m.text]
    assert len(found) == 1, [m.text for m in harness.dm(user)]
    return found[0]


async def test_the_hand_dm_outlines_what_three_moves_did_since_your_turn(emulator: Any, harness: Harness) -> None:
    users, thread, game_id = await flaming_game_of(emulator, harness, "ana", "ben", "cy", "dee")
    session = await session_of(harness, game_id)
    first = session.to_act
    assert first is not None
    line = settled_line(session.game, session.state, 4)
    assert line is not None
    played: list[tuple[int, list[str]]] = []  # (seat, places changed) of each move
    for seat, move, changed in line:
        done = await harness.slash(users[seat], thread, "pyramid play", move=move, game=game_id)
        assert "✅" in done.text, done.text
        played.append((seat, changed))
    session = await session_of(harness, game_id)
    assert session.to_act == first and session.version == 4
    assert [seat for seat, _ in played[1:]] == [(first + k) % 4 for k in (1, 2, 3)]

    # After their own move, the first player's hand comes alone, privately, with the move's reply.
    mine = next(m for m in harness.visible_messages(users[first], thread)
                if m.ephemeral and "your hand after move 1" in m.text)
    assert [a.filename for a in mine.png_attachments()] == ["hand.png"]
    assert "since your turn" not in mine.text

    # Their turn again: the hand, and the board with the three moves outlined.
    dm = hand_dm(harness, users[first], 4)
    assert {a.filename for a in dm.png_attachments()} == {"hand.png", "board.png"}
    outlined = dm.attachment("board.png")
    channel = boards(harness, thread)[-1]
    assert "move 4" in channel.text
    assert outlined.data != channel.png_attachments()[0].data, "not the channel's board"
    view = public_view(session, bot_of(harness).services.texts.lang("en"))  # the player reads English
    cells = list(dict.fromkeys(cell for _, changed in played[1:] for cell in changed))
    expected = render_board({**view, "outline": cells}, labels=board_labels(session, view), art=session.presenter.art)
    assert outlined.data == expected, "exactly the places of the three moves since, outlined"
    assert render_board({**view, "outline": cells[:-1]}, labels=board_labels(session, view),
                        art=session.presenter.art) != expected, "each place counts"
    described = outlined.description or ""
    assert "outlined" in described.lower() and all(cell in described for cell in cells)
    hidden = [tile for seat in range(4) for tile in session.game.view(session.state, seat)["hands"][seat]]
    assert not [t for t in hidden if re.search(rf"\b{re.escape(t)}\b", described)], "only the public board"

    # The line: how many moves, and each mover by name.
    told = next(row for row in dm.text.splitlines() if "since your turn" in row)
    assert "3 moves since your turn: " in told and len(told) <= 210
    for seat, _ in played[1:]:
        name = session.seats[seat].plain_name
        assert name in told, (name, told)
    assert session.seats[first].plain_name not in told

    # The others' DMs after their own moves carry no outline.
    for seat, _ in played[1:]:
        for message in harness.dm(users[seat]):
            assert "since your turn" not in message.text
