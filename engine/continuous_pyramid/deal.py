"""Deals (CP-3): a deal number fully determines the shuffle, so a channel challenge
whose games share one deal number gives everyone the same game. Because it
determines the face-down stock, the deal number is as secret as the stock: the bot
draws it at random and views show it only once the game is over (second edition)."""

from __future__ import annotations

from dataclasses import replace

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


def winnable_deal(seed: int, options: CPOptions, tries: int = WINNABLE_TRIES) -> CPState:
    """The first deal number from ``seed`` on that the solver proves winnable within a
    node budget (deterministic: no clock), marked ``proven``. If none of the tries is
    proven, ``seed`` itself is dealt marked ``proven=False``, so the player is told the
    deal is not proven winnable instead of being quietly dealt an unproven one."""
    from engine.continuous_pyramid.solver import Budget, solve

    for k in range(tries):
        state = deal_state(seed + k, options)
        if solve(state, Budget(nodes=WINNABLE_NODE_BUDGET)).winnable:
            return replace(state, proven=True)
    return replace(deal_state(seed, options), proven=False)
