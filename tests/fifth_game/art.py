"""Pebble Pyramid's pictures (the second place a game is registered): the pyramid of
stones with the legal stones lettered, and the viewer's tokens for a DM.

Drawn with the shared kit (``render.canvas``, ``render.layout``, ``render.common``) so
the fifth game looks like the other four; no palette was learnt for it, so its
:class:`~render.art.Art` asks for an adaptive one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from engine.core import Event
from render import canvas as cv
from render import layout as lo
from render import outline as ol
from render.art import Art
from render.canvas import RGB, Box
from render.common import game_number, narrate, result_text, to_act, turn_text, viewer, visible_events, winners
from render.layout import Chip
from tests.fifth_game.engine import GAME_ID
from tests.fifth_game.state import CELLS, COLOUR_NAMES, ROWS

TITLE = "Pebble Pyramid"
ACCENT: RGB = (120, 96, 180)
WIDTH = 900
STONE = 96
GAP = 14
COLOURS: dict[str, RGB] = {"R": (205, 62, 52), "G": (58, 150, 84), "B": (52, 104, 206)}
UNKNOWN: RGB = (150, 150, 150)


def _chips(view: dict[str, Any], names: list[str]) -> list[Chip]:
    taken = list(view.get("taken") or [[], []])
    sizes = list(view.get("hand_sizes") or [0, 0])
    won = winners(view)
    chips = []
    for seat, name in enumerate(names[:2]):
        stones = len(taken[seat]) if seat < len(taken) else 0
        tokens = sizes[seat] if seat < len(sizes) else 0
        you = " (you)" if viewer(view) == seat else ""
        chips.append(Chip(f"{name}{you}", f"{_plural(stones, 'stone')} won · {_plural(tokens, 'token')} in hand",
                          to_act(view) == seat, seat in won))
    return chips


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _status(view: dict[str, Any], names: list[str]) -> str:
    if view.get("result") is not None:
        return result_text(view)
    seat = to_act(view)
    return f"{names[seat]} to play" if seat is not None and seat < len(names) else ""


def _header(view: dict[str, Any], names: list[str]) -> Image.Image:
    return lo.header(WIDTH, TITLE, game_number(view), turn_text(view), _chips(view, names), ACCENT,
                     _status(view, names))


def cell_box(cell: str, top: float) -> Box:
    """Row 0 is the base, at the bottom; each row up sits half a stone in."""
    r, c = (int(n) for n in cell.split(","))
    step = STONE + GAP
    left = (WIDTH - ROWS * step + GAP) / 2 + r * step / 2 + c * step
    y = top + (ROWS - 1 - r) * (STONE - 10)
    return left, y, left + STONE, y + STONE


def _stone(d: ImageDraw.ImageDraw, img: Image.Image, box: Box, colour: str) -> None:
    fill = COLOURS.get(colour, UNKNOWN)
    d.ellipse(box, fill=fill, outline=cv.shade(fill, 0.6), width=4)
    x0, y0, x1, y1 = box
    cv.static_text(img, ((x0 + x1) / 2, (y0 + y1) / 2), colour, 40, True, cv.WHITE, "mm", 2, cv.shade(fill, 0.5))


def _empty(d: ImageDraw.ImageDraw, box: Box, gone: bool) -> None:
    """An emptied cell: a faint ring, or a dark red crossed ring where a stone was
    taken this turn."""
    x0, y0, x1, y1 = box
    inset = (x0 + 10, y0 + 10, x1 - 10, y1 - 10)
    d.ellipse(inset, outline=cv.GONE if gone else cv.PANEL_EDGE, width=4 if gone else 3)
    if gone:
        cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, STONE * 0.18
        d.line((cx - r, cy - r, cx + r, cy + r), fill=cv.GONE, width=5)
        d.line((cx - r, cy + r, cx + r, cy - r), fill=cv.GONE, width=5)


def _last_cells(events: Sequence[Event]) -> list[str]:
    return [cell for e in events if e.kind == "take" for cell in e.cells]


def _pyramid(view: dict[str, Any], labels: dict[str, str], events: Sequence[Event]) -> Image.Image:
    top = 56
    height = top + (ROWS - 1) * (STONE - 10) + STONE + 24
    img = Image.new("RGB", (WIDTH, height), cv.BG)
    d = ImageDraw.Draw(img)
    lo.section_title(img, (cv.MARGIN, 38), "THE PYRAMID", fill=cv.INK)
    pyramid = view.get("pyramid") or {}
    taken_now = _last_cells(events)
    for cell in CELLS:
        box = cell_box(cell, top)
        colour = pyramid.get(cell) if isinstance(pyramid, dict) else None
        if colour is None:
            _empty(d, box, gone=cell in taken_now)
            continue
        _stone(d, img, box, str(colour))
        if cell in labels:
            x0, y0, x1, y1 = box
            d.ellipse((x0 - 4, y0 - 4, x1 + 4, y1 + 4), outline=cv.SPOT, width=4)
            cv.badge(img, (x0 + 12, y0 + 12), 17, labels[cell], cv.SPOT, cv.WHITE)
    for cell in ol.cells(view):  # changed since the viewer's turn
        if cell in CELLS:
            ol.draw(d, cell_box(cell, top), gone=not isinstance(pyramid, dict) or cell not in pyramid)
    return img


def _supplies(view: dict[str, Any], names: list[str]) -> Image.Image:
    """The deck's size, the public spent tokens and lost stones, and each seat's stones won."""
    img = Image.new("RGB", (WIDTH, 188), cv.BG)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((cv.MARGIN - 6, 6, WIDTH - cv.MARGIN + 6, 180), 12, fill=cv.PANEL, outline=cv.PANEL_EDGE,
                        width=2)
    deck = view.get("deck")
    count = deck if isinstance(deck, int) else len(deck or [])
    f = cv.font(22, True)
    d.text((cv.MARGIN + 8, 36), f"Deck: {_plural(count, 'token')}", font=f, fill=cv.INK, anchor="lm")
    _tokens(img, d, [str(t) for t in view.get("discards") or []], cv.MARGIN + 250, 36, "Spent", 22)
    taken = list(view.get("taken") or [[], []])
    rows = [(f"{names[seat] if seat < len(names) else f'Player {seat + 1}'} won",
             [str(s) for s in (taken[seat] if seat < len(taken) else [])]) for seat in range(2)]
    rows.append(("Lost", [str(s) for s in view.get("lost") or []]))
    for i, (caption, stones) in enumerate(rows):
        _tokens(img, d, stones, cv.MARGIN + 8, 80 + i * 38, cv.ellipsize(caption, f, 200), 30, circles=True)
    return img


def _tokens(img: Image.Image, d: ImageDraw.ImageDraw, tokens: list[str], x: float, y: float, caption: str,
            size: int, circles: bool = False) -> None:
    f = cv.font(20, True)
    d.text((x, y), caption, font=f, fill=cv.MUTED, anchor="lm")
    x += 210 if circles else cv.text_width(caption, f) + 12
    for token in tokens:
        fill = COLOURS.get(token, UNKNOWN)
        box = (x, y - size / 2, x + size, y + size / 2)
        if circles:
            d.ellipse(box, fill=fill, outline=cv.shade(fill, 0.6), width=2)
        else:
            d.rounded_rectangle(box, 5, fill=fill, outline=cv.shade(fill, 0.6), width=2)
        x += size + 6


def draw_board(view: dict[str, Any], labels: dict[str, str], events: Sequence[Event]) -> Image.Image:
    names = cv.names_of(view)
    shown = visible_events(view, events)
    lines = [narrate(e, names) for e in shown if e.kind in ("take", "pass")]
    return lo.stack([_header(view, names), _pyramid(view, labels, shown), _supplies(view, names),
                     lo.footer_lines(WIDTH, lines)], WIDTH)


def draw_hand(view: dict[str, Any]) -> Image.Image:
    """The viewer's tokens, large, each named, with the stones they could take."""
    names = cv.names_of(view)
    seat = viewer(view)
    hands = view.get("hands") or []
    hand = hands[seat] if seat is not None and seat < len(hands) and isinstance(hands[seat], list) else []
    body = Image.new("RGB", (WIDTH, 190), cv.BG)
    d = ImageDraw.Draw(body)
    lo.section_title(body, (cv.MARGIN, 38), "YOUR TOKENS", fill=cv.INK)
    if not hand:
        d.text((cv.MARGIN, 110), "You hold no tokens.", font=cv.font(26, True), fill=cv.MUTED, anchor="lm")
    free = {str(c) for c in view.get("free") or []}
    pyramid = view.get("pyramid") or {}
    for i, token in enumerate(str(t) for t in hand):
        x0 = cv.MARGIN + i * 280
        fill = COLOURS.get(token, UNKNOWN)
        d.rounded_rectangle((x0, 60, x0 + 100, 160), 14, fill=fill, outline=cv.shade(fill, 0.6), width=4)
        cv.static_text(body, (x0 + 50, 110), token, 48, True, cv.WHITE, "mm", 2, cv.shade(fill, 0.5))
        fits = sum(1 for cell in free if isinstance(pyramid, dict) and pyramid.get(cell) == token)
        d.text((x0 + 114, 94), COLOUR_NAMES.get(token, token), font=cv.font(24, True), fill=cv.INK, anchor="lm")
        d.text((x0 + 114, 128), f"fits {_plural(fits, 'free stone')}", font=cv.font(19), fill=cv.MUTED, anchor="lm")
    return lo.stack([_header(view, names), body], WIDTH)


ART = Art(GAME_ID, draw_board, draw_hand, palette=None)
