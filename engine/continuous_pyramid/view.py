"""What a player sees, and the plain helpers the renderer and bot need.

Information rule: the pyramid and reserve are public, the stock is face down (only
its size shows). Nothing here reads the stock's order, and the deal number, which
determines it (CP-3, second edition), is never in a view: in a channel challenge the
same deal is still being played by others after one game ends. The game record
publishes it when that is safe, which only the bot can judge."""

from __future__ import annotations

from typing import Any

from engine.continuous_pyramid import rules
from engine.continuous_pyramid.geometry import LATEST_EDITION, NAMES, geometry_table
from engine.continuous_pyramid.state import EMPTY, CPState
from engine.continuous_pyramid.tiles import CODES

Json = dict[str, Any]


def open_cell_names(state: CPState) -> list[str]:
    """CP-4: every open cell, in cell order."""
    return [NAMES[c] for c in rules.open_cells(state.pyramid, rules.geometry_of(state))]


def reserve_fits(state: CPState) -> list[list[str]]:
    """For each reserve slot, the open cells its tile fits (empty for an empty slot).
    A second copy of a tile lists the same cells: either copy may be played, the
    notation just takes the leftmost."""
    geo = rules.geometry_of(state)
    cells = [(c, rules.accepts(state.pyramid, c, geo)) for c in rules.open_cells(state.pyramid, geo)]
    return [[] if t == EMPTY else [NAMES[c] for c, mask in cells if mask >> t & 1] for t in state.reserve]


def cell_geometry(edition: int = LATEST_EDITION) -> list[dict[str, object]]:
    """All 144 cells of a rules edition: level, row, col, sides, what lies below and on top."""
    return geometry_table(edition)


def view_of(state: CPState, can_undo: bool) -> Json:
    """The game's own view keys (the contract adds the common ones); ``can_undo``:
    whether ``undo`` is a legal move now."""
    return {
        "pyramid": {NAMES[c]: CODES[t] for c, t in enumerate(state.pyramid) if t != EMPTY},
        "reserve": [None if t == EMPTY else CODES[t] for t in state.reserve],
        "stock": len(state.stock),
        "options": state.options.model_dump(),
        "proven_winnable": state.proven,
        "moves": state.moves,
        "undos": state.undos,
        "tiles_placed": state.placed,
        "can_undo": can_undo,
        "open": open_cell_names(state),
        "fits": reserve_fits(state),
    }
