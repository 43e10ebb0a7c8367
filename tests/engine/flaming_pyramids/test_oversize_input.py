"""Hostile input: oversize moves and cells are refused with a short sentence."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from engine.flaming_pyramids import GAME
from engine.flaming_pyramids.notation import MAX_MOVE_LENGTH, parse_move

HUGE = "9" * 5000


@pytest.mark.parametrize("move", [
    f"play R40 {HUGE},0",
    f"play R40 1,{HUGE}",
    "play R40 " + "1" * 40 + ",0",
    "play " + "R" * 5000 + " 1,0",
    "fall " + "left " * 1000,
    "x" * 100_000,
])
def test_oversize_moves_are_refused_with_a_short_reason(move: str) -> None:
    state = GAME.setup(2, None, 1)
    seat = GAME.to_act(state)
    assert seat is not None
    with pytest.raises(IllegalMove) as caught:
        GAME.play(state, seat, move)
    assert len(str(caught.value)) < 200


def test_the_length_limit_is_stated() -> None:
    with pytest.raises(IllegalMove, match=f"at most {MAX_MOVE_LENGTH} characters"):
        parse_move("play R40 " + "1" * 200 + ",0")
