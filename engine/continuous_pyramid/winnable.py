"""Winnable deals only (an option): the deal number is searched from the seed on until the
solver proves one winnable. It sits above both the dealing and the solver, which itself
deals from a deal number."""

from __future__ import annotations

from dataclasses import replace

from engine.continuous_pyramid.deal import deal_state
from engine.continuous_pyramid.options import CPOptions
from engine.continuous_pyramid.solver import Budget, solve
from engine.continuous_pyramid.state import CPState

#: Node budget per candidate deal for "winnable deals only". Part of what a seed
#: means: changing it may change which deal a seed picks.
WINNABLE_NODE_BUDGET = 20_000
#: Deal numbers tried (seed, seed + 1, ...) before giving up on proving one winnable.
WINNABLE_TRIES = 50


def winnable_deal(seed: int, options: CPOptions, tries: int = WINNABLE_TRIES) -> CPState:
    """The first deal number from ``seed`` on that the solver proves winnable within a
    node budget (deterministic: no clock), marked ``proven``. If none of the tries is
    proven, ``seed`` itself is dealt marked ``proven=False``, so the player is told the
    deal is not proven winnable instead of being quietly dealt an unproven one."""
    for k in range(tries):
        state = deal_state(seed + k, options)
        if solve(state, Budget(nodes=WINNABLE_NODE_BUDGET)).winnable:
            return replace(state, proven=True)
    return replace(deal_state(seed, options), proven=False)
