"""Flaming Pyramids (game id ``flaming-pyramids``), built to ``shared/rules/flaming-pyramids.md``.

``GAME`` is the rule book for the core contract. Helpers for the renderer and the bot,
as plain functions (no rule knowledge needs re-deriving outside the engine):

``open_spaces(state) -> list[str]``
    The cells (``"r,c"``, scan order) where the active player may place a tile now
    (FP-3); empty while a fall is pending or the game is over.
``fall_targets(state) -> dict[str, str] | None``
    For a pending fall, ``{"left": "r,c", "right": "r,c"}`` (where each answer lands).
``tile_table() -> dict[str, dict]``
    FP-1 as data: code -> ``colours`` (letters from RGBY; the Millstone has all four),
    ``weight``, ``material`` (straw/wood/stone/incendiary), ``kind``
    (regular/coal/blowtorch/millstone) and, for incendiaries, ``ignites``.
``tile_info(code) -> Tile``
    One row of that table as a dataclass (``Tile.describe()`` gives "Coal G1").
``rest_problem(state, cell) -> str | None``
    Why the tile at ``cell`` breaks FP-4 (``"overweight"``, ``"mismatch"``,
    ``"overhang colour"``, ...), or None when it rests legally.
``GAME.advance(state, move) -> State``
    ``apply`` without building events, for search AIs.

Moves are ``play R40 1,0`` and, while a fall is pending, ``fall left`` / ``fall right``.
Events carry the cells and tiles they touch (``cells``/``items``); their kinds are
``play``, ``free_air``, ``collapse``, ``fall_choice``, ``fall``, ``explosion``, ``fire``,
``curse``, ``draw`` (private, names the tiles), ``draw_count``, ``turn``, ``win`` and
``turn_limit``.
"""

from __future__ import annotations

from engine.flaming_pyramids.game import FlamingPyramids
from engine.flaming_pyramids.geometry import cell_text, parse_cell
from engine.flaming_pyramids.geometry import open_spaces as _open_cells
from engine.flaming_pyramids.rules import rest_problem as _rest_problem
from engine.flaming_pyramids.state import FlamingPyramidsOptions, State
from engine.flaming_pyramids.tiles import TILE, Tile, tile_table

GAME = FlamingPyramids()


def open_spaces(state: State) -> list[str]:
    if state.pending is not None or state.result is not None:
        return []
    return [cell_text(c) for c in _open_cells(state.pyramid)]


def fall_targets(state: State) -> dict[str, str] | None:
    if state.pending is None:
        return None
    r, c = state.pending.cell
    return {"left": cell_text((r - 1, c)), "right": cell_text((r - 1, c + 1))}


def tile_info(code: str) -> Tile:
    return TILE[code]


def rest_problem(state: State, cell: str) -> str | None:
    parsed = parse_cell(cell)
    if parsed is None or parsed not in state.pyramid:
        raise ValueError(f"no tile at {cell!r}")
    return _rest_problem(state.pyramid, parsed)


__all__ = [
    "GAME",
    "FlamingPyramids",
    "FlamingPyramidsOptions",
    "State",
    "Tile",
    "fall_targets",
    "open_spaces",
    "rest_problem",
    "tile_info",
    "tile_table",
]
