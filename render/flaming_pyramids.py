"""Flaming Pyramids: the shared pyramid (auto-fitted to any base width) and a hand.

A tile shows its colour three ways (fill, a shape per colour, and the shape's
position), its weight as the big number, and its material as texture so straw,
wood and stone differ at a glance; the specials have their own faces.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from engine.core import Event
from engine.flaming_pyramids import tile_table
from i18n import N_, Lang
from render import canvas as cv
from render import flaming_pyramids_text as words
from render import layout as lo
from render import outline as ol
from render import shapes as sh
from render import textlog
from render.art import Art
from render.canvas import RGB, Box
from render.common import game_number, narrate, result_text, to_act, turn_text, viewer, visible_events, winners
from render.layout import Chip
from render.words import lang as lang_of

TITLE = "Flaming Pyramids"
ACCENT: RGB = (232, 106, 36)
#: Vermillion, bluish green, blue and yellow (after Okabe and Ito): every pair stays
#: apart under the three common colour-vision deficiencies (tests/render/test_colour_vision.py).
COLOURS: dict[str, RGB] = {"R": (235, 77, 19), "G": (12, 150, 101), "B": (34, 79, 195), "Y": (234, 180, 24)}
SYMBOLS: dict[str, str] = {"R": "triangle", "G": "circle", "B": "square", "Y": "star"}
COLOUR_WORDS: dict[str, str] = {"R": N_("red"), "G": N_("green"), "B": N_("blue"), "Y": N_("yellow")}
#: The materials as the tile table names them, marked to be drawn translated.
MATERIAL_WORDS = (N_("straw"), N_("wood"), N_("stone"))
TABLE: dict[str, dict[str, object]] = tile_table()

#: Tile proportions: bricks a little wider than tall.
ASPECT = 0.78
MIN_WIDTH = 900
MAX_WIDTH = 1600
MAX_TILE = 112
PREFERRED_TILE = 84
MIN_TILE = 28
#: A hand's tiles (up to five in a row), and the legend's words.
HAND_TILE = 150
LEGEND_PX = 19
#: Kinds of event whose tiles leave the pyramid; the value says which of the event's
#: (cell, tile) pairs went.
REMOVING = {"collapse": 1, "explosion": 0, "fire": 0, "curse": 0}
MAYHEM = {"collapse", "explosion", "fire", "curse", "fall", "free_air"}


def _info(code: str) -> tuple[str, int, str, str]:
    row = TABLE.get(code)
    if row is None:
        return ("", 0, "straw", "regular")
    return (str(row["colours"]), int(str(row["weight"])), str(row["material"]), str(row["kind"]))


def _cell(text: str) -> tuple[int, int] | None:
    parts = text.split(",")
    if len(parts) != 2:
        return None
    try:
        return int(parts[0]), int(parts[1])
    except ValueError:
        return None


# --- the tile face -------------------------------------------------------------------
def _lcg(seed: int) -> Any:
    state = seed & 0xFFFFFFFF
    while True:
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        yield state / 0x7FFFFFFF


@lru_cache(maxsize=256)
def tile_sprite(code: str, width: int) -> Image.Image:
    """The face of one tile at ``width`` px (height follows ASPECT); cached, since
    the same 45 faces at a handful of sizes make every picture."""
    height = max(8, round(width * ASPECT))
    return cv.supersample(width, height, lambda img, d, s: _paint_tile(img, d, code, width * s, height * s))


@lru_cache(maxsize=64)
def ghost_sprite(code: str, width: int) -> Image.Image:
    return cv.ghost(tile_sprite(code, width))


def _paint_tile(img: Image.Image, d: ImageDraw.ImageDraw, code: str, w: float, h: float) -> None:
    colours, weight, material, kind = _info(code)
    base = COLOURS.get(colours[:1], (150, 150, 150)) if kind != "millstone" else (150, 146, 140)
    lip = h * 0.07
    radius = int(h * 0.13)
    outline = cv.shade(base, 0.45) if kind != "coal" else (20, 18, 16)
    body: Box = (0, 0, w - 1, h - 1 - lip)
    d.rounded_rectangle((0, lip, w - 1, h - 1), radius, fill=cv.shade(base, 0.55) if kind != "coal" else (12, 10, 9))
    if kind == "coal":
        _coal(d, body, radius, base, h)
    else:
        d.rounded_rectangle(body, radius, fill=base)
        if material == "straw":
            _straw(d, body, base, h)
        elif material == "wood":
            _wood(d, body, base, h)
        elif kind == "millstone" or material == "stone":
            _speckles(d, body, base, h, code)
        if kind == "blowtorch":
            _flame(d, body, h)
    # border: stone is heavy-edged, the millstone has its rainbow ring
    bw = max(2, int(h * 0.045))
    if kind == "millstone":
        _rainbow_ring(img, d, body, radius, h)
    elif material == "stone":
        d.rounded_rectangle(body, radius, outline=outline, width=int(bw * 2.2))
        inset = bw * 2.2 + h * 0.025
        d.rounded_rectangle((body[0] + inset, body[1] + inset, body[2] - inset, body[3] - inset),
                            max(1, int(radius - inset)), outline=cv.shade(base, 1.45), width=max(1, int(bw * 0.6)))
    elif kind != "coal":
        d.rounded_rectangle(body, radius, outline=outline, width=bw)
    # weight
    text = str(weight)
    size = int(h * 0.65)  # as big as fits under the colour mark: a base of 14 is ~20 px a tile on a phone
    cx = (body[0] + body[2]) / 2 + (w * 0.04 if kind not in {"millstone", "blowtorch"} else 0)
    if kind == "blowtorch":
        cx = body[0] + w * 0.42
    cy = body[1] + (body[3] - body[1]) * (0.65 if kind != "millstone" else 0.64)
    room = w * (0.84 if kind != "blowtorch" else 0.5)
    stroke = max(2, int(h * 0.045))
    f = cv.fit_font(text, size, room / 0.72, bold=True, min_size=6)  # condensed before smaller
    cv.condensed_text(img, (cx, cy), text, f, cv.WHITE, room, stroke, (28, 22, 18))
    # colour mark(s), over the number's edge: the shape must show whole for colour-blind players
    sym_r = h * 0.15
    sx, sy = body[0] + h * 0.2, body[1] + h * 0.21
    if kind == "millstone":
        for i, c in enumerate("RGBY"):
            cx = body[0] + w * (0.2 + 0.2 * i)
            sh.symbol(d, SYMBOLS[c], (cx, body[1] + h * 0.2), h * 0.1, COLOURS[c], (25, 22, 20), max(1, int(h * 0.02)))
    elif kind == "coal":
        sh.symbol(d, SYMBOLS[colours[0]], (sx, sy), sym_r, base, (245, 240, 230), max(2, int(h * 0.025)))
    else:
        sh.symbol(d, SYMBOLS[colours[0]], (sx, sy), sym_r, cv.WHITE, cv.shade(base, 0.35), max(2, int(h * 0.03)))


def _straw(d: ImageDraw.ImageDraw, body: Box, base: RGB, h: float) -> None:
    """Diagonal hatching, like bundled straw."""
    x0, y0, x1, y1 = body
    light = cv.shade(base, 1.42)
    step = h * 0.16
    width = max(1, int(h * 0.03))
    x = x0 - (y1 - y0)
    inset = h * 0.06
    while x < x1:
        a = (x, y1 - inset)
        b = (x + (y1 - y0), y0 + inset)
        # clip to the body horizontally
        ax, ay = a
        bx, by = b
        if ax < x0 + inset:
            ay -= (x0 + inset - ax)
            ax = x0 + inset
        if bx > x1 - inset:
            by += bx - (x1 - inset)
            bx = x1 - inset
        if ax < bx:
            d.line((ax, ay, bx, by), fill=light, width=width)
        x += step


def _wood(d: ImageDraw.ImageDraw, body: Box, base: RGB, h: float) -> None:
    """Wavy grain stripes."""
    x0, y0, x1, y1 = body
    dark = cv.shade(base, 0.72)
    width = max(1, int(h * 0.028))
    rows = 4
    for i in range(rows):
        y = y0 + (y1 - y0) * (i + 0.75) / (rows + 0.5)
        pts = []
        steps = 14
        for k in range(steps + 1):
            x = x0 + h * 0.08 + (x1 - x0 - h * 0.16) * k / steps
            pts.append((x, y + math.sin(k * 0.9 + i * 1.7) * h * 0.025))
        d.line(pts, fill=dark, width=width, joint="curve")


def _speckles(d: ImageDraw.ImageDraw, body: Box, base: RGB, h: float, code: str) -> None:
    x0, y0, x1, y1 = body
    rnd = _lcg(sum(ord(c) * 31 ** i for i, c in enumerate(code)))
    dark, light = cv.shade(base, 0.6), cv.shade(base, 1.35)
    for i in range(26):
        x = x0 + h * 0.12 + (x1 - x0 - h * 0.24) * next(rnd)
        y = y0 + h * 0.12 + (y1 - y0 - h * 0.24) * next(rnd)
        r = h * (0.012 + 0.018 * next(rnd))
        d.ellipse((x - r, y - r, x + r, y + r), fill=dark if i % 2 else light)


def _coal(d: ImageDraw.ImageDraw, body: Box, radius: int, base: RGB, h: float) -> None:
    """Charcoal-black with glowing embers, rimmed in its colour."""
    x0, y0, x1, y1 = body
    d.rounded_rectangle(body, radius, fill=base)
    rim = h * 0.09
    d.rounded_rectangle((x0 + rim, y0 + rim, x1 - rim, y1 - rim), max(1, int(radius - rim / 2)), fill=(40, 36, 34))
    rnd = _lcg(7)
    for i in range(9):
        x = x0 + rim * 2 + (x1 - x0 - rim * 4) * next(rnd)
        y = y0 + (y1 - y0) * (0.7 + 0.2 * next(rnd))
        r = h * (0.02 + 0.025 * next(rnd))
        d.ellipse((x - r * 1.8, y - r * 1.8, x + r * 1.8, y + r * 1.8), fill=(120, 40, 16))
        d.ellipse((x - r, y - r, x + r, y + r), fill=(255, 140, 30) if i % 2 else (255, 200, 60))


def _flame(d: ImageDraw.ImageDraw, body: Box, h: float) -> None:
    """A torch flame on the right of a Blowtorch."""
    x0, y0, x1, y1 = body
    cx = x1 - (x1 - x0) * 0.2
    base_y = y1 - h * 0.1
    for scale, colour in ((1.0, (255, 120, 20)), (0.62, (255, 214, 64))):
        fh = (y1 - y0) * 0.78 * scale
        fw = h * 0.26 * scale
        pts = [
            (cx, base_y - fh),
            (cx + fw * 0.55, base_y - fh * 0.55),
            (cx + fw, base_y - fh * 0.25),
            (cx + fw * 0.7, base_y),
            (cx - fw * 0.7, base_y),
            (cx - fw, base_y - fh * 0.25),
            (cx - fw * 0.2, base_y - fh * 0.5),
        ]
        d.polygon(pts, fill=colour, outline=(120, 40, 10) if scale == 1.0 else None, width=max(1, int(h * 0.02)))


def _rainbow_ring(img: Image.Image, d: ImageDraw.ImageDraw, body: Box, radius: int, h: float) -> None:
    """The Millstone has every colour: its rim is four coloured quarters."""
    x0, y0, x1, y1 = body
    bw = max(3, int(h * 0.085))
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    quarters = (("R", (x0, y0, mx, my)), ("G", (mx, y0, x1, my)), ("B", (mx, my, x1, y1)), ("Y", (x0, my, mx, y1)))
    ring = Image.new("L", img.size, 0)
    cv.draw(ring).rounded_rectangle(body, radius, outline=255, width=bw)
    for c, box in quarters:
        quarter = Image.new("L", img.size, 0)
        cv.draw(quarter).rectangle(box, fill=255)
        img.paste(COLOURS[c] + (255,), (0, 0), ImageChops.multiply(ring, quarter))
    d.rounded_rectangle(body, radius, outline=(30, 26, 22), width=max(1, int(h * 0.02)))


# --- the board -----------------------------------------------------------------------
@dataclass
class Marks:
    """What the events and view ask us to point at."""

    last: list[str] = field(default_factory=list)
    ghosts: dict[str, str] = field(default_factory=dict)
    #: Every tile this turn's mayhem removed, in order (a spot can lose two tiles in
    #: one turn, and a reopened spot shows no ghost: the legend lists them all).
    removed: list[str] = field(default_factory=list)
    moved_from: dict[str, str] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)


def _marks(view: dict[str, Any], events: Sequence[Event], names: Sequence[str]) -> Marks:
    pyramid: dict[str, str] = view.get("pyramid") or {}
    marks = Marks()
    lang = lang_of(view)
    mayhem = any(e.kind in MAYHEM for e in events)
    for e in events:
        if e.kind == "play" and e.cells and e.items and pyramid.get(e.cells[0]) == e.items[0]:
            marks.last.append(e.cells[0])
        elif e.kind == "fall" and len(e.cells) >= 2 and e.items and pyramid.get(e.cells[1]) == e.items[0]:
            marks.last.append(e.cells[1])
            marks.moved_from[e.cells[1]] = e.cells[0]
        skip = REMOVING.get(e.kind)
        if skip is not None:
            for cell, tile in list(zip(e.cells, e.items, strict=False))[skip:]:
                marks.removed.append(tile)
                if cell not in pyramid:
                    marks.ghosts[cell] = tile
        if mayhem and e.kind in MAYHEM | {"play", "win", "turn_limit"} and e.kind not in {"free_air"}:
            marks.lines.append(narrate(e, names, lang))
    return marks


def _chips(view: dict[str, Any], names: list[str]) -> list[Chip]:
    hands = view.get("hand_sizes") or [h if isinstance(h, int) else len(h) for h in view.get("hands") or []]
    piles = view.get("piles") or []
    acting = to_act(view)
    won = winners(view)
    lang = lang_of(view)
    chips = []
    for seat, name in enumerate(names):
        hand = hands[seat] if seat < len(hands) else 0
        pile = piles[seat] if seat < len(piles) else 0
        you = lang.gettext(" (you)") if viewer(view) == seat else ""
        chips.append(Chip(name + you, lang.tr("hand {hand} · pile {pile}", hand=hand, pile=pile), seat == acting,
                          seat in won))
    return chips


def _status(view: dict[str, Any], names: list[str]) -> str:
    if view.get("result") is not None:
        return result_text(view)
    pending = view.get("pending")
    lang = lang_of(view)
    if isinstance(pending, dict) and pending.get("kind") == "fall":
        who = pending.get("player")
        name = names[who] if isinstance(who, int) and 0 <= who < len(names) else lang.gettext("Someone")
        return lang.tr("{name} chooses: {tile} falls left or right", name=name, tile=_falling_tile(view))
    acting = to_act(view)
    if acting is not None and acting < len(names):
        return lang.tr("{name} to play", name=names[acting])
    return ""


def _fall(view: dict[str, Any]) -> tuple[tuple[str, str, bool] | None, dict[str, str]]:
    """The pending fall as (cell, tile, lifted) and its landing cells -> "L"/"R", from
    the view's ``falling`` (the engine works them out, so FP-3 is not re-derived here)."""
    falling = view.get("falling")
    if isinstance(falling, dict) and _cell(str(falling.get("at", ""))) is not None:
        at, code = str(falling["at"]), str(falling.get("tile", ""))
        targets = {str(falling.get(side, "")): letter for side, letter in (("left", "L"), ("right", "R"))}
        return (at, code, bool(falling.get("lifted"))), {k: v for k, v in targets.items() if _cell(k) is not None}
    return None, {}


def _falling_tile(view: dict[str, Any]) -> str:
    falling = view.get("falling")
    if isinstance(falling, dict) and falling.get("tile"):
        return str(falling["tile"])
    return lang_of(view).gettext("the tile")


def draw_board(view: dict[str, Any], labels: dict[str, str], events: Sequence[Event]) -> Image.Image:
    names = cv.names_of(view)
    shown = visible_events(view, events)
    marks = _marks(view, shown, names)
    pyramid: dict[str, str] = {k: v for k, v in (view.get("pyramid") or {}).items() if _cell(k) is not None}
    falling, targets = _fall(view)
    open_spaces = [s for s in view.get("open_spaces") or [] if _cell(s) is not None]
    spot_cells = [s for s in dict.fromkeys([*open_spaces, *labels]) if _cell(s) is not None]

    outlined = [c for c in ol.cells(view) if _cell(c) is not None]  # changed since the viewer's turn
    cells = [*pyramid, *spot_cells, *marks.ghosts, *targets, *([falling[0]] if falling else []), *outlined]
    parsed_cells = [p for p in (_cell(c) for c in cells) if p is not None] or [(0, 0)]
    x_min = min(c + r / 2 for r, c in parsed_cells)
    x_max = max(c + r / 2 for r, c in parsed_cells) + 1
    top_row = max(r for r, _ in parsed_cells)
    bottom_row = min(0, *(r for r, _ in parsed_cells))
    units = x_max - x_min
    width = int(min(MAX_WIDTH, max(MIN_WIDTH, units * PREFERRED_TILE + 2 * cv.MARGIN + 20)))
    tile = int(max(MIN_TILE, min(MAX_TILE, (width - 2 * cv.MARGIN - 20) / units)))
    row_h = round(tile * ASPECT)
    gap = max(2, round(tile * 0.05))
    rows = top_row - bottom_row + 1
    board_h = int(rows * row_h + 2 * cv.MARGIN + 26 + (row_h * 0.25 if falling else 0))
    board = Image.new("RGB", (width, board_h), cv.BG)
    d = cv.draw(board)
    left = (width - units * tile) / 2
    base_y = board_h - cv.MARGIN - 16  # the table top, under row 0

    def box(cell: str) -> Box:
        p = _cell(cell)
        assert p is not None
        r, c = p
        x = left + (c + r / 2 - x_min) * tile
        y = base_y - (r - bottom_row + 1) * row_h
        return (x + gap / 2, y + gap / 2, x + tile - gap / 2, y + row_h - gap / 2)

    # the table
    d.rounded_rectangle((cv.MARGIN, base_y + 2, width - cv.MARGIN, base_y + 14), 6, fill=(150, 112, 74),
                        outline=(96, 68, 44), width=2)
    sprite_w = round(tile - gap)
    for cell, code in marks.ghosts.items():
        if cell in pyramid or cell in targets or cell in spot_cells:
            continue  # a fall target has its own words; an open spot its letter (and a small ghost)
        x0, y0, x1, y1 = box(cell)
        cv.paste(board, ghost_sprite(code, sprite_w), x0, y0, covers=False)
        cv.gone_mark(d, (x0, y0, x1, y1 - row_h * 0.05))
    for cell in spot_cells:
        if cell in pyramid:
            continue
        b = box(cell)
        cv.spot_slot(board, b, labels.get(cell), radius=int(tile * 0.1))
        if cell in marks.ghosts and cell not in targets:
            # removed this turn and open again (a burned straw tile's spot reopens at
            # once): the removal's red dashes around the slot; the tile is in the
            # legend's "Removed this turn"
            cv.dashed_rect(d, (b[0] - 3, b[1] - 3, b[2] + 3, b[3] + 3), cv.GONE, width=3, dash=9, gap=6)
    for cell in sorted(pyramid, key=lambda k: _cell(k) or (0, 0)):
        x0, y0, _, _ = box(cell)
        cv.paste(board, tile_sprite(pyramid[cell], sprite_w), x0, y0)
    for cell in marks.last:
        if cell in pyramid:
            cv.last_ring(d, box(cell), radius=int(tile * 0.12), width=max(3, tile // 18))
    for to_cell, from_cell in marks.moved_from.items():
        if _cell(from_cell) is not None:
            a, b = box(from_cell), box(to_cell)
            sh.arrow(d, ((a[0] + a[2]) / 2, (a[1] + a[3]) / 2), ((b[0] + b[2]) / 2, b[1] + 4), cv.LAST,
                     width=max(3, tile // 20), head=max(12, tile // 5))
    for cell in outlined:
        ol.draw(d, box(cell), gone=cell not in pyramid)
    if falling is not None:
        _draw_fall(board, d, falling, targets, box, sprite_w, tile, lang_of(view), cv.legible(width))

    header = lo.header(width, TITLE, game_number(view),
                       turn_text(view), _chips(view, names), ACCENT, _status(view, names))
    legend = _legend(width, view, marks.removed)
    footer = lo.footer_lines(width, marks.lines, lang_of(view).gettext("This turn"))
    return lo.stack([header, board, legend, footer], width)


def _draw_fall(board: Image.Image, d: ImageDraw.ImageDraw, falling: tuple[str, str, bool],
               targets: dict[str, str], box: Callable[[str], Box], sprite_w: int, tile: int, lang: Lang,
               small: int) -> None:
    """The tile waiting to fall (lifted above its spot when it was just played and
    broke the rules there) and its two landing cells, marked LEFT and RIGHT like the
    buttons."""
    cell, code, lifted = falling
    x0, y0, x1, y1 = box(cell)
    if lifted:
        lift = tile * 0.18
        d.rounded_rectangle((x0 + 6, y0 + 8, x1 + 6, y1 + 8), int(tile * 0.12), fill=(200, 188, 168))
        cv.paste(board, tile_sprite(code, sprite_w), x0, y0 - lift)
        y0 -= lift
        y1 -= lift
    cv.dashed_rect(d, (x0 - 5, y0 - 5, x1 + 5, y1 + 5), cv.GONE, width=4)
    for target, letter in targets.items():
        tb = box(target)
        d.rounded_rectangle(tb, int(tile * 0.1), fill=cv.SPOT_FILL)  # over anything removed there
        cv.dashed_rect(d, tb, cv.SPOT, width=3)
        tx, ty = (tb[0] + tb[2]) / 2, (tb[1] + tb[3]) / 2
        word = lang.gettext("LEFT") if letter == "L" else lang.gettext("RIGHT")
        f = cv.fit_font(word, max(small, int(tile * 0.3)), (tb[2] - tb[0]) * 0.86, bold=True, min_size=small)
        wy = ty + tile * 0.12
        half = cv.text_width(word, f) / 2 + 6
        if half * 2 > (tb[2] - tb[0]) * 0.9:  # a long word gets a pill of its own, a little past the cell
            d.rounded_rectangle((tx - half, wy - small * 0.7, tx + half, wy + small * 0.7), int(small * 0.6),
                                fill=cv.SPOT)
            cv.centred_text(d, (tx, wy), word, f, cv.WHITE)
        else:
            cv.centred_text(d, (tx, wy), word, f, cv.SPOT, stroke=2, stroke_fill=cv.WHITE)
        sh.triangle_arrow(d, (tx, ty - tile * 0.16), tile * 0.2, "left" if letter == "L" else "right", cv.SPOT)


#: The special tiles the legend shows, with their words.
SPECIALS = (("G1", N_("Coal")), ("R7", N_("Blowtorch")), ("M200", N_("Millstone")))


def _legend(width: int, view: dict[str, Any], now: Sequence[str] = ()) -> Image.Image:
    """Colour shapes, material ranges and the special tiles (their faces and names),
    flowed into as many rows as the width needs; below them the tiles this turn
    removed (``now``) and the tiles out of the game."""
    removed = [str(t) for t in view.get("removed") or [] if str(t) in TABLE]
    now = [t for t in now if t in TABLE]
    lang = lang_of(view)
    size = cv.legible(width, LEGEND_PX)
    mini = math.ceil(size * 3.2)  # its numbers as legible as the words
    if textlog.active():  # the fit checks note each word as it is drawn: draw afresh
        rows = _legend_rows.__wrapped__(width, lang, lang.translations)
    else:
        rows = _legend_rows(width, lang, lang.translations)
    strip_h = round(mini * ASPECT) + 20
    strips = [(lang.gettext("Removed this turn:"), now, cv.GONE), (lang.gettext("Out of the game:"), removed, cv.MUTED)]
    strips = [s for s in strips if s[1]]
    img = Image.new("RGB", (width, rows.height + strip_h * len(strips)), cv.BG)
    cv.place(img, rows, (0, 0))
    for k, (caption, tiles, ink) in enumerate(strips):
        y2 = rows.height + strip_h * k + strip_h / 2
        cv.static_text(img, (cv.MARGIN, y2), caption, size, True, ink, "lm")
        x = cv.MARGIN + cv.text_width(caption, cv.font(size, True)) + 12
        step = min(mini + 6.0, (width - cv.MARGIN - x - mini) / max(1, len(tiles) - 1))
        for code in tiles:  # overlapping when many, but every one shows
            cv.paste(img, tile_sprite(code, mini), x, y2 - mini * ASPECT / 2)
            x += step
    return img


@lru_cache(maxsize=8)
def _legend_rows(width: int, lang: Lang, _catalogue: object) -> Image.Image:
    """The legend's rows above its strips: the same in every picture of a width and a
    language, so drawn once per worker and pasted (never drawn on). ``_catalogue``: the
    language's catalogue object, so that the cache tells two catalogues of one language
    apart (``Lang`` compares by its code alone)."""
    size = cv.legible(width, LEGEND_PX)
    f = cv.font(size)
    mini = math.ceil(size * 3.2)
    row_h = max(40, round(mini * ASPECT) + 10)
    items: list[tuple[float, Callable[[Image.Image, ImageDraw.ImageDraw, float, float], None]]] = []

    def colour_item(c: str) -> None:
        word = lang.gettext(COLOUR_WORDS[c])
        r = size * 0.55

        def draw(img: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float) -> None:
            sh.symbol(d, SYMBOLS[c], (x + r, y), r, COLOURS[c], cv.INK, 2)
            cv.static_text(img, (x + 2 * r + 6, y), word, size, False, cv.INK, "lm")
        items.append((2 * r + 6 + cv.text_width(word, f), draw))

    def text_item(text: str) -> None:
        def draw(img: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float) -> None:
            cv.static_text(img, (x, y), text, size, False, cv.MUTED, "lm")
        items.append((cv.text_width(text, f), draw))

    def special_item(code: str, msgid: str) -> None:
        word = lang.gettext(msgid)

        def draw(img: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float) -> None:
            cv.paste(img, tile_sprite(code, mini), x, y - mini * ASPECT / 2)
            cv.static_text(img, (x + mini + 8, y), word, size, False, cv.INK, "lm")
        items.append((mini + 8 + cv.text_width(word, f), draw))

    for c in "RGBY":
        colour_item(c)
    for text in (lang.gettext("straw 2–10"), lang.gettext("wood 20–60"), lang.gettext("stone 100+")):
        text_item(text)
    for code, msgid in SPECIALS:
        special_item(code, msgid)
    rows: list[list[tuple[float, float, Callable[[Image.Image, ImageDraw.ImageDraw, float, float], None]]]] = [[]]
    x = float(cv.MARGIN)
    for w, draw in items:
        if rows[-1] and x + w > width - cv.MARGIN:
            rows.append([])
            x = cv.MARGIN
        rows[-1].append((x, w, draw))
        x += w + 20
    img = Image.new("RGB", (width, 10 + len(rows) * row_h), cv.BG)
    d = cv.draw(img)
    for r, row in enumerate(rows):
        y = 10 + r * row_h + row_h / 2
        for x, _, draw in row:
            draw(img, d, x, y)
    return img


# --- the hand ------------------------------------------------------------------------
def draw_hand(view: dict[str, Any]) -> Image.Image:
    names = cv.names_of(view)
    seat = viewer(view)
    hands = view.get("hands") or []
    hand = hands[seat] if seat is not None and seat < len(hands) and isinstance(hands[seat], list) else []
    piles = view.get("piles") or []
    pile = piles[seat] if seat is not None and seat < len(piles) else 0
    width = 900
    tile = HAND_TILE if len(hand) <= 5 else max(70, int((width - 2 * cv.MARGIN) / len(hand)) - 12)
    per_row = max(1, int((width - 2 * cv.MARGIN + 16) // (tile + 16)))
    rows = max(1, -(-len(hand) // per_row))
    lang = lang_of(view)
    # each tile's words under it, at the legible size, on as many lines as its width needs
    small = cv.legible(width)
    captions = [cv.fit_lines(_describe(code, lang), small, tile + 12, True, small, 2) for code in hand]
    step = round(small * 1.2)
    lines = max((len(c[1]) for c in captions), default=1)
    row_h = round(tile * ASPECT) + 20 + lines * step
    who = names[seat] if seat is not None and seat < len(names) else lang.gettext("Spectator")
    title, note = lang.tr("{name}'s hand", name=who), lang.tr("pile: {count} face down", count=pile)
    drop = lo.note_drop(width, title, note)
    body_h = 60 + drop + rows * row_h + 20
    body = Image.new("RGB", (width, body_h), cv.BG)
    d = cv.draw(body)
    lo.title_and_note(body, 42, title, note)
    if not hand:
        d.text((width / 2, 60 + drop + row_h / 2), lang.gettext("No tiles in hand"),
               font=cv.font(cv.legible(width, 28), True), fill=cv.MUTED, anchor="mm")
    for i, code in enumerate(hand):
        r, k = divmod(i, per_row)
        count = min(per_row, len(hand) - r * per_row)
        x = (width - count * tile - (count - 1) * 16) / 2 + k * (tile + 16)
        y = 64 + drop + r * row_h
        cv.paste(body, tile_sprite(code, tile), x, y)
        f, caption = captions[i]
        px = int(getattr(f, "size", small))
        for n, line in enumerate(caption):
            cv.static_text(body, (x + tile / 2, y + tile * ASPECT + 10 + step * (n + 0.5)), line, px, True, cv.INK)
    header = lo.header(width, TITLE, game_number(view), "", (), ACCENT)  # the same strip for every picture
    return lo.stack([header, body, _legend(width, view)], width)


def hand_view(view: dict[str, Any]) -> dict[str, Any]:
    """A hand picture shows the seat's own tiles and pile, its name, the game and the language:
    not whose turn it is, the other seats' counts or the tiles out of the game (the message
    it comes with and the board say those). So the picture a seat got after its own move is
    shown again, not drawn again, when its turn comes round (a hand DM is drawn about once a
    move instead of twice)."""
    seat = viewer(view)

    def own(key: str, nobody: Any) -> list[Any]:
        return [value if i == seat else nobody for i, value in enumerate(view.get(key) or [])]

    kept: dict[str, Any] = {key: view[key] for key in ("game", "game_number", "lang", "players", "seat")
                            if key in view}
    return {**kept, "names": own("names", ""), "hands": own("hands", []), "piles": own("piles", 0)}


def _describe(code: str, lang: Lang) -> str:
    """A hand tile's caption: the tile in words, as the chooser's buttons and the narration name it
    ("Yellow 60 wood", "Coal Green 1"), not its code."""
    return words.tile_words(code, lang)


#: The widths tiles are drawn at in most pictures: a hand of up to five, the legend of a
#: picture MIN_WIDTH wide, and a board while its pyramid is narrow enough for MAX_TILE.
WARM_WIDTHS = (HAND_TILE, math.ceil(cv.legible(MIN_WIDTH, LEGEND_PX) * 3.2),
               round(MAX_TILE - max(2, round(MAX_TILE * 0.05))))


def warm() -> None:
    """Every tile face at the widths most pictures use (a worker's first pictures would
    otherwise draw them one by one, a few milliseconds each)."""
    for width in WARM_WIDTHS:
        for code in TABLE:
            tile_sprite(code, width)


ART = Art("flaming-pyramids", draw_board, draw_hand, palette="flaming-pyramids.rgb",
          describe_board=words.describe_board, describe_hand=words.describe_hand, warm=warm, hand_view=hand_view)
