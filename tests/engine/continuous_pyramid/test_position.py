"""Position JSON: round trips, defaults for scenario setups, and clear rejections."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine.continuous_pyramid import GAME
from engine.core.errors import BadPosition

BASE: dict[str, Any] = {
    "pyramid": {"1:4,4": "C5"},
    "reserve": ["B4", "B1", "B2", "B3", "B7", "B8", "B9", "WE", "SP"],
    "stock": ["B9"],
    "options": {"undo": True},
}


def test_round_trip_fresh_and_played() -> None:
    state = GAME.setup(1, None, 42)
    assert GAME.from_position(GAME.to_position(state)) == state
    for _ in range(20):
        moves = [m for m in GAME.legal_moves(state) if m != "undo"]
        state, _ = GAME.play(state, 0, moves[len(moves) // 2])
    state, _ = GAME.play(state, 0, "undo")
    again = GAME.from_position(GAME.to_position(state))
    assert again == state and again.history == state.history and again.undos == 1


def test_scenario_setups_get_defaults() -> None:
    state = GAME.from_position(BASE)
    pos = GAME.to_position(state)
    assert pos["deal"] is None and pos["history"] == [] and pos["moves"] == 0 and pos["undos"] == 0
    assert pos["options"] == {"undo": True, "winnable_only": False, "edition": 2}


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"pyramid": {"1:4,4": "B0"}}, "not a Continuous Pyramid tile code"),
        ({"pyramid": {"1:0,0": "B5"}}, "not a cell"),
        ({"pyramid": {"1:4,4": "B5", "2:3,3": "C4"}}, "nothing supports it"),
        ({"reserve": ["B4"]}, "9 slots"),
        ({"stock": ["B9", "B9", "B9", "B9"]}, "copies of B9"),
        ({"stock": "B9"}, "'stock' must be a list"),
        ({"options": {"undo": "maybe"}}, "options are not valid"),
        ({"colour": 1}, "Unknown position key"),
        ({"history": [{"cell": "1:4,4", "slot": 0, "refill": True}]}, None),
        ({"history": [{"cell": "1:4,5", "slot": 0, "refill": True}]}, "cell is empty"),
        ({"history": [{"cell": "1:4,4", "slot": 0, "refill": False}]}, "not refilled"),
        ({"history": [{"cell": "1:4,4", "slot": 12, "refill": True}]}, "slots run"),
        ({"moves": -1}, "whole number"),
        ({"deal": "x"}, "deal number"),
    ],
)
def test_bad_positions_are_named(change: dict[str, Any], words: str | None) -> None:
    position = copy.deepcopy(BASE)
    position.update(change)
    if words is None:
        GAME.from_position(position)
        return
    with pytest.raises(BadPosition, match=words):
        GAME.from_position(position)
