"""Cells, supports, touching and open spaces (FP-2, FP-3).

The pyramid is a plain ``dict`` of cell -> tile code, so copying it is one C-level
dict copy and every rule is a few dict look-ups.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.core.notation import cell_parts

Cell = tuple[int, int]
Pyramid = Mapping[Cell, str]

_TEXT_CACHE: dict[Cell, str] = {}


def cell_text(cell: Cell) -> str:
    """'r,c' — cached because move strings and events format the same cells over and over."""
    text = _TEXT_CACHE.get(cell)
    if text is None:
        text = f"{cell[0]},{cell[1]}"
        if len(_TEXT_CACHE) < 100_000:
            _TEXT_CACHE[cell] = text
    return text


def parse_cell(text: str) -> Cell | None:
    """'1,0' (spaces allowed around the comma) -> (1, 0); None when it is not a cell
    (a level, as other games write, is not one here)."""
    parts = cell_parts(text)
    if parts is None or parts[0] is not None:
        return None
    return (parts[1], parts[2])


def scan_key(cell: Cell) -> tuple[int, int]:
    """Sort key for the scan order: top row first, then left to right."""
    return (-cell[0], cell[1])


def scan_sorted(cells: Iterable[Cell]) -> list[Cell]:
    return sorted(cells, key=scan_key)


def supports(cell: Cell) -> tuple[Cell, Cell]:
    r, c = cell
    return (r - 1, c), (r - 1, c + 1)


def touching(cell: Cell) -> tuple[Cell, Cell, Cell, Cell, Cell, Cell]:
    """The six neighbours of FP-2 (rows below 0 never hold a tile, so they are harmless)."""
    r, c = cell
    return (r, c - 1), (r, c + 1), (r - 1, c), (r - 1, c + 1), (r + 1, c - 1), (r + 1, c)


def open_spaces(pyramid: Pyramid) -> list[Cell]:
    """Where the active player may place a tile (FP-3), in scan order.

    The table with no base tile is treated as empty (only 0,0), which only matters for
    hand-made positions: in play every upper tile rests, through its supports, on the base.
    """
    spaces: list[Cell] = []
    base: list[int] = []
    for (r, c) in pyramid:
        if r == 0:
            base.append(c)
        # An occupied cell with an occupied right neighbour offers the cell above them.
        if (r, c + 1) in pyramid and (r + 1, c) not in pyramid:
            spaces.append((r + 1, c))
    if not base:
        return [(0, 0)]
    low, high = min(base), max(base)
    if high - low + 1 > len(base):
        spaces.extend((0, c) for c in range(low + 1, high) if (0, c) not in pyramid)
    if not spaces:
        return [(0, low - 1), (0, high + 1)]
    if len(spaces) > 1:
        spaces.sort(key=scan_key)
    return spaces
