"""Page furniture shared by every picture: the header strip (game, number, move,
whose turn, one chip per seat), section captions, the narration footer, and the
stacking of sections into one framed card."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

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
    ellipsize,
    fit_font,
    font,
    static_text,
    text_width,
)
from render.shapes import star


@dataclass(frozen=True)
class Chip:
    """One seat in the header: its name, a short status line, and markers."""

    name: str
    detail: str
    active: bool = False
    winner: bool = False
    swatches: tuple[RGB, ...] = ()


def chip_size(chip: Chip) -> tuple[int, int]:
    name_w = text_width(chip.name, font(24, True))
    detail_w = text_width(chip.detail, font(19))
    extra = 30 * len(chip.swatches) + (30 if chip.active or chip.winner else 0)
    return int(max(name_w + extra, detail_w) + 28), 66


def header(width: int, title: str, number: int | None, right: str, chips: Sequence[Chip],
           accent: RGB, status: str = "") -> Image.Image:
    """Game name and number, turn, whose turn, and one chip per seat with its piles or
    score. ``status`` (e.g. a pending decision or the result) gets its own line.

    A move's board, its players' hands and the "since your turn" board all carry the same
    header, and glyphs are the slowest thing drawn: the strip is drawn once per worker and
    handed out as a copy (callers may draw on theirs)."""
    return _header(width, title, number, right, tuple(chips), accent, status).copy()


@lru_cache(maxsize=128)
def _header(width: int, title: str, number: int | None, right: str, chips: tuple[Chip, ...],
            accent: RGB, status: str) -> Image.Image:
    pad = MARGIN
    natural = [min(chip_size(c)[0], width - 2 * pad) for c in chips]
    if sum(natural) + 12 * max(0, len(chips) - 1) <= width - 2 * pad:
        rows = [list(zip(chips, natural, strict=True))] if chips else []
    else:
        # an even grid, so many seats take two rows rather than a ragged three
        max_cols = max(1, (width - 2 * pad + 12) // (200 + 12))
        nrows = -(-len(chips) // max_cols)
        cols = -(-len(chips) // nrows)
        w = (width - 2 * pad - 12 * (cols - 1)) // cols
        rows = [[(c, w) for c in chips[i:i + cols]] for i in range(0, len(chips), cols)]
    title_h = 62
    status_h = 46 if status else 0
    chips_h = len(rows) * 78 + 10 if rows else 0
    img = Image.new("RGB", (width, title_h + status_h + chips_h), HEADER_BG)
    d = ImageDraw.Draw(img)
    d.rectangle((0, title_h - 5, width, title_h - 1), fill=accent)
    right_f = font(24, True)
    right_w = text_width(right, right_f)
    title_text = title + (f"  #{number}" if number is not None else "")
    tf = fit_font(title_text, 34, width - 3 * pad - right_w, bold=True, min_size=20)
    d.text((pad, title_h / 2 - 2), title_text, font=tf, fill=HEADER_TEXT, anchor="lm")
    d.text((width - pad, title_h / 2 - 2), right, font=right_f, fill=HEADER_MUTED, anchor="rm")
    y = title_h
    if status:
        d.rectangle((0, y, width, y + status_h), fill=HEADER_BAND)
        sf = fit_font(status, 24, width - 2 * pad, bold=True, min_size=16)
        d.text((pad, y + status_h / 2), ellipsize(status, sf, width - 2 * pad), font=sf, fill=ACTIVE, anchor="lm")
        y += status_h
    y += 10
    for row in rows:
        x = pad
        for chip, w in row:
            img.paste(_chip(chip, w), (x, y))
            x += w + 12
        y += 78
    return img


@lru_cache(maxsize=512)
def _chip(chip: Chip, width: int) -> Image.Image:
    """One chip on the header's ground (a seat's chip often reads the same move after move:
    drawn once per worker)."""
    img = Image.new("RGB", (width + 1, 67), HEADER_BG)
    _draw_chip(ImageDraw.Draw(img), (0, 0, width, 66), chip)
    return img


def _draw_chip(d: ImageDraw.ImageDraw, box: Box, chip: Chip) -> None:
    x0, y0, x1, _ = box
    if chip.active:
        d.rounded_rectangle(box, 12, fill=ACTIVE)
        ink, sub = INK, (70, 56, 30)
    else:
        d.rounded_rectangle(box, 12, fill=HEADER_BAND, outline=(86, 98, 118), width=2)
        ink, sub = HEADER_TEXT, HEADER_MUTED
    x = x0 + 14
    if chip.active:
        d.polygon([(x, y0 + 12), (x + 18, y0 + 23), (x, y0 + 34)], fill=INK)
        x += 28
    if chip.winner:
        star(d, (x + 11, y0 + 23), 13, WINNER if not chip.active else INK, outline=INK)
        x += 30
    for colour in chip.swatches:
        d.rounded_rectangle((x, y0 + 12, x + 22, y0 + 34), 5, fill=colour, outline=WHITE if not chip.active else INK,
                            width=2)
        x += 30
    nf = font(24, True)
    d.text((x, y0 + 23), ellipsize(chip.name, nf, x1 - x - 10), font=nf, fill=ink, anchor="lm")
    df = fit_font(chip.detail, 19, x1 - x0 - 24, min_size=15)
    d.text((x0 + 14, y0 + 50), ellipsize(chip.detail, df, x1 - x0 - 24), font=df, fill=sub, anchor="lm")


def section_title(img: Image.Image, xy: tuple[float, float], text: str, size: int = 24,
                  fill: RGB = MUTED) -> float:
    """A caption over a group (cached: captions recur); returns its width."""
    static_text(img, xy, text, size, True, fill, "ls")
    return text_width(text, font(size, True))


def footer_lines(width: int, lines: Sequence[str], title: str = "This turn") -> Image.Image | None:
    """Narration of what mayhem did this turn, under the board."""
    if not lines:
        return None
    f = font(21)
    wrapped: list[str] = []
    for line in lines:
        wrapped.extend(wrap(line, f, width - 2 * MARGIN - 24))
    wrapped = wrapped[:6]
    h = 44 + 30 * len(wrapped) + 14
    img = Image.new("RGB", (width, h), BG)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((MARGIN - 8, 6, width - MARGIN + 8, h - 8), 12, fill=PANEL, outline=PANEL_EDGE, width=2)
    static_text(img, (MARGIN + 4, 34), title, 22, True, GONE, "ls")
    y = 64
    for line in wrapped:
        d.text((MARGIN + 4, y), line, font=f, fill=INK, anchor="ls")
        y += 30
    return img


def wrap(text: str, f: Font, max_width: float) -> list[str]:
    words = text.split()
    lines: list[str] = []
    current = ""
    for word in words:
        trial = f"{current} {word}".strip()
        if current and text_width(trial, f) > max_width:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines or [""]


def stack(sections: Sequence[Image.Image | None], width: int, gap: int = 0) -> Image.Image:
    """Sections one under another on the card, framed."""
    parts = [s for s in sections if s is not None]
    height = sum(p.height for p in parts) + gap * max(0, len(parts) - 1) + FRAME_WIDTH
    img = Image.new("RGB", (width, height), BG)
    y = 0
    for part in parts:
        img.paste(part, (0, y))
        y += part.height + gap
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, width - 1, height - 1), outline=FRAME, width=FRAME_WIDTH)
    return img
