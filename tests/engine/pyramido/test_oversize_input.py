"""Hostile input: oversize moves and cells are refused with a sentence, never an
internal error (Python refuses ``int()`` of more than 4300 digits)."""

from __future__ import annotations

import pytest

from engine.core.errors import BadPosition, IllegalMove
from engine.pyramido import GAME
from engine.pyramido.notation import MAX_MOVE_LENGTH, parse_cell, parse_move

HUGE = "9" * 5000


@pytest.mark.parametrize("move", [
    f"place R 1:{HUGE},0",
    f"take R {HUGE}:1,1",
    "place R 1:0," + "1" * 90,
    "discard " + "R" * 5000,
    "place " + " " * 5000 + "R 1:0,0",
])
def test_oversize_moves_are_refused_with_a_short_reason(move: str) -> None:
    state = GAME.setup(1, {"mode": "solo"}, seed=3)
    with pytest.raises(IllegalMove) as caught:
        GAME.play(state, 0, move)
    assert len(str(caught.value)) < 200


def test_the_length_limit_is_stated() -> None:
    with pytest.raises(IllegalMove, match=f"at most {MAX_MOVE_LENGTH} characters"):
        parse_move("place R " + "1" * 200)


def test_a_cell_with_too_many_digits_is_not_a_cell() -> None:
    with pytest.raises(IllegalMove, match="is not a cell"):
        parse_cell(f"1:{HUGE},0")


def test_a_position_with_an_oversize_cell_is_a_bad_position() -> None:
    position = GAME.to_position(GAME.setup(1, {"mode": "solo"}, seed=3))
    position["pyramids"] = [{f"1:{HUGE},0": "R"}]
    with pytest.raises((BadPosition, IllegalMove)):
        GAME.from_position(position)
