"""The one loop of random play: whose turn, the limit, the end of the game, and the
variants the gallery and the tests stop on."""

from __future__ import annotations

import pytest

from engine.core import Rng, get_game
from tools.playout import played, steps, still_going
from tools.selfplay.failures import Failures

GAME = get_game("pyrinoes")


def test_steps_are_made_by_the_seat_to_act_and_follow_the_seed() -> None:
    start = GAME.setup(2, {"target": 15}, 3)
    line = list(steps(GAME, start, Rng(5), 30))
    assert len(line) == 30
    before = start
    for step in line:
        assert step.seat == GAME.to_act(before) and step.move in GAME.legal_moves(before)
        assert (step.state, step.events) == GAME.play(before, step.seat, step.move)
        before = step.state
    assert [s.move for s in steps(GAME, start, Rng(5), 30)] == [s.move for s in line]


def test_without_a_limit_play_goes_to_the_end_and_no_further() -> None:
    state, events = played(GAME, GAME.setup(2, {"target": 15}, 4), Rng(4))
    assert GAME.to_act(state) is None and GAME.result(state) is not None and events
    assert list(steps(GAME, state, Rng(4))) == []
    assert played(GAME, state, Rng(4), 10) == (state, [])


def test_stop_ends_play_on_the_first_state_it_accepts() -> None:
    start = GAME.setup(2, None, 6)
    state, _ = played(GAME, start, Rng(1), 500, stop=lambda s, _events: s.moves >= 7)
    assert state.moves == 7


def test_still_going_stops_short_of_the_end_and_of_what_keep_refuses() -> None:
    start = GAME.setup(2, {"target": 15}, 4)
    last = still_going(GAME, start, Rng(4))
    final, _ = played(GAME, start, Rng(4))
    assert GAME.to_act(last) is not None and GAME.to_act(final) is None
    assert final.moves == last.moves + 1  # the same line, one move short
    kept = still_going(GAME, start, Rng(4), keep=lambda s: s.moves < 5)
    assert kept.moves == 4


def test_failures_are_counted_and_only_the_first_is_shown(capsys: pytest.CaptureFixture[str]) -> None:
    failures = Failures()

    def boom(n: int) -> int:
        raise ValueError(f"bug {n}")

    assert failures.attempt("game 1", boom, 1) is None
    assert failures.attempt("game 2", boom, 2) is None
    assert failures.attempt("game 3", int, "3") == 3
    assert failures.count == 2
    err = capsys.readouterr().err
    assert "game 1 failed:" in err and "ValueError: bug 1" in err
    assert "game 2" not in err and "bug 2" not in err
