"""FP-9 options."""

from __future__ import annotations

import pytest

from engine.core.errors import BadOptions
from engine.flaming_pyramids import GAME, FlamingPyramidsOptions

from .helpers import random_game


def test_fp9_defaults() -> None:
    opts = GAME.parse_options(None)
    assert opts == FlamingPyramidsOptions(curse=False, turn_limit=None)
    state = GAME.setup(2, {"curse": True, "turn_limit": 40}, 1)
    assert state.curse and state.turn_limit == 40
    assert GAME.to_position(state)["options"] == {"curse": True, "turn_limit": 40}
    assert GAME.to_position(GAME.setup(2, None, 1))["options"] == {"curse": False}


@pytest.mark.parametrize("bad", [{"turn_limit": 0}, {"curse": "maybe"}, {"colour": 3}])
def test_fp9_bad_options(bad: dict[str, object]) -> None:
    with pytest.raises(BadOptions):
        GAME.setup(2, bad, 1)


def test_fp9_turn_limit_ends_random_games_with_fewest_tiles() -> None:
    for seed in range(20):
        state, _, _ = random_game(2 + seed % 5, seed, seed % 2 == 0, 5_000, turn_limit=12)
        result = GAME.result(state)
        assert result is not None
        assert state.turns <= 12
        if "turn_limit" in result.details:
            counts = [state.tiles_left(p) for p in range(state.players)]
            assert set(result.winners) == {p for p in range(state.players) if counts[p] == min(counts)}
            assert result.scores == tuple(float(c) for c in counts)
