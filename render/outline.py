"""Outlining what changed since a player's last turn (``view["outline"]``).

The bot puts in a view the cells that moves made since a player's own last move
placed, removed or moved pieces on (``bot.cards.since``), named as the game's events
name them; each game's board drawing outlines those cells with :func:`draw`. A cell
still holding a piece gets a thick slate band with amber dashes on it; a cell left
empty gets a "ghost": a thinner dotted frame of the same two colours with the
background showing through. The two differ in shape, not only in colour, and both
differ from the last-move ring (solid raspberry), the legal spots (thin blue
dashes) and what this turn removed (dark red dashes with a cross).

Slate and amber are the header's own colours, so every game's learnt palette holds
them exactly (a new hue would be mapped onto the nearest learnt colour, often the
spots' blue). A view without the key draws exactly as before.

An entry may name the seat whose own board it is on, ``"1:0,0@2"``: games that draw
one board per seat (competitive Pyramido) outline it on that seat's board only;
games with one shared board ignore the seat.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from PIL import ImageDraw

from render.canvas import ACTIVE, HEADER_BG, Box, dashed_rect

#: The band under the dashes, and the dashes.
BAND = HEADER_BG
DASH = ACTIVE
#: How far the outline sits outside the cell's box (pieces sit a few px apart; the
#: band covers the piece's own rim rather than its neighbours').
PAD = 2


def entries(view: Mapping[str, Any]) -> list[tuple[str, int | None]]:
    """The view's outline as (cell, seat or None), in order, without repeats."""
    raw = view.get("outline")
    if not isinstance(raw, list | tuple | set | frozenset):
        return []
    found: dict[tuple[str, int | None], None] = {}
    for entry in raw:
        text = str(entry)
        cell, sep, owner = text.rpartition("@")
        if sep and cell and owner.isdigit():
            found[cell, int(owner)] = None
        elif text:
            found[text, None] = None
    return list(found)


def cells(view: Mapping[str, Any], seat: int | None = None, *, per_seat: bool = False) -> list[str]:
    """The cells to outline. On a shared board (``per_seat`` False) every entry counts,
    its seat ignored; on ``seat``'s own board only entries of that seat or of none."""
    out: dict[str, None] = {}
    for cell, owner in entries(view):
        if not per_seat or owner is None or owner == seat:
            out[cell] = None
    return list(out)


def indexes(outlined: Collection[str], prefix: str) -> list[int]:
    """Cells written ``<prefix><n>`` (Pyrinoes' ``line:3``) as their numbers."""
    found: list[int] = []
    for cell in outlined:
        if cell.startswith(prefix) and cell[len(prefix):].isdigit():
            found.append(int(cell[len(prefix):]))
    return found


def around(box: Box, pad: float = PAD) -> Box:
    x0, y0, x1, y1 = box
    return (x0 - pad, y0 - pad, x1 + pad, y1 + pad)


def draw(d: ImageDraw.ImageDraw, box: Box, *, gone: bool = False, size: float | None = None) -> None:
    """Outline one cell's ``box`` (``gone``: nothing is there now, draw its ghost).
    ``size`` is the piece's size in px (the box's smaller side by default): the band
    and dashes scale with it so a small piece keeps its face readable."""
    x0, y0, x1, y1 = box
    side = size if size is not None else min(x1 - x0, y1 - y0)
    width = max(5, round(side / 9))
    outer = around(box, PAD)
    dash, gap = max(8.0, side / 6), max(5.0, side / 10)
    if gone:
        thin = max(4, width - 2)
        dashed_rect(d, outer, BAND, width=thin, dash=dash / 2, gap=gap * 1.4)
        dashed_rect(d, outer, DASH, width=max(1, thin - 2), dash=dash / 2, gap=gap * 1.4)
        return
    d.rectangle(outer, outline=BAND, width=width)
    # ImageDraw draws the band inwards from `outer`; the dashes run along its middle
    mid = (width - 1) / 2
    dashed_rect(d, (outer[0] + mid, outer[1] + mid, outer[2] - mid, outer[3] - mid), DASH,
                width=max(2, width - 3), dash=dash, gap=gap)


__all__ = ["BAND", "DASH", "PAD", "around", "cells", "draw", "entries", "indexes"]
