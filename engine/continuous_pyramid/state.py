"""The game state: a small immutable value that is cheap to copy and compare."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.continuous_pyramid.geometry import NUM_CELLS
from engine.continuous_pyramid.options import CPOptions

RESERVE_SLOTS = 9
EMPTY = -1


@dataclass(frozen=True, slots=True)
class Step:
    """One play as undo needs it: where the tile went, which reserve slot it left, and
    whether the stock refilled that slot (the refill goes back on top of the stock)."""

    cell: int
    slot: int
    refill: bool


@dataclass(frozen=True, slots=True)
class CPState:
    """``pyramid`` has one entry per cell and ``reserve`` one per slot, each a tile type
    or ``EMPTY``; ``stock`` is top first. ``moves`` counts plays made (taken-back ones
    included) and ``undos`` the take-backs, which is what the result reports.

    ``plays_cache`` memoises the legal plays; it is derived data, so it takes no part
    in equality."""

    pyramid: tuple[int, ...]
    reserve: tuple[int, ...]
    stock: tuple[int, ...]
    options: CPOptions = field(default_factory=CPOptions)
    deal: int | None = None
    history: tuple[Step, ...] = ()
    moves: int = 0
    undos: int = 0
    resigned: bool = False
    #: With ``winnable_only``: whether the solver proved this deal winnable (False when
    #: no deal within the tries could be proven and an unproven one was dealt); None
    #: when nobody asked.
    proven: bool | None = None
    plays_cache: tuple[tuple[int, int, int], ...] | None = field(default=None, compare=False, repr=False)

    @property
    def placed(self) -> int:
        return NUM_CELLS - self.pyramid.count(EMPTY)

    @property
    def can_undo(self) -> bool:
        return self.options.undo and bool(self.history)
