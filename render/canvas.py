"""Shared drawing kit: palette, fonts, text, slots, highlights, sprites and PNG
encoding, so the four game modules look like one family and only draw their own
pieces. (The header strip and page stacking are in ``render.layout``; symbols
and arrows in ``render.shapes``.)

The card is warm cream with a dark frame and a slate header band: it reads on both
Discord themes (the frame separates it from a light background, the cream from a
dark one). Sizes are in native pixels for images ~750-1000 px wide, which Discord
shows at ~550 px on a computer and, inside a card on a phone, ~300 px: every word is at
least :func:`legible` (9 px at 300 px wide), shrunk and then wrapped to fit its box
(:func:`fit_lines`), and noted for the fit checks (``render.textlog``). The bottom-left
corner stays free for Discord's ALT badge (:func:`alt_corner`).
"""

from __future__ import annotations

import math
import unicodedata
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from render import textlog
from render.png import palette_png
from render.words import lang

RGB = tuple[int, int, int]
Box = tuple[float, float, float, float]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

# --- palette ------------------------------------------------------------------------
BG: RGB = (246, 240, 228)
PANEL: RGB = (235, 226, 209)
PANEL_EDGE: RGB = (205, 192, 170)
INK: RGB = (38, 32, 27)
MUTED: RGB = (105, 93, 80)
FRAME: RGB = (66, 54, 42)
HEADER_BG: RGB = (43, 51, 64)
HEADER_BAND: RGB = (56, 66, 82)
HEADER_TEXT: RGB = (250, 246, 238)
HEADER_MUTED: RGB = (184, 194, 208)
ACTIVE: RGB = (255, 196, 61)
WINNER: RGB = (255, 214, 92)
#: Legal spots: blue dashes and letters on a pale fill. Spots are empty places (or,
#: in the MahJongg stack, drawn over ivory), so they never sit on a blue piece.
SPOT: RGB = (27, 94, 196)
SPOT_FILL: RGB = (219, 232, 250)
#: The last move: a raspberry ring, unlike any piece colour (and drawn with a white
#: inner ring so it shows on red tiles too).
LAST: RGB = (212, 22, 130)
#: Removed this turn (ghosts): a dashed dark red outline.
GONE: RGB = (168, 40, 30)
WHITE: RGB = (255, 255, 255)

MARGIN = 24
FRAME_WIDTH = 4

#: Discord on a phone shows a picture in a card about this wide (a 400 px screen less the
#: avatar column and the card's padding: ~305 px measured), and every word must then be at
#: least MIN_PHONE_PX high (the font's em): :func:`legible` is the smallest font size
#: that keeps this for a picture of a given width.
PHONE_WIDTH = 300
MIN_PHONE_PX = 9
#: Discord draws an "ALT" badge over the bottom-left corner of every picture with alt text
#: (ours all have it), the same size on screen however wide the picture is shown. The
#: playground's copy (emulator/web/static/app.css ``.alt-badge``: 11 px bold, 2×5 px
#: padding, 6 px from the corner) reaches about 39×25 px from the corner; Discord's is
#: about 40×24. With a little air: this many px on screen, wide and high, from the corner,
#: is kept free of anything to read (:func:`alt_corner`, ``render.layout.stack``).
ALT_BADGE = (44, 28)

_FONT_DIR = Path(__file__).with_name("fonts")
_FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}

#: Code points the shipped font subset covers; anything else in a player's name is
#: dropped rather than drawn as an empty box.
_COVERED = (
    (0x20, 0x7E), (0xA0, 0x24F), (0x370, 0x3FF), (0x400, 0x4FF), (0x1E00, 0x1EFF),
    (0x2010, 0x2027), (0x2030, 0x205E), (0x2190, 0x21FF), (0x25A0, 0x25FF), (0x2600, 0x26FF),
)  # fmt: skip


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> Font:
    """The shipped DejaVu Sans (broad Latin/Greek/Cyrillic for player names), falling
    back to Pillow's built-in scalable font if the file is missing."""
    path = _FONT_DIR / _FONT_FILES[bold]
    try:
        return ImageFont.truetype(str(path), size)
    except OSError:
        return ImageFont.load_default(size=size)


@lru_cache(maxsize=16384)
def text_width(text: str, f: Font) -> float:
    """Cached (fonts are cached too, so the same font is the same key): laying a text out to
    measure it was a sixth of a render worker's time, and headers measure the same names,
    counts and captions picture after picture while they fit them."""
    return float(f.getlength(text))


def legible(width: float, size: int = 0) -> int:
    """The smallest font size (px) a word on a picture ``width`` px wide may have so it
    is MIN_PHONE_PX high on a phone, or ``size`` if that is larger."""
    return max(size, math.ceil(MIN_PHONE_PX * width / PHONE_WIDTH - 1e-9))


def alt_corner(width: float, height: float) -> Box:
    """The bottom-left corner of a picture ``width`` × ``height`` px that Discord's ALT
    badge covers when a phone shows the picture PHONE_WIDTH px wide (narrower shows
    cover less of it)."""
    k = width / PHONE_WIDTH
    return (0.0, height - ALT_BADGE[1] * k, ALT_BADGE[0] * k, float(height))


def fit_font(text: str, size: int, max_width: float, bold: bool = False, min_size: int = 12) -> Font:
    """The largest font not above ``size`` in which ``text`` fits ``max_width``."""
    while size > min_size and text_width(text, font(size, bold)) > max_width:
        size -= 1
    return font(size, bold)


def fit_lines(text: str, size: int, max_width: float, bold: bool = False, min_size: int = 12,
              max_lines: int = 1) -> tuple[Font, list[str]]:
    """See :func:`_fit_lines` (cached: headers and captions recur from picture to picture)."""
    fit = _fit_lines.__wrapped__ if textlog.active() else _fit_lines  # recording: note broken words afresh
    f, lines = fit(text, size, max_width, bold, min_size, max_lines)
    return f, list(lines)


@lru_cache(maxsize=2048)
def _fit_lines(text: str, size: int, max_width: float, bold: bool, min_size: int,
               max_lines: int) -> tuple[Font, tuple[str, ...]]:
    """The largest font (``size`` down to ``min_size``) in which ``text`` fits
    ``max_width`` on at most ``max_lines`` lines, wrapped between words, and those lines.
    Words are never cut: when even ``min_size`` on ``max_lines`` lines does not fit,
    the text takes as many lines as it needs at ``min_size`` (callers size their box
    from the lines they get)."""
    for s in range(size, min_size - 1, -1):
        f = font(s, bold)
        if any(text_width(word, f) > max_width for word in text.split()):
            continue  # a smaller size before breaking a word
        lines = wrap_words(text, f, max_width)
        if len(lines) <= max_lines and all(text_width(line, f) <= max_width for line in lines):
            return f, tuple(lines)
    f = font(min_size, bold)
    return f, tuple(wrap_words(text, f, max_width))


def _broken(word: str, f: Font, max_width: float) -> list[str]:
    """``word`` in pieces no wider than ``max_width`` (itself when it fits)."""
    pieces: list[str] = []
    while text_width(word, f) > max_width and len(word) > 1:
        cut = len(word) - 1
        while cut > 1 and text_width(word[:cut], f) > max_width:
            cut -= 1
        pieces.append(word[:cut])
        word = word[cut:]
    return [*pieces, word]


def wrap_words(text: str, f: Font, max_width: float) -> list[str]:
    """``text`` in lines no wider than ``max_width``, broken between words (a word
    wider than a whole line is broken across lines: shown whole, never cut)."""
    lines: list[str] = []
    current = ""
    for whole in text.split():
        pieces = _broken(whole, f, max_width)
        if len(pieces) > 1:
            textlog.note_broken(whole)
        for piece in pieces[:-1]:  # a word too long for any line goes on over several
            if current:
                lines.append(current)
                current = ""
            lines.append(piece)
        word = pieces[-1]
        trial = f"{current} {word}".strip()
        if current and text_width(trial, f) > max_width:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines or [""]


def ellipsize(text: str, f: Font, max_width: float) -> str:
    if text_width(text, f) <= max_width:
        return text
    while text and text_width(text + "…", f) > max_width:
        text = text[:-1]
    return text + "…"


def clean_name(name: object, fallback: str) -> str:
    """A name the font can draw: control characters and glyphs outside the shipped
    subset (emoji, CJK) dropped, length capped."""
    text = unicodedata.normalize("NFC", str(name) if name is not None else "")
    kept = "".join(ch for ch in text if any(lo <= ord(ch) <= hi for lo, hi in _COVERED))
    kept = " ".join(kept.split())[:24]
    return kept or fallback


def names_of(view: dict[str, Any]) -> list[str]:
    players = int(view.get("players") or 1)
    raw = view.get("names")
    given = list(raw) if isinstance(raw, list | tuple) else []
    words = lang(view)
    return [clean_name(given[i] if i < len(given) else None, words.tr("Player {number}", number=i + 1))
            for i in range(players)]


# --- primitives ---------------------------------------------------------------------
def shade(colour: RGB, factor: float) -> RGB:
    """Darker below 1, lighter above 1 (towards white)."""
    if factor <= 1:
        return (int(colour[0] * factor), int(colour[1] * factor), int(colour[2] * factor))
    t = factor - 1
    return (
        int(colour[0] + (255 - colour[0]) * t),
        int(colour[1] + (255 - colour[1]) * t),
        int(colour[2] + (255 - colour[2]) * t),
    )


def dashed_line(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], fill: RGB,
                width: int, dash: float = 10, gap: float = 7) -> None:
    (x0, y0), (x1, y1) = a, b
    length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
    if length == 0:
        return
    dx, dy = (x1 - x0) / length, (y1 - y0) / length
    pos = 0.0
    while pos < length:
        end = min(pos + dash, length)
        draw.line((x0 + dx * pos, y0 + dy * pos, x0 + dx * end, y0 + dy * end), fill=fill, width=width)
        pos = end + gap


def dashed_rect(draw: ImageDraw.ImageDraw, box: Box, fill: RGB, width: int = 3, dash: float = 10,
                gap: float = 7) -> None:
    x0, y0, x1, y1 = box
    for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
        dashed_line(draw, a, b, fill, width, dash, gap)


def centred_text(draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, f: Font, fill: RGB,
                 stroke: int = 0, stroke_fill: RGB | None = None, limit: Box | None = None) -> None:
    text_at(draw, centre, text, f, fill, "mm", stroke, stroke_fill, limit)


class Draw(ImageDraw.ImageDraw):
    """``ImageDraw.Draw`` that draws plain one-line text through the glyph cache
    (:func:`cached_text`) and notes every text it draws for the fit checks
    (``render.textlog``; nothing is noted unless they are recording)."""

    def text(self, xy: Any, text: Any, fill: Any = None, font: Any = None, anchor: str | None = None,
             *args: Any, **kwargs: Any) -> None:
        if args or set(kwargs) - {"stroke_width"} or kwargs.get("stroke_width") or not cached_text(
                self, xy, text, font, fill, anchor):
            super().text(xy, text, fill, font, anchor, *args, **kwargs)
        if textlog.active() and isinstance(text, str) and font is not None:
            note_text(self._image, (xy[0], xy[1]), text, font, anchor or "la", int(kwargs.get("stroke_width", 0)))


#: Glyph masks kept per process (see :func:`cached_text`), at most this many bytes.
GLYPH_CACHE_BYTES = 8 * 2**20
_glyphs: OrderedDict[tuple[Any, ...], tuple[Any, tuple[int, int], int]] = OrderedDict()
_glyph_bytes = 0


def cached_text(draw: ImageDraw.ImageDraw, xy: Any, text: Any, f: Any, fill: Any, anchor: str | None) -> bool:
    """Draw one line of ``text`` exactly as ``ImageDraw.text`` would, with its glyph mask
    from a cache; False (nothing drawn) for what the cache does not cover (several
    lines, bytes, a font other than a FreeType one), which the caller then draws itself.

    Rendering glyphs is most of a picture's drawing, and most words recur from picture
    to picture within a worker: a game's title, "Move 12", the seats' names and piles
    in the header, the legends (62-73 % of the texts drawn by one worker repeat). The
    mask depends on the font, the text, the anchor and the sub-pixel part of the
    position (Pillow starts glyphs at the fractional offset), so it is kept under
    exactly those; it is laid on the image with the same call Pillow makes, and the
    pixels are Pillow's own (``tests/render/test_glyph_cache.py`` compares them)."""
    global _glyph_bytes
    if not isinstance(text, str) or "\n" in text or not isinstance(f, ImageFont.FreeTypeFont) or fill is None:
        return False
    mode = draw.fontmode
    x, y = float(xy[0]), float(xy[1])
    start = (math.modf(x)[0], math.modf(y)[0])
    key = (f, text, anchor or "la", mode, start)
    kept = _glyphs.get(key)
    if kept is None:
        mask, offset = f.getmask2(text, mode, anchor=anchor or "la", start=start)
        size = mask.size[0] * mask.size[1]
        kept = (mask, (int(offset[0]), int(offset[1])), size)
        if size <= GLYPH_CACHE_BYTES // 64:
            _glyphs[key] = kept
            _glyph_bytes += size
            while _glyph_bytes > GLYPH_CACHE_BYTES:
                _glyph_bytes -= _glyphs.popitem(last=False)[1][2]
    else:
        _glyphs.move_to_end(key)
    mask, (dx, dy), _ = kept
    ink = draw._getink(fill)[0]
    draw.draw.draw_bitmap((int(x) + dx, int(y) + dy), mask, ink)
    return True


def draw(img: Image.Image) -> Draw:
    """The drawing context of ``img`` (see :class:`Draw`)."""
    return Draw(img)


def text_at(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, f: Font, fill: RGB,
            anchor: str = "la", stroke: int = 0, stroke_fill: RGB | None = None, limit: Box | None = None) -> None:
    """``ImageDraw.text``, noting the word for the fit checks (``render.textlog``):
    ``limit`` is the box it must stay inside (by default the image it is drawn on)."""
    if stroke or not cached_text(draw, xy, text, f, fill, anchor):
        ImageDraw.ImageDraw.text(draw, xy, text, font=f, fill=fill, anchor=anchor, stroke_width=stroke,
                                 stroke_fill=stroke_fill)
    if textlog.active():
        image = getattr(draw, "_image", None)
        if isinstance(image, Image.Image):
            note_text(image, xy, text, f, anchor, stroke, limit)


def note_text(img: Image.Image, xy: tuple[float, float], text: str, f: Font, anchor: str, stroke: int = 0,
              limit: Box | None = None) -> None:
    if not textlog.active():
        return
    left, top, right, bottom = f.getbbox(text, anchor=anchor, stroke_width=stroke)
    size = float(getattr(f, "size", 10))
    textlog.note(img, text, (xy[0] + left, xy[1] + top, xy[0] + right, xy[1] + bottom), size, limit)


def condensed_text(img: Image.Image, centre: tuple[float, float], text: str, f: Font, fill: RGB,
                   max_width: float, stroke: int = 0, stroke_fill: RGB | None = None,
                   narrowest: float = 0.72) -> None:
    """``text`` centred on ``centre``, squeezed sideways (down to ``narrowest`` of its
    width) when it is wider than ``max_width``: its height (the em, what makes it
    legible) is kept. A tile's "120" in bold is two em wide, wider than a tile of a long
    row is on a phone at a legible size; condensed type keeps it as high as it must be."""
    left, top, right, bottom = f.getbbox(text, anchor="mm", stroke_width=stroke)
    natural = right - left
    if natural <= max_width:
        centred_text(ImageDraw.Draw(img), centre, text, f, fill, stroke, stroke_fill)
        return
    k = max(narrowest, max_width / natural)
    pad = 2
    w, h = int(natural) + 2 * pad, int(bottom - top) + 2 * pad
    sprite = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(sprite).text((pad - left, pad - top), text, font=f, fill=fill, anchor="mm", stroke_width=stroke,
                                stroke_fill=stroke_fill)
    narrow = sprite.resize((max(1, round(w * k)), h), Image.Resampling.LANCZOS)
    x0, y0 = round(centre[0] - narrow.width / 2), round(centre[1] + top - pad)
    img.alpha_composite(narrow, (x0, y0)) if img.mode == "RGBA" else img.paste(narrow, (x0, y0), narrow)
    if textlog.active():
        half = natural * k / 2
        textlog.note(img, text, (centre[0] - half, centre[1] + top, centre[0] + half, centre[1] + bottom),
                     float(getattr(f, "size", 10)))


@lru_cache(maxsize=1024)
def text_sprite(text: str, size: int, bold: bool, fill: RGB, anchor: str = "mm", stroke: int = 0,
                stroke_fill: RGB | None = None) -> tuple[Image.Image, int, int]:
    """A piece of text as an RGBA sprite and its offset from the anchor point.

    Glyph rendering is the slowest thing we draw, so text that recurs in every
    picture (spot letters, legends, captions) is rendered once; text that changes
    with the position (names, counts, narration) is drawn directly."""
    f = font(size, bold)
    left, top, right, bottom = f.getbbox(text, stroke_width=stroke, anchor=anchor)
    pad = 2
    w, h = int(right - left) + 2 * pad, int(bottom - top) + 2 * pad
    img = Image.new("RGBA", (max(1, w), max(1, h)), (0, 0, 0, 0))
    ImageDraw.Draw(img).text((pad - left, pad - top), text, font=f, fill=fill, anchor=anchor, stroke_width=stroke,
                             stroke_fill=stroke_fill)
    return img, int(left) - pad, int(top) - pad


def static_text(img: Image.Image, xy: tuple[float, float], text: str, size: int, bold: bool, fill: RGB,
                anchor: str = "mm", stroke: int = 0, stroke_fill: RGB | None = None, limit: Box | None = None) -> None:
    """Recurring text through the sprite cache; same placement as ``ImageDraw.text``."""
    sprite, dx, dy = text_sprite(text, size, bold, fill, anchor, stroke, stroke_fill)
    img.paste(sprite, (round(xy[0]) + dx, round(xy[1]) + dy), sprite)
    note_text(img, (round(xy[0]), round(xy[1])), text, font(size, bold), anchor, stroke, limit)


def spot_slot(img: Image.Image, box: Box, label: str | None, radius: int = 8, empty: bool = True) -> None:
    """A legal spot: tinted dashed slot with its button letter. On an occupied place
    (an upper cell over a tile) only the outline and a corner badge are drawn, so the
    piece beneath stays readable."""
    draw = ImageDraw.Draw(img)
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if empty:
        draw.rounded_rectangle(box, radius, fill=SPOT_FILL)
    dashed_rect(draw, (x0 + 1, y0 + 1, x1 - 1, y1 - 1), SPOT, width=3 if min(w, h) > 40 else 2,
                dash=max(6, min(w, h) / 6), gap=max(4, min(w, h) / 10))
    if not label:
        return
    if empty:
        size = int(min(h * 0.75, w * (0.75 if len(label) == 1 else 0.45)))
        static_text(img, ((x0 + x1) / 2, (y0 + y1) / 2), label, max(size, 12), True, SPOT, "mm", 2, WHITE)
    else:
        badge(img, (x0 + min(w, h) * 0.28, y0 + min(w, h) * 0.28), min(w, h) * 0.26, label, SPOT, WHITE)


def badge(img: Image.Image, centre: tuple[float, float], r: float, text: str, fill: RGB,
          text_fill: RGB, outline: RGB = WHITE) -> None:
    draw = ImageDraw.Draw(img)
    cx, cy = centre
    rr = max(r, 9)
    if len(text) > 1:
        hw = rr * (0.55 + 0.45 * len(text))
        draw.rounded_rectangle((cx - hw, cy - rr, cx + hw, cy + rr), int(rr), fill=fill, outline=outline, width=2)
    else:
        draw.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=fill, outline=outline, width=2)
    static_text(img, (cx, cy), text, max(int(rr * 1.25), 10), True, text_fill)


def last_ring(draw: ImageDraw.ImageDraw, box: Box, radius: int = 10, width: int = 5) -> None:
    """The last-move highlight: a bold raspberry ring with a white inner line."""
    x0, y0, x1, y1 = box
    g = width
    draw.rounded_rectangle((x0 - g - 2, y0 - g - 2, x1 + g + 2, y1 + g + 2), radius + g, outline=LAST, width=g)
    draw.rounded_rectangle((x0 - 2, y0 - 2, x1 + 2, y1 + 2), radius + 1, outline=WHITE, width=2)


def gone_mark(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """Where something was removed this turn: dashed dark red outline and a cross."""
    x0, y0, x1, y1 = box
    dashed_rect(draw, box, GONE, width=3, dash=9, gap=6)
    s = min(x1 - x0, y1 - y0) * 0.16
    cx, cy = x1 - s * 1.3, y0 + s * 1.3
    draw.line((cx - s, cy - s, cx + s, cy + s), fill=GONE, width=4)
    draw.line((cx - s, cy + s, cx + s, cy - s), fill=GONE, width=4)


_FADE = [int(a * 0.35) for a in range(256)]


def ghost(sprite: Image.Image) -> Image.Image:
    """A faded copy of a piece sprite for things that left this turn."""
    faded = sprite.copy()
    faded.putalpha(faded.getchannel("A").point(_FADE))
    textlog.transform(faded, sprite)
    return faded


def paste(img: Image.Image, sprite: Image.Image, x: float, y: float, covers: bool = True) -> None:
    """A sprite (with transparency) onto ``img``, its words with it; a piece ``covers``
    the words of pieces under it (a faded ghost does not)."""
    img.paste(sprite, (round(x), round(y)), sprite)
    textlog.carry(img, sprite, round(x), round(y), covers)


def place(img: Image.Image, part: Image.Image, xy: tuple[float, float]) -> None:
    """An opaque section or panel into ``img`` at ``xy``, its words with it."""
    at = (round(xy[0]), round(xy[1]))
    img.paste(part, at)
    textlog.carry(img, part, at[0], at[1])


def supersample(width: int, height: int, paint: Callable[[Image.Image, ImageDraw.ImageDraw, int], None],
                scale: int = 3) -> Image.Image:
    """Draw at ``scale``× and box-reduce: ImageDraw shapes have no anti-aliasing, so
    pieces are drawn this way once and cached as RGBA sprites."""
    big = Image.new("RGBA", (width * scale, height * scale), (0, 0, 0, 0))
    with textlog.building_sprite():
        paint(big, Draw(big), scale)
        small = big.reduce(scale)
        textlog.transform(small, big, 1 / scale)
    return small


def learn_palette(images: list[Image.Image]) -> Image.Image:
    """A 256-colour palette (as a "P" image) for a whole family of pictures.

    Choosing a palette per picture (an octree over its pixels) is two thirds of the
    encode time. A game's pictures all use the same few flat colours and their
    anti-aliased blends, so one palette learnt from its gallery positions maps any
    of its pictures about as faithfully (mean error under 3 levels in 255), and
    mapping onto a known palette is several times faster than learning one."""
    width = max(i.width for i in images)
    mosaic = Image.new("RGB", (width, sum(i.height for i in images)), BG)
    y = 0
    for i in images:
        mosaic.paste(i.convert("RGB"), (0, y))
        y += i.height
    return mosaic.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def encode(img: Image.Image, palette: Image.Image | None = None) -> bytes:
    """PNG bytes, as a 256-colour palette image.

    Our pictures are flat colours plus anti-aliased edges (a few thousand colours),
    so a palette without dithering looks the same, and a palette PNG skips the
    per-row filter search and deflates a third of the bytes: about half the encode
    time and size of an RGB PNG (the file itself is written by ``render.png``).
    With ``palette`` (see ``learn_palette``) colours are mapped onto it; without,
    an octree palette is chosen for this picture.
    Both are deterministic and the file has no timestamp, so equal images (and
    palettes) give equal bytes."""
    if palette is not None:
        rgb = img if img.mode == "RGB" else img.convert("RGB")  # (a conversion to its own mode is a copy)
        indexed = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    else:
        indexed = img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return palette_png(indexed)
