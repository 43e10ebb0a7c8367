"""FP-7 set-up."""

from __future__ import annotations

import pytest

from engine.core.errors import BadOptions
from engine.flaming_pyramids import GAME
from engine.flaming_pyramids.tiles import INCENDIARY

from .helpers import assert_conserved, assert_settled


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", [0, 1, 2, 99])
def test_fp7_deal(players: int, seed: int) -> None:
    state = GAME.setup(players, None, seed)
    each = 45 // players
    leftover = 45 % players
    for p in range(players):
        assert len(state.hands[p]) == 5
        assert len(state.hands[p]) + len(state.piles[p]) == each
    assert len(state.pyramid) + len(state.removed) == leftover
    assert all(t in INCENDIARY for t in state.removed)
    assert not any(t in INCENDIARY for t in state.pyramid.values())
    assert sorted(state.pyramid) == [(0, c) for c in range(len(state.pyramid))]
    assert state.turn == state.first and 0 <= state.first < players
    assert state.pending is None and state.result is None and state.turns == 0
    assert_conserved(state)
    assert_settled(state)


def test_fp7_is_seeded() -> None:
    assert GAME.setup(4, None, 12) == GAME.setup(4, None, 12)
    assert GAME.setup(4, None, 12) != GAME.setup(4, None, 13)


def test_fp7_first_player_varies_with_the_seed() -> None:
    assert len({GAME.setup(3, None, s).first for s in range(30)}) == 3


def test_fp7_leftover_incendiaries_are_removed() -> None:
    seen = [GAME.setup(6, None, s) for s in range(200)]
    assert any(s.removed for s in seen)
    for s in seen:
        assert len(s.pyramid) + len(s.removed) == 3


@pytest.mark.parametrize("players", [1, 7, 0])
def test_fp7_two_to_six_players(players: int) -> None:
    with pytest.raises(BadOptions, match="needs 2 to 6 players"):
        GAME.setup(players, None, 1)
