"""CP-3..CP-6 as pure functions over :class:`CPState`: which cells are open, what fits
there, and what a play or an undo does. The Game class only adds notation and events."""

from __future__ import annotations

from dataclasses import replace

from engine.continuous_pyramid.geometry import CENTRE, LEVEL_OF, NUM_CELLS, SIDES, Geometry, geometry
from engine.continuous_pyramid.state import EMPTY, CPState, Step
from engine.continuous_pyramid.tiles import ALL_TYPES_MASK, FIT, TOTAL_TILES

Play = tuple[int, int, int]
"""(reserve slot, tile type, cell): the leftmost slot holding that type."""


def geometry_of(state: CPState) -> Geometry:
    """The CP-2 tables of the edition the game is played under."""
    return geometry(state.options.edition)


def is_open(pyramid: tuple[int, ...] | list[int], cell: int, geo: Geometry) -> bool:
    """CP-4 for one empty cell."""
    if pyramid[cell] != EMPTY:
        return False
    if LEVEL_OF[cell] == 1:
        for s in SIDES[cell]:
            if pyramid[s] != EMPTY:
                return True
        return cell == CENTRE and all(t == EMPTY for t in pyramid)
    return all(pyramid[x] != EMPTY for x in geo.open_needs[cell])


def open_cells(pyramid: tuple[int, ...] | list[int], geo: Geometry) -> list[int]:
    """Every open cell, in cell order."""
    if all(t == EMPTY for t in pyramid):
        return [CENTRE]
    open_needs = geo.open_needs
    out = []
    for cell in range(NUM_CELLS):
        if pyramid[cell] != EMPTY:
            continue
        if LEVEL_OF[cell] == 1:
            for s in SIDES[cell]:
                if pyramid[s] != EMPTY:
                    out.append(cell)
                    break
        else:
            for x in open_needs[cell]:
                if pyramid[x] == EMPTY:
                    break
            else:
                out.append(cell)
    return out


def accepts(pyramid: tuple[int, ...] | list[int], cell: int, geo: Geometry) -> int:
    """Bitmask of tile types that fit at least one occupied neighbour of ``cell`` (CP-5);
    every type when the pyramid is empty (the starter tile)."""
    mask = 0
    any_neighbour = False
    for n in geo.fit_neighbours[cell]:
        t = pyramid[n]
        if t != EMPTY:
            mask |= FIT[t]
            any_neighbour = True
    if not any_neighbour and cell == CENTRE and all(t == EMPTY for t in pyramid):
        return ALL_TYPES_MASK
    return mask


def reserve_slots(reserve: tuple[int, ...]) -> dict[int, int]:
    """Tile type -> the leftmost slot holding it."""
    slots: dict[int, int] = {}
    for slot, t in enumerate(reserve):
        if t != EMPTY and t not in slots:
            slots[t] = slot
    return slots


def legal_plays(state: CPState) -> tuple[Play, ...]:
    """Every play, ordered by reserve slot then cell; memoised on the state."""
    cached = state.plays_cache
    if cached is not None:
        return cached
    slots = reserve_slots(state.reserve)
    plays: list[Play] = []
    if slots:
        geo = geometry_of(state)
        cells = [(c, accepts(state.pyramid, c, geo)) for c in open_cells(state.pyramid, geo)]
        for t, slot in sorted(slots.items(), key=lambda kv: kv[1]):
            bit = 1 << t
            plays.extend((slot, t, c) for c, mask in cells if mask & bit)
    result = tuple(plays)
    object.__setattr__(state, "plays_cache", result)
    return result


def is_full(state: CPState) -> bool:
    return EMPTY not in state.pyramid


def is_stuck(state: CPState) -> bool:
    return not is_full(state) and not legal_plays(state)


def is_over(state: CPState) -> bool:
    """CP-6: won, given up or stuck (a stuck game is lost even while undo may reopen it)."""
    return is_full(state) or state.resigned or is_stuck(state)


def is_final(state: CPState) -> bool:
    """No move at all is left: won, given up, or stuck with nothing to undo."""
    if is_full(state) or state.resigned:
        return True
    return is_stuck(state) and not state.can_undo


def apply_play(state: CPState, slot: int, cell: int) -> CPState:
    """CP-3: the tile leaves its slot and the top stock tile (if any) refills it."""
    pyramid = list(state.pyramid)
    reserve = list(state.reserve)
    pyramid[cell] = reserve[slot]
    stock = state.stock
    refill = bool(stock)
    if refill:
        reserve[slot] = stock[0]
        stock = stock[1:]
    else:
        reserve[slot] = EMPTY
    history = (*state.history, Step(cell, slot, refill)) if state.options.undo else ()
    return replace(
        state,
        pyramid=tuple(pyramid),
        reserve=tuple(reserve),
        stock=stock,
        history=history,
        moves=state.moves + 1,
        plays_cache=None,
    )


def apply_undo(state: CPState) -> CPState:
    """Takes back the last play exactly, refill included."""
    step = state.history[-1]
    pyramid = list(state.pyramid)
    reserve = list(state.reserve)
    stock = state.stock
    if step.refill:
        stock = (reserve[step.slot], *stock)
    reserve[step.slot] = pyramid[step.cell]
    pyramid[step.cell] = EMPTY
    return replace(
        state,
        pyramid=tuple(pyramid),
        reserve=tuple(reserve),
        stock=stock,
        history=state.history[:-1],
        undos=state.undos + 1,
        resigned=False,
        plays_cache=None,
    )


def tiles_in_play(state: CPState) -> int:
    """Pyramid + reserve + stock; 144 in any dealt game (conservation)."""
    return state.placed + sum(1 for t in state.reserve if t != EMPTY) + len(state.stock)


__all__ = [
    "TOTAL_TILES",
    "Play",
    "accepts",
    "apply_play",
    "apply_undo",
    "geometry_of",
    "is_final",
    "is_full",
    "is_open",
    "is_stuck",
    "legal_plays",
    "open_cells",
    "reserve_slots",
    "tiles_in_play",
]
