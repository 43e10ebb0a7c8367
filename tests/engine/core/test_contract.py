"""The contract's invariants, checked on many self-played positions of every game.

Over is "nobody is to act": ``to_act`` is None exactly when ``result`` is set. A
finished game may still leave a decision open (Continuous Pyramid's provisional loss:
stuck, with a play to undo); then ``waiting_for`` names its owner and only that
decision's moves are legal, and once nobody is waited for nothing is legal."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.core import Game, Pending, Result, Rng, game_ids, get_game
from engine.core.errors import GameOver, NotYourTurn
from tests.engine.ai.helpers import TABLES
from tests.engine.continuous_pyramid.test_game import STUCK

COMMON_KEYS = {"game", "seat", "players", "to_act", "pending", "result", "turn_number"}
#: Moves per game before giving up on reaching its end (Flaming Pyramids can cycle).
MAX_STEPS = 400


def _check(game: Game[Any], state: Any, seen: Counter[str]) -> None:
    to_act, result, pending = game.to_act(state), game.result(state), game.pending(state)
    waiting = game.waiting_for(state)
    legal = game.legal_moves(state)
    assert (to_act is None) == (result is not None)
    assert (waiting is None) == (not legal)
    if to_act is not None:
        assert waiting == to_act
    if pending is not None:
        assert isinstance(pending, Pending) and pending.kind in game.pending_kinds
        assert pending.player == waiting
        seen[f"pending {pending.kind}"] += 1
    if result is not None:
        assert Result.from_json(result.to_json()) == result
        seen["over, still open" if waiting is not None else "over"] += 1
    view = game.view(state, waiting)
    assert set(view) >= COMMON_KEYS
    assert {k: view[k] for k in COMMON_KEYS} == game.view_fields(state, waiting)
    assert view["to_act"] == to_act and view["players"] == game.players_in(state)
    assert view["pending"] == (None if pending is None else pending.to_json())
    assert view["result"] == (None if result is None else result.to_json(text=True))


def _self_play(game: Game[Any], players: int, options: dict[str, Any], seed: int, seen: Counter[str]) -> None:
    state = game.setup(players, options, seed)
    rng = Rng(seed)
    for _ in range(MAX_STEPS):
        _check(game, state, seen)
        seat = game.waiting_for(state)
        if seat is None:
            return
        if game.to_act(state) is None:  # a take-back after the end: try both ways out
            reopened, _ = game.play(state, seat, "undo")
            _check(game, reopened, seen)
        moves = game.legal_moves(state)
        # Undo sparingly, so a solitaire gets far enough to be stuck.
        plays = [m for m in moves if m != "undo"] or moves
        state, _ = game.play(state, seat, plays[rng.below(len(plays))])


@pytest.mark.parametrize("kind", game_ids())
def test_over_exactly_when_nobody_is_to_act(kind: str) -> None:
    game = get_game(kind)
    tables = [(players, options) for table_game, players, options in TABLES if table_game == kind]
    assert tables, f"tests.engine.ai.helpers.TABLES has no table for {kind}"
    seen: Counter[str] = Counter()
    for players, options in tables:
        for seed in range(6):
            _self_play(game, players, options, seed, seen)
    assert seen["over"], f"no self-played {kind} game reached its end: {seen}"
    for decision in game.pending_kinds:
        assert seen[f"pending {decision}"], f"self-play never met a {decision!r} decision: {seen}"
    if "stuck" in game.pending_kinds:
        assert seen["over, still open"], "no stuck position with a play to take back was met"


def test_a_settled_game_refuses_every_move_and_an_open_one_only_other_seats() -> None:
    game = get_game("continuous-pyramid")
    state = game.from_position(STUCK)
    stuck, _ = game.play(state, 0, "play B4 1:4,5")
    assert game.to_act(stuck) is None and game.waiting_for(stuck) == 0
    with pytest.raises(NotYourTurn):
        game.play(stuck, 1, "undo")
    done, _ = game.play(stuck, 0, "resign")
    assert game.waiting_for(done) is None
    with pytest.raises(GameOver):
        game.play(done, 0, "undo")


#: Forfeit is for the games a leaving seat ends: one- and two-player tables.
SMALL_TABLES = [table for table in TABLES if table[1] <= 2]


@pytest.mark.parametrize(("kind", "players", "options"), SMALL_TABLES, ids=lambda x: str(x))
def test_forfeit_gives_the_game_to_the_other_seats(kind: str, players: int, options: dict[str, Any]) -> None:
    game = get_game(kind)
    state = game.setup(players, options, 1)
    result = game.forfeit(state, 0)
    assert result.resigned == (0,) and result.winners == tuple(range(1, players)) and result.scores == ()
    assert "{0}" in result.summary
    assert Result.from_json(result.to_json()) == result
    assert result.to_json()["resigned"] == [0]
