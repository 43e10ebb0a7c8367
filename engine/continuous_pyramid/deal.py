"""Deals (CP-3): a deal number fully determines the shuffle, so a channel challenge
whose games share one deal number gives everyone the same game. Because it
determines the face-down stock, the deal number is as secret as the stock: the bot
draws it at random and views show it only once the game is over (second edition).

The search for a winnable deal sits above this, in ``winnable.py``: the solver deals
from a deal number too."""

from __future__ import annotations

from engine.continuous_pyramid.geometry import NUM_CELLS
from engine.continuous_pyramid.options import CPOptions
from engine.continuous_pyramid.state import EMPTY, RESERVE_SLOTS, CPState
from engine.continuous_pyramid.tiles import full_set
from engine.core.rng import Rng, derive_seed


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
