"""Page furniture shared by every picture: the header strip (game, number, move,
whose turn, one chip per seat), section captions, the narration footer, and the
stacking of sections into one framed card."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from render import textlog
from render.canvas import (
    ACTIVE,
    BG,
    FRAME,
    FRAME_WIDTH,
    GONE,
    HEADER_BAND,
    HEADER_BG,
    HEADER_MUTED,
    HEADER_TEXT,
    INK,
    MARGIN,
    MUTED,
    PANEL,
    PANEL_EDGE,
    RGB,
    WHITE,
    WINNER,
    Box,
    Font,
    fit_lines,
    font,
    place,
    static_text,
    text_at,
    text_width,
    wrap_words,
)
from render.canvas import alt_corner as cv_alt_corner
from render.canvas import draw as new_draw
from render.canvas import legible as cv_legible
from render.shapes import star


@dataclass(frozen=True)
class Chip:
    """One seat in the header: its name, a short status line, and markers."""

    name: str
    detail: str
    active: bool = False
    winner: bool = False
    swatches: tuple[RGB, ...] = ()


#: Sizes in px of the header's words (raised to ``canvas.legible`` for wide pictures).
TITLE_PX, RIGHT_PX, STATUS_PX, NAME_PX, DETAIL_PX = 34, 24, 26, 24, 22
CHIP_GAP = 12


@dataclass(frozen=True)
class _ChipText:
    """A chip's words fitted to its width: name and detail, each in one or more lines."""

    name_font: Font
    name: list[str]
    detail_font: Font
    detail: list[str]
    inset: int

    @property
    def height(self) -> int:
        return int(12 + len(self.name) * _line(self.name_font) + len(self.detail) * _line(self.detail_font) + 10)


def _line(f: Font) -> float:
    return round(float(getattr(f, "size", 20)) * 1.22)


def _markers(chip: Chip) -> int:
    return 30 * len(chip.swatches) + (28 if chip.active else 0) + (30 if chip.winner else 0)


def chip_size(chip: Chip, width: int = 960) -> tuple[int, int]:
    """The chip's natural size: both lines unbroken at full size."""
    small = cv_legible(width)
    name_w = text_width(chip.name, font(max(NAME_PX, small), True))
    detail_w = text_width(chip.detail, font(max(DETAIL_PX, small)))
    return int(max(name_w + _markers(chip), detail_w) + 28), 72


def _chip_text(chip: Chip, w: int, width: int) -> _ChipText:
    """Name and detail fitted to a chip ``w`` px wide: shrunk down to the legible size,
    then wrapped between words; never cut."""
    small = cv_legible(width)
    inset = 14 + _markers(chip)
    nf, names = fit_lines(chip.name, max(NAME_PX, small), w - inset - 10, True, small, 2)
    df, details = fit_lines(chip.detail, max(DETAIL_PX, small), w - 24, False, small, 3)
    return _ChipText(nf, names, df, details, inset)


def header(width: int, title: str, number: int | None, right: str, chips: Sequence[Chip],
           accent: RGB, status: str = "") -> Image.Image:
    """Game name and number, turn, whose turn, and one chip per seat with its piles or
    score. ``status`` (e.g. a pending decision or the result) gets its own lines:
    every word is measured, shrunk to the legible size and then wrapped, never cut.

    A move's board, its players' hands and the "since your turn" board all carry the same
    header, and glyphs are the slowest thing drawn: the strip is drawn once per worker and
    handed out as a copy (callers may draw on theirs)."""
    if textlog.active():  # the fit checks note each word as it is drawn: draw afresh
        return _header.__wrapped__(width, title, number, right, tuple(chips), accent, status)
    return _header(width, title, number, right, tuple(chips), accent, status).copy()


@lru_cache(maxsize=128)
def _header(width: int, title: str, number: int | None, right: str, chips: tuple[Chip, ...],
            accent: RGB, status: str) -> Image.Image:
    pad = MARGIN
    small = cv_legible(width)
    natural = [min(chip_size(c, width)[0], width - 2 * pad) for c in chips]
    if sum(natural) + CHIP_GAP * max(0, len(chips) - 1) <= width - 2 * pad:
        rows = [list(zip(chips, natural, strict=True))] if chips else []
    else:
        # an even grid, so many seats take two rows rather than a ragged three
        max_cols = max(1, (width - 2 * pad + CHIP_GAP) // (260 + CHIP_GAP))
        nrows = -(-len(chips) // max_cols)
        cols = -(-len(chips) // nrows)
        w = (width - 2 * pad - CHIP_GAP * (cols - 1)) // cols
        rows = [[(c, w) for c in chips[i:i + cols]] for i in range(0, len(chips), cols)]
    fitted = [[(c, w, _chip_text(c, w, width)) for c, w in row] for row in rows]
    row_heights = [max(t.height for _, _, t in row) for row in fitted]
    right_f = font(max(RIGHT_PX, small), True)
    right_w = text_width(right, right_f)
    title_text = title + (f"  #{number}" if number is not None else "")
    title_room = width - 3 * pad - right_w
    # the turn line sits right of the title when both fit; else it gets lines of its own under it
    beside = title_room >= text_width(title_text, font(max(small, 24), True))
    if not beside:
        title_room = width - 2 * pad
    tf, title_lines = fit_lines(title_text, max(TITLE_PX, small), title_room, True, max(small, 24), 2)
    right_lines = [] if beside else fit_lines(right, max(RIGHT_PX, small), width - 2 * pad, True, small, 3)[1]
    title_h = max(62, int(len(title_lines) * _line(tf) + len(right_lines) * _line(right_f) + 20))
    sf, status_lines = (fit_lines(status, max(STATUS_PX, small), width - 2 * pad, True, small, 3) if status
                        else (font(small, True), []))
    status_h = int(len(status_lines) * _line(sf) + 16) if status_lines else 0
    chips_h = sum(row_heights) + CHIP_GAP * len(rows) + 10 if rows else 0
    img = Image.new("RGB", (width, title_h + status_h + chips_h), HEADER_BG)
    d = new_draw(img)
    d.rectangle((0, title_h - 5, width, title_h - 1), fill=accent)
    top = (title_h - 4) / 2 - (len(title_lines) * _line(tf) + len(right_lines) * _line(right_f)) / 2
    for line in title_lines:
        text_at(d, (pad, top + _line(tf) / 2), line, tf, HEADER_TEXT, "lm")
        top += _line(tf)
    if beside:
        text_at(d, (width - pad, (title_h - 4) / 2), right, right_f, HEADER_MUTED, "rm")
    for line in right_lines:
        text_at(d, (width - pad, top + _line(right_f) / 2), line, right_f, HEADER_MUTED, "rm")
        top += _line(right_f)
    y = title_h
    if status_lines:
        d.rectangle((0, y, width, y + status_h), fill=HEADER_BAND)
        sy = y + 8 + _line(sf) / 2
        for line in status_lines:
            text_at(d, (pad, sy), line, sf, ACTIVE, "lm")
            sy += _line(sf)
        y += status_h
    y += 10
    for row, h in zip(fitted, row_heights, strict=True):
        x = pad
        for chip, w, fit in row:
            _draw_chip(d, (x, y, x + w, y + h), chip, fit)
            x += w + CHIP_GAP
        y += h + CHIP_GAP
    return img


def _draw_chip(d: ImageDraw.ImageDraw, box: Box, chip: Chip, fit: _ChipText) -> None:
    x0, y0, x1, y1 = box
    if chip.active:
        d.rounded_rectangle(box, 12, fill=ACTIVE)
        ink, sub = INK, (70, 56, 30)
    else:
        d.rounded_rectangle(box, 12, fill=HEADER_BAND, outline=(86, 98, 118), width=2)
        ink, sub = HEADER_TEXT, HEADER_MUTED
    first = y0 + 12 + _line(fit.name_font) / 2
    x = x0 + 14
    if chip.active:
        d.polygon([(x, first - 11), (x + 18, first), (x, first + 11)], fill=INK)
        x += 28
    if chip.winner:
        star(d, (x + 11, first), 13, WINNER if not chip.active else INK, outline=INK)
        x += 30
    for colour in chip.swatches:
        d.rounded_rectangle((x, first - 11, x + 22, first + 11), 5, fill=colour,
                            outline=WHITE if not chip.active else INK, width=2)
        x += 30
    inner: Box = (x0 + 4, y0 + 2, x1 - 4, y1 - 2)
    y = first
    for line in fit.name:
        text_at(d, (x, y), line, fit.name_font, ink, "lm", limit=inner)
        y += _line(fit.name_font)
    y += (_line(fit.detail_font) - _line(fit.name_font)) / 2
    for line in fit.detail:
        text_at(d, (x0 + 14, y), line, fit.detail_font, sub, "lm", limit=inner)
        y += _line(fit.detail_font)


def section_title(img: Image.Image, xy: tuple[float, float], text: str, size: int = 24,
                  fill: RGB = MUTED) -> float:
    """A caption over a group (cached: captions recur); returns its width."""
    size = max(size, cv_legible(img.width))
    static_text(img, xy, text, size, True, fill, "ls")
    return text_width(text, font(size, True))


def note_drop(width: int, title: str, note: str, title_px: int = 28) -> int:
    """How far :func:`title_and_note` puts ``note`` below the title's line: 0 when both fit
    on it, else a line (a long name's "Hand von …" and "9 Dominosteine · 6 Pyrinos · …")."""
    small = cv_legible(width)
    title_w = text_width(title, font(max(title_px, small), True))
    meet = MARGIN + title_w + 16 + text_width(note, font(small)) > width - MARGIN
    return round(small * 1.3) if meet else 0


def title_and_note(img: Image.Image, y: float, title: str, note: str, title_px: int = 28) -> None:
    """A section's title at the left of the line at ``y`` (its baseline) and a muted note
    at the right, or under the title when they would meet (make room with :func:`note_drop`)."""
    section_title(img, (MARGIN, y), title, size=title_px, fill=INK)
    text_at(new_draw(img), (img.width - MARGIN, y + note_drop(img.width, title, note, title_px)), note,
            font(cv_legible(img.width)), MUTED, "rs")


#: The most story lines under a board; a longer story ends with a "…" line (the
#: whole story is in the message's text).
FOOTER_LINES = 8


def footer_lines(width: int, lines: Sequence[str], title: str = "This turn") -> Image.Image | None:
    """Narration of what mayhem did this turn, under the board."""
    if not lines:
        return None
    size = cv_legible(width, 22)
    f = font(size)
    step = round(size * 1.4)
    wrapped: list[str] = []
    for line in lines:
        wrapped.extend(wrap(line, f, width - 2 * MARGIN - 24))
    if len(wrapped) > FOOTER_LINES:
        wrapped = [*wrapped[:FOOTER_LINES - 1], "…"]
    h = 44 + step * len(wrapped) + 14
    img = Image.new("RGB", (width, h), BG)
    d = new_draw(img)
    d.rounded_rectangle((MARGIN - 8, 6, width - MARGIN + 8, h - 8), 12, fill=PANEL, outline=PANEL_EDGE, width=2)
    static_text(img, (MARGIN + 4, 34), title, cv_legible(width, 22), True, GONE, "ls")
    y = 44 + step - 6
    for line in wrapped:
        text_at(d, (MARGIN + 4, y), line, f, INK, "ls")
        y += step
    return img


def wrap(text: str, f: Font, max_width: float) -> list[str]:
    """``text`` in lines no wider than ``max_width``, broken between words."""
    return wrap_words(text, f, max_width)


def stack(sections: Sequence[Image.Image | None], width: int, gap: int = 0) -> Image.Image:
    """Sections one under another on the card, framed, with the bottom-left corner
    clear for Discord's ALT badge: when the last section draws anything where the badge
    goes (``canvas.alt_corner``), a strip of background is added under it, only as high
    as needed. Every picture is finished here, so none can put a word or a legend tile
    under the badge (``tests/render/words_fit.under_badge`` checks it)."""
    parts = [s for s in sections if s is not None]
    height = sum(p.height for p in parts) + gap * max(0, len(parts) - 1) + FRAME_WIDTH
    if parts:
        height += corner_strip(parts[-1], width, height)
    img = Image.new("RGB", (width, height), BG)
    y = 0
    for part in parts:
        place(img, part, (0, y))
        y += part.height + gap
    d = new_draw(img)
    d.rectangle((0, 0, width - 1, height - 1), outline=FRAME, width=FRAME_WIDTH)
    return img


def corner_strip(last: Image.Image, width: int, height: int) -> int:
    """How many px of background must go under ``last`` (the bottom section of a picture
    ``width`` × ``height``) so that nothing it draws is under the ALT badge: the badge's
    height less the plain background already at the bottom of its corner."""
    _, top, right, _ = cv_alt_corner(width, height)
    # a line's box reaches past its letters' ink: a descender's depth below (a "g" further
    # right), a side bearing to the left (a "D" just right of the corner)
    air = cv_legible(width) // 3
    need = math.ceil(height - top) - FRAME_WIDTH + air
    corner = last.crop((0, 0, min(last.width, math.ceil(right) + air), last.height)).convert("RGB")
    ink = ImageChops.difference(corner, Image.new("RGB", corner.size, BG)).getbbox()
    free = last.height if ink is None else last.height - ink[3]
    return max(0, need - free)
