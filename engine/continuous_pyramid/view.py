"""What a player sees, and the plain helpers the renderer and bot need.

Information rule: the pyramid and reserve are public, the stock is face down (only
its size shows). Nothing here reads the stock's order."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.continuous_pyramid import rules
from engine.continuous_pyramid.geometry import NAMES, geometry_table
from engine.continuous_pyramid.state import EMPTY, CPState
from engine.continuous_pyramid.tiles import CODES

if TYPE_CHECKING:
    from engine.continuous_pyramid.game import ContinuousPyramid

Json = dict[str, Any]


def open_cell_names(state: CPState) -> list[str]:
    """CP-4: every open cell, in cell order."""
    return [NAMES[c] for c in rules.open_cells(state.pyramid)]


def reserve_fits(state: CPState) -> list[list[str]]:
    """For each reserve slot, the open cells its tile fits (empty for an empty slot).
    A second copy of a tile lists the same cells: either copy may be played, the
    notation just takes the leftmost."""
    cells = [(c, rules.accepts(state.pyramid, c)) for c in rules.open_cells(state.pyramid)]
    return [[] if t == EMPTY else [NAMES[c] for c, mask in cells if mask >> t & 1] for t in state.reserve]


def cell_geometry() -> list[dict[str, object]]:
    """All 144 cells: level, row, col, sides, what lies below and on top."""
    return geometry_table()


def view_of(game: ContinuousPyramid, state: CPState, player: int | None) -> Json:
    result = game.result(state)
    return {
        "game": game.id,
        "seat": player,
        "players": 1,
        "to_act": game.to_act(state),
        "pending": game.pending(state),
        "result": None
        if result is None
        else {"winners": list(result.winners), "scores": list(result.scores), "summary": result.summary},
        "turn_number": state.moves + state.undos,
        "pyramid": {NAMES[c]: CODES[t] for c, t in enumerate(state.pyramid) if t != EMPTY},
        "reserve": [None if t == EMPTY else CODES[t] for t in state.reserve],
        "stock": len(state.stock),
        "options": state.options.model_dump(),
        "deal": state.deal,
        "moves": state.moves,
        "undos": state.undos,
        "tiles_placed": state.placed,
        "can_undo": "undo" in game.legal_moves(state),
        "open": open_cell_names(state),
        "fits": reserve_fits(state),
    }
