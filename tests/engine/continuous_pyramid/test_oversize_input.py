"""Hostile input: oversize moves are refused with a short sentence."""

from __future__ import annotations

import pytest

from engine.continuous_pyramid import GAME
from engine.continuous_pyramid.notation import MAX_MOVE_LENGTH, parse_move
from engine.core.errors import IllegalMove

HUGE = "9" * 5000


@pytest.mark.parametrize("move", [
    f"play B5 1:{HUGE},0",
    "play " + "B" * 5000 + " 1:0,0",
    "x" * 100_000,
])
def test_oversize_moves_are_refused_with_a_short_reason(move: str) -> None:
    state = GAME.setup(1, None, 7)
    with pytest.raises(IllegalMove) as caught:
        GAME.play(state, 0, move)
    assert len(str(caught.value)) < 200


def test_the_length_limit_is_stated() -> None:
    with pytest.raises(IllegalMove, match=f"at most {MAX_MOVE_LENGTH} characters"):
        parse_move("play B5 " + " " * 200 + "1:0,0")
