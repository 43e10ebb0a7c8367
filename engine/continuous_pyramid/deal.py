"""Deals (CP-3): a deal number fully determines the shuffle, so a channel challenge
where everyone plays "deal 1234" gives everyone the same game."""

from __future__ import annotations

from engine.continuous_pyramid.geometry import NUM_CELLS
from engine.continuous_pyramid.options import CPOptions
from engine.continuous_pyramid.state import EMPTY, RESERVE_SLOTS, CPState
from engine.continuous_pyramid.tiles import full_set
from engine.core.rng import Rng, derive_seed

#: Node budget per candidate deal for "winnable deals only". Part of what a seed
#: means: changing it may change which deal a seed picks.
WINNABLE_NODE_BUDGET = 20_000
#: Deal numbers tried (seed, seed + 1, ...) before giving up on proving one winnable.
WINNABLE_TRIES = 50


def shuffled_tiles(deal: int) -> list[int]:
    tiles = full_set()
    Rng(derive_seed(deal, "continuous-pyramid/deal")).shuffle(tiles)
    return tiles


def deal_state(deal: int, options: CPOptions | None = None) -> CPState:
    tiles = shuffled_tiles(deal)
    return CPState(
        pyramid=(EMPTY,) * NUM_CELLS,
        reserve=tuple(tiles[:RESERVE_SLOTS]),
        stock=tuple(tiles[RESERVE_SLOTS:]),
        options=options or CPOptions(),
        deal=deal,
    )


def winnable_deal(seed: int, options: CPOptions) -> CPState:
    """The first deal number from ``seed`` on that the solver proves winnable within a
    node budget (deterministic: no clock). Falls back to ``seed`` itself if none of
    the tries is proven, which the node budget makes very unlikely."""
    from engine.continuous_pyramid.solver import Budget, solve

    for k in range(WINNABLE_TRIES):
        state = deal_state(seed + k, options)
        if solve(state, Budget(nodes=WINNABLE_NODE_BUDGET)).winnable:
            return state
    return deal_state(seed, options)
