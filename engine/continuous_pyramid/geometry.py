"""The 144-cell pyramid (CP-2) and the precomputed tables the rules run on.

Cells are numbered 0..143: level 1 row by row, then levels 2, 3 and 4. Every rule
question (sides, what lies below/on top, what must be filled before an upper cell
opens) is a table lookup, because the solver asks them millions of times.

CP-2 (second edition): ``L:r,c`` lies on ``(L-1):(r+1),(c+1)`` for levels 2 and 3 and
on ``3:(r+2),(c+2)`` for level 4, so the single top cell rests on the centre ``3:2,2``
as the seed has it ("a single 1x1 tile in the center"). The first edition of the
rulings applied the +1 offset to level 4 too and put it on ``3:1,1``; games begun
under it (option ``edition=1``) keep that geometry, so their move logs replay as they
were played. Only the relations that involve the top cell differ between editions:
cell names, levels and sides are shared.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.core.notation import cell_parts
from engine.core.text import N_, Phrase, phrase

#: Grid width of each level (index 0 unused).
LEVEL_SIZES: Final = (0, 9, 7, 5, 1)
LEVELS: Final = (1, 2, 3, 4)
#: The rules editions a game can be played under (CP-2); new games use the latest.
EDITIONS: Final = (1, 2)
LATEST_EDITION: Final = 2


@dataclass(frozen=True)
class Cell:
    """One place in the pyramid, with the relations the renderer and rules need."""

    index: int
    name: str
    level: int
    row: int
    col: int
    sides: tuple[int, ...]
    below: int | None
    top: int | None


def _grid(level: int) -> list[tuple[int, int]]:
    n = LEVEL_SIZES[level]
    corners = {(0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)} if n > 1 else set()
    return [(r, c) for r in range(n) for c in range(n) if (r, c) not in corners]


def cell_name(level: int, row: int, col: int) -> str:
    return f"{level}:{row},{col}"


def _below_coords(level: int, row: int, col: int, edition: int) -> tuple[int, int]:
    offset = 2 if level == 4 and edition >= 2 else 1
    return row + offset, col + offset


def _build(edition: int) -> tuple[Cell, ...]:
    coords = [(lv, r, c) for lv in LEVELS for (r, c) in _grid(lv)]
    index = {xyz: i for i, xyz in enumerate(coords)}
    tops: dict[int, int] = {}
    belows: dict[int, int] = {}
    for i, (lv, r, c) in enumerate(coords):
        if lv > 1:
            b = index[(lv - 1, *_below_coords(lv, r, c, edition))]
            belows[i] = b
            tops[b] = i
    cells = []
    for i, (lv, r, c) in enumerate(coords):
        sides = tuple(
            index[(lv, rr, cc)]
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if (lv, rr, cc) in index
        )
        cells.append(Cell(i, cell_name(lv, r, c), lv, r, c, sides, belows.get(i), tops.get(i)))
    return tuple(cells)


@dataclass(frozen=True)
class Geometry:
    """The lookup tables of one rules edition. Hot loops read these tuples directly."""

    edition: int
    cells: tuple[Cell, ...]
    #: -1 where there is nothing below / on top, so hot loops avoid Optional checks.
    below: tuple[int, ...]
    top: tuple[int, ...]
    #: Sides, the cell on top and the cell below (CP-2 "neighbours").
    neighbours: tuple[tuple[int, ...], ...]
    #: Cells whose tile a tile played here must fit one of: sides and the cell below
    #: (the cell on top can never be filled before this one).
    fit_neighbours: tuple[tuple[int, ...], ...]
    #: For an upper cell: the cells that must all hold tiles before it opens (CP-4):
    #: the cell below and every side of that cell. Empty for level 1.
    open_needs: tuple[tuple[int, ...], ...]
    #: For each cell, the upper cells whose ``open_needs`` contain it.
    unlocks: tuple[tuple[int, ...], ...]

    @classmethod
    def of_edition(cls, edition: int) -> Geometry:
        cells = _build(edition)
        open_needs = tuple(
            (cell.below, *cells[cell.below].sides) if cell.below is not None else () for cell in cells
        )
        return cls(
            edition=edition,
            cells=cells,
            below=tuple(-1 if cell.below is None else cell.below for cell in cells),
            top=tuple(-1 if cell.top is None else cell.top for cell in cells),
            neighbours=tuple(
                cell.sides + tuple(x for x in (cell.top, cell.below) if x is not None) for cell in cells
            ),
            fit_neighbours=tuple(cell.sides + ((cell.below,) if cell.below is not None else ()) for cell in cells),
            open_needs=open_needs,
            unlocks=tuple(
                tuple(u for u in range(len(cells)) if i in open_needs[u]) for i in range(len(cells))
            ),
        )


GEOMETRIES: Final[dict[int, Geometry]] = {edition: Geometry.of_edition(edition) for edition in EDITIONS}


def geometry(edition: int) -> Geometry:
    """The tables for a rules edition (the options model bounds ``edition``)."""
    return GEOMETRIES[edition]


#: The latest edition's tables under their historical names; a game's own edition is
#: found through :func:`geometry`.
_LATEST = GEOMETRIES[LATEST_EDITION]
CELLS: Final[tuple[Cell, ...]] = _LATEST.cells
NUM_CELLS: Final = len(CELLS)
CELL_INDEX: Final[dict[str, int]] = {cell.name: cell.index for cell in CELLS}
NAMES: Final[tuple[str, ...]] = tuple(cell.name for cell in CELLS)
CENTRE: Final = CELL_INDEX["1:4,4"]
TOP_CELL: Final = CELL_INDEX["4:0,0"]
LEVEL_OF: Final[tuple[int, ...]] = tuple(cell.level for cell in CELLS)
SIDES: Final[tuple[tuple[int, ...], ...]] = tuple(cell.sides for cell in CELLS)
BELOW: Final = _LATEST.below
TOP: Final = _LATEST.top
NEIGHBOURS: Final = _LATEST.neighbours
FIT_NEIGHBOURS: Final = _LATEST.fit_neighbours
OPEN_NEEDS: Final = _LATEST.open_needs
UNLOCKS: Final = _LATEST.unlocks

def _written(text: str) -> tuple[int, int, int] | None:
    """``(level, row, col)`` of text written ``L:r,c`` (spaces allowed), cell or not."""
    parts = cell_parts(text)
    if parts is None or parts[0] is None:
        return None
    return parts[0], parts[1], parts[2]


def parse_cell(text: str) -> int | None:
    """Index of a cell written ``L:r,c`` (spaces allowed); None if malformed or absent."""
    written = _written(text)
    return None if written is None else CELL_INDEX.get(cell_name(*written))


def describe_missing_cell(text: str) -> Phrase:
    """Why ``text`` names no cell, in words a player can act on."""
    written = _written(text)
    if written is None:
        shown = text.strip()
        shown = shown if len(shown) <= 24 else shown[:20] + "…"
        return phrase(N_("{text} is not a cell; cells are written level:row,col, like 1:4,4."), text=repr(shown))
    level, row, col = written
    if level not in LEVELS:
        return phrase(N_("There is no level {level}; the pyramid has levels 1 to 4."), level=level)
    n = LEVEL_SIZES[level]
    if not (0 <= row < n and 0 <= col < n):
        return phrase(N_("Level {level} rows and columns run 0 to {top}, so there is no cell {cell}."),
                      level=level, top=n - 1, cell=f"{level}:{row},{col}")
    return phrase(N_("There is no cell {cell}: the corners of each level are cut off."), cell=f"{level}:{row},{col}")


def geometry_table(edition: int = LATEST_EDITION) -> list[dict[str, object]]:
    """All 144 cells of an edition as plain data for the renderer and bot."""
    cells = geometry(edition).cells
    return [
        {
            "cell": cell.name,
            "level": cell.level,
            "row": cell.row,
            "col": cell.col,
            "sides": [NAMES[s] for s in cell.sides],
            "below": None if cell.below is None else NAMES[cell.below],
            "top": None if cell.top is None else NAMES[cell.top],
        }
        for cell in cells
    ]
