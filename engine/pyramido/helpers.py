"""Plain helpers over position-JSON pyramids for the renderer and the bot; see the
package docstring."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.errors import IllegalMove
from engine.pyramido import geometry
from engine.pyramido.geometry import Cell, format_cell
from engine.pyramido.notation import parse_cell


def _cells(pyramid: Mapping[str, str]) -> dict[Cell, str]:
    return {parse_cell(key): colour.upper() for key, colour in pyramid.items()}


def legal_cells(pyramid: Mapping[str, str], size: int, colour: str) -> list[str]:
    return [format_cell(c) for c in geometry.legal_cells_for(_cells(pyramid), size, colour.upper())]


def cell_colours(pyramid: Mapping[str, str], size: int, cell: str) -> list[str]:
    try:
        target = parse_cell(cell)
    except IllegalMove:
        return []
    inner = _cells(pyramid)
    if target not in geometry.open_cells(inner, size):
        return []
    return list(geometry.colours_for(inner, target))


def open_cells(pyramid: Mapping[str, str], size: int) -> list[str]:
    return [format_cell(c) for c in geometry.open_cells(_cells(pyramid), size)]


def footprint(pyramid: Mapping[str, str]) -> tuple[int, int, int, int] | None:
    return geometry.footprint(_cells(pyramid))


def missing(pyramid: Mapping[str, str], size: int) -> int:
    return geometry.missing(_cells(pyramid), size)


def level_grids(pyramid: Mapping[str, str]) -> list[dict[str, Any]]:
    inner = _cells(pyramid)
    grids = []
    for level, (x0, y0, x1, y1) in sorted(geometry.level_boxes(inner).items()):
        rows = [[inner.get((level, x, y)) for x in range(x0, x1 + 1)] for y in range(y0, y1 + 1)]
        grids.append({"level": level, "x": x0, "y": y0, "width": x1 - x0 + 1, "height": y1 - y0 + 1, "rows": rows})
    return grids
