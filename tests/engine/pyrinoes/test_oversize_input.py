"""Hostile input: oversize moves are refused with a short sentence."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from engine.pyrinoes import GAME
from engine.pyrinoes.notation import MAX_MOVE_LENGTH, parse_move

HUGE = "6" * 5000


@pytest.mark.parametrize("move", [
    f"play {HUGE}-4 right",
    f"build Y{HUGE}|R1",
    "play " + "6-4 " * 2000 + "right",
    "draw " + "x" * 5000,
    "z" * 100_000,
])
def test_oversize_moves_are_refused_with_a_short_reason(move: str) -> None:
    state = GAME.setup(2, None, seed=4)
    seat = GAME.to_act(state)
    assert seat is not None
    with pytest.raises(IllegalMove) as caught:
        GAME.play(state, seat, move)
    assert len(str(caught.value)) < 200


def test_the_length_limit_is_stated() -> None:
    with pytest.raises(IllegalMove, match=f"at most {MAX_MOVE_LENGTH} characters"):
        parse_move("build " + "Y" * 200)
