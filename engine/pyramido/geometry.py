"""Pyramid geometry and the building rules (PD-2, PD-3).

A pyramid is a plain ``dict`` from cell ``(level, x, y)`` to colour letter. Level 1
lives on an unbounded grid; a level-(k+1) cell ``(k+1, x, y)`` rests on the level-k
cells ``x..x+1, y..y+1``. Everything here is a pure function of the pyramid so the
rules, the AI and the renderer share one definition of what is legal.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.core.text import N_, Phrase, or_list, phrase, plural
from engine.pyramido.stones import COLOUR_INDEX, COLOURS, pyramid_total, stone_word

Cell = tuple[int, int, int]
Pyramid = Mapping[Cell, str]

_NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1))
#: Offsets of the four 2×2 squares a cell is a corner of (and of the four cells
#: above it whose square it is part of).
SQUARE_OFFSETS = ((-1, -1), (0, -1), (-1, 0), (0, 0))


def format_cell(cell: Cell) -> str:
    level, x, y = cell
    return f"{level}:{x},{y}"


def beneath(cell: Cell) -> tuple[Cell, Cell, Cell, Cell]:
    """The 2×2 square a stone above level 1 rests on."""
    level, x, y = cell
    k = level - 1
    return ((k, x, y), (k, x + 1, y), (k, x, y + 1), (k, x + 1, y + 1))


def footprint(pyramid: Pyramid) -> tuple[int, int, int, int] | None:
    """Bounding box ``(min_x, min_y, max_x, max_y)`` of level 1, or None when empty."""
    xs = [x for (level, x, _y) in pyramid if level == 1]
    if not xs:
        return None
    ys = [y for (level, _x, y) in pyramid if level == 1]
    return min(xs), min(ys), max(xs), max(ys)


def is_complete(pyramid: Pyramid, size: int) -> bool:
    """Stones can only sit inside the footprint, so the count alone tells."""
    return len(pyramid) >= pyramid_total(size)


def missing(pyramid: Pyramid, size: int) -> int:
    return max(0, pyramid_total(size) - len(pyramid))


def matching(colours: tuple[str, str, str, str] | list[str]) -> tuple[str, ...]:
    """The colours a stone on this square may have: the majority (3-4, or 2 in a
    2+1+1), both colours of a 2+2, any of four different colours."""
    tally: dict[str, int] = {}
    for c in colours:
        tally[c] = tally.get(c, 0) + 1
    top = max(tally.values())
    best = [c for c, n in tally.items() if n == top]
    return tuple(sorted(best, key=COLOUR_INDEX.__getitem__))


def supported(pyramid: Pyramid, cell: Cell) -> bool:
    if cell[0] == 1:
        return True
    return all(c in pyramid for c in beneath(cell))


def square_colours(pyramid: Pyramid, cell: Cell) -> tuple[str, ...]:
    """What the square beneath permits (PD-3 'match'); every colour on level 1."""
    if cell[0] == 1:
        return COLOURS
    below = beneath(cell)
    return matching([pyramid[c] for c in below])


_ALL = frozenset(COLOURS)


def four_colour_threats(pyramid: Pyramid, cell: Cell) -> frozenset[str]:
    """The colours that would complete a four-colour square at ``cell``: for each
    same-level square around it whose other three stones are placed in three
    different colours, the two colours missing from it."""
    level, x, y = cell
    get = pyramid.get
    n = get((level, x, y - 1))
    s = get((level, x, y + 1))
    w = get((level, x - 1, y))
    e = get((level, x + 1, y))
    bad: frozenset[str] = frozenset()
    if n is not None:
        if w is not None:
            c = get((level, x - 1, y - 1))
            if c is not None and n != w and n != c and w != c:
                bad = bad | (_ALL - {n, w, c})
        if e is not None:
            c = get((level, x + 1, y - 1))
            if c is not None and n != e and n != c and e != c:
                bad = bad | (_ALL - {n, e, c})
    if s is not None:
        if w is not None:
            c = get((level, x - 1, y + 1))
            if c is not None and s != w and s != c and w != c:
                bad = bad | (_ALL - {s, w, c})
        if e is not None:
            c = get((level, x + 1, y + 1))
            if c is not None and s != e and s != c and e != c:
                bad = bad | (_ALL - {s, e, c})
    return bad


def completes_four(pyramid: Pyramid, cell: Cell, colour: str) -> bool:
    return colour in four_colour_threats(pyramid, cell)


def colours_for(pyramid: Pyramid, cell: Cell) -> tuple[str, ...]:
    """The colours a free, supported cell accepts under every PD-3 rule, including
    the four-colour rule and its level-2+ exception."""
    permitted = square_colours(pyramid, cell)
    bad = four_colour_threats(pyramid, cell)
    if not bad:
        return permitted
    clean = tuple(c for c in permitted if c not in bad)
    if clean or cell[0] == 1:
        return clean
    # Every colour the square beneath permits would complete a four-colour square:
    # the lower level forced it, so any of them is allowed (PD-3 exception).
    return permitted


def level1_open(pyramid: Pyramid, size: int, x: int, y: int, box: tuple[int, int, int, int] | None) -> bool:
    """Edge contact and the footprint limit for a free level-1 cell."""
    if box is None:
        return True
    if not any((1, x + dx, y + dy) in pyramid for dx, dy in _NEIGHBOURS):
        return False
    min_x, min_y, max_x, max_y = box
    return max(max_x, x) - min(min_x, x) < size and max(max_y, y) - min(min_y, y) < size


def open_cells(pyramid: Pyramid, size: int) -> list[Cell]:
    """Free cells where some stone could go structurally (before colour rules),
    sorted by level then column then row."""
    box = footprint(pyramid)
    if box is None:
        return [(1, 0, 0)]
    # Level-1 cells stay inside every size×size frame that still contains the box.
    lo_x, lo_y = box[2] - size + 1, box[3] - size + 1
    hi_x, hi_y = box[0] + size - 1, box[1] + size - 1
    cells: set[Cell] = set()
    for cell in pyramid:
        level, x, y = cell
        if level == 1:
            for dx, dy in _NEIGHBOURS:
                nx, ny = x + dx, y + dy
                if lo_x <= nx <= hi_x and lo_y <= ny <= hi_y and (1, nx, ny) not in pyramid:
                    cells.add((1, nx, ny))
        if level < size:
            up = (level + 1, x, y)
            if (
                up not in pyramid
                and (level, x + 1, y) in pyramid
                and (level, x, y + 1) in pyramid
                and (level, x + 1, y + 1) in pyramid
            ):
                cells.add(up)
    return sorted(cells)


def either(colours: tuple[str, ...] | list[str]) -> object:
    """'red', 'red or yellow', 'red, yellow, green or blue' (as a translatable text argument)."""
    return or_list(stone_word(c) for c in colours)


def check_place(pyramid: Pyramid, size: int, cell: Cell, colour: str) -> Phrase | None:
    """Why ``colour`` may not go to ``cell`` (a sentence for the player), or None. It names the spot
    by its level, never by the notation's cell ("1:0,2" is on no picture): a player reads it after
    typing a move, or a click that came too late."""
    level, x, y = cell
    if level < 1 or level > size:
        return phrase(N_("There is no level {level} in a pyramid with a {size}×{size} base."), level=level, size=size)
    if cell in pyramid:
        return phrase(N_("That spot on level {level} already holds a stone."), level=level)
    if level == 1:
        box = footprint(pyramid)
        if box is not None:
            if not any((1, x + dx, y + dy) in pyramid for dx, dy in _NEIGHBOURS):
                return phrase(N_("A level-1 stone must share an edge with a level-1 stone already placed; that "
                                 "spot does not."))
            if not level1_open(pyramid, size, x, y, box):
                return phrase(N_("That spot would make the base wider than {size}×{size}."), size=size)
    else:
        lacking = [c for c in beneath(cell) if c not in pyramid]
        if lacking:
            return phrase(plural(len(lacking),
                                 N_("That spot on level {level} needs the four stones beneath it first; {count} of "
                                    "them is still empty."),
                                 N_("That spot on level {level} needs the four stones beneath it first; {count} of "
                                    "them are still empty.")), level=level, count=len(lacking))
        permitted = square_colours(pyramid, cell)
        if colour not in permitted:
            return phrase(N_("That spot on level {level} must match the square beneath it: {colours}, not "
                             "{colour}."), level=level, colours=either(permitted), colour=stone_word(colour))
    if completes_four(pyramid, cell, colour):
        if level == 1:
            return phrase(N_("{colour} there would make a square of four different colours."),
                          colour=stone_word(colour))
        permitted = square_colours(pyramid, cell)
        escape = [c for c in permitted if not completes_four(pyramid, cell, c)]
        if escape:
            return phrase(N_("{colour} there would make a square of four different colours, and {colours} "
                             "would not, so the square beneath does not force it."), colour=stone_word(colour),
                          colours=either(escape))
    return None


def placements(pyramid: Pyramid, size: int, colours: tuple[str, ...] | list[str] | set[str]) -> list[tuple[str, Cell]]:
    """Every legal (colour, cell) for the given colours, cells in ``open_cells`` order
    and colours in rule order within a cell."""
    wanted = set(colours)
    found: list[tuple[str, Cell]] = []
    for cell in open_cells(pyramid, size):
        for c in colours_for(pyramid, cell):
            if c in wanted:
                found.append((c, cell))
    return found


def legal_cells_for(pyramid: Pyramid, size: int, colour: str) -> list[Cell]:
    return [cell for cell in open_cells(pyramid, size) if colour in colours_for(pyramid, cell)]


def level_boxes(pyramid: Pyramid) -> dict[int, tuple[int, int, int, int]]:
    """Per-level bounding boxes ``(min_x, min_y, max_x, max_y)`` of placed stones."""
    boxes: dict[int, tuple[int, int, int, int]] = {}
    for level, x, y in pyramid:
        box = boxes.get(level)
        if box is None:
            boxes[level] = (x, y, x, y)
        else:
            boxes[level] = (min(box[0], x), min(box[1], y), max(box[2], x), max(box[3], y))
    return boxes
