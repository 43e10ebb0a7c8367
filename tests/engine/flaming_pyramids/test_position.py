"""Position JSON: round trips and clear rejections."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import BadPosition
from engine.flaming_pyramids import GAME

from .helpers import position, random_game


def test_round_trip_of_random_states() -> None:
    for seed in range(6):
        state, _, _ = random_game(2 + seed % 5, seed, seed % 2 == 1, 150)
        pos = GAME.to_position(state)
        assert GAME.from_position(pos) == state


def test_round_trip_with_a_lifted_pending_tile() -> None:
    state = GAME.from_position(position(pyramid={"0,0": "B30", "0,1": "R4"}, hands=[["Y60", "G2"], ["R2"]]))
    state, _ = GAME.play(state, 0, "play Y60 1,0")
    pos = GAME.to_position(state)
    assert pos["pyramid"] == {} and pos["pending"] == {"player": 0, "decision": "fall", "tile": "Y60", "at": "1,0"}
    assert GAME.from_position(pos) == state


def test_position_keys_follow_the_rules_file() -> None:
    state = GAME.setup(3, None, 4)
    pos = GAME.to_position(state)
    for key in ("players", "options", "turn", "pyramid", "hands", "piles", "removed"):
        assert key in pos
    assert all(isinstance(k, str) and "," in k for k in pos["pyramid"])


def test_missing_extras_get_defaults() -> None:
    state = GAME.from_position({"players": 2, "pyramid": {}, "hands": [["R6"], ["Y4"]]})
    assert state.piles == ((), ()) and state.removed == () and state.turn == 0 and not state.curse


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"pyramid": {"0,0": "R40", "0,1": "R40"}}, "R40 is used twice"),
        ({"hands": [["R40"], ["R6"]], "pyramid": {"0,0": "R40"}}, "R40 is used twice"),
        ({"hands": [["X9"], ["R6"]]}, "'X9', which is not a Flaming Pyramids tile"),
        ({"pyramid": {"a,b": "R40"}}, "is not a cell"),
        ({"pyramid": {"-1,0": "R40"}}, "is not a cell"),
        ({"players": 7}, "players must be 2 to 6"),
        ({"players": "two"}, "players must be a whole number"),
        ({"turn": 5}, "turn must be 0 to 1"),
        ({"hands": [["R6"]]}, "one list per player"),
        ({"options": {"curse": "yes please"}}, "options are not valid"),
        ({"colour": "red"}, "Unknown position key"),
        ({"hands": [[], ["R6"]]}, "holds no tile"),
        (
            {"pending": {"player": 0, "decision": "fall", "tile": "R6", "at": "1,0"}, "pyramid": {"1,0": "B2"}},
            "but B2 is there",
        ),
        ({"pending": {"player": 0, "decision": "fall", "tile": "R60", "at": "1,0"}, "pyramid": {"0,0": "R40"}},
         "cannot fall"),
        ({"pending": {"player": 0, "decision": "jump"}}, "pending must be null"),
        ({"removed": "G1"}, "removed must be a list"),
    ],
)
def test_bad_positions_are_named(change: dict[str, Any], message: str) -> None:
    pos = position(hands=[["R6", "G2"], ["Y4"]])
    pos.update(change)
    with pytest.raises(BadPosition) as err:
        GAME.from_position(pos)
    assert message in str(err.value)
