"""Hostile input: an oversize Pyramido cell is not a cell, in a move or in a position
(oversize moves, every game's, are in ``tests/engine/core/test_oversize_input.py``)."""

from __future__ import annotations

import pytest

from engine.core.errors import BadPosition, IllegalMove
from engine.pyramido import GAME
from engine.pyramido.notation import parse_cell

HUGE = "9" * 5000


def test_a_cell_with_too_many_digits_is_not_a_cell() -> None:
    with pytest.raises(IllegalMove, match="is not a cell"):
        parse_cell(f"1:{HUGE},0")


def test_a_position_with_an_oversize_cell_is_a_bad_position() -> None:
    position = GAME.to_position(GAME.setup(1, {"mode": "solo"}, seed=3))
    position["pyramids"] = [{f"1:{HUGE},0": "R"}]
    with pytest.raises((BadPosition, IllegalMove)):
        GAME.from_position(position)
