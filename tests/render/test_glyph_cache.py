"""Text drawn through the glyph cache (``render.canvas.cached_text``) is Pillow's own
text, pixel for pixel: the first time (the mask is rendered and kept) and every time
after (the kept mask is laid down again), wherever it lands, sub-pixel offsets, anchors,
colours, image modes and the fonts the pictures use included."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageDraw

from render import canvas
from render.canvas import Draw, cached_text, font, text_at

TEXTS = ["Flaming Pyramids  #12", "Move 7", "player4 (you)", "hand 5 · pile 16", "Zug 3 · Stapel: 9 verdeckt",
         "Ä Ö Ü ß é ł Ω Ж", "…", "W", "1", "Your turn: pick a tile and a lettered spot on the board"]
ANCHORS = ["la", "lm", "ls", "mm", "rm", "rs", "lt", "mb"]
COLOURS = [canvas.INK, canvas.HEADER_TEXT, canvas.ACTIVE, (12, 200, 90)]


def blank(mode: str) -> Image.Image:
    return Image.new(mode, (420, 90), (40, 50, 60) if mode == "RGB" else (40, 50, 60, 128))


def pillow(mode: str, xy: tuple[float, float], text: str, size: int, bold: bool, fill: tuple[int, int, int],
           anchor: str) -> Image.Image:
    img = blank(mode)
    ImageDraw.ImageDraw(img).text(xy, text, fill=fill, font=font(size, bold), anchor=anchor)
    return img


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.mode == b.mode and ImageChops.difference(a, b).getbbox() is None and a.tobytes() == b.tobytes()


positions = st.tuples(st.floats(-20, 400, allow_nan=False), st.floats(-10, 80, allow_nan=False))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mode=st.sampled_from(["RGB", "RGBA"]), text=st.sampled_from(TEXTS), anchor=st.sampled_from(ANCHORS),
       size=st.integers(9, 40), bold=st.booleans(), fill=st.sampled_from(COLOURS), xy=positions,
       again=positions)
def test_cached_text_is_pillows_text(mode: str, text: str, anchor: str, size: int, bold: bool,
                                     fill: tuple[int, int, int], xy: tuple[float, float],
                                     again: tuple[float, float]) -> None:
    for where in (xy, xy, again):  # drawn fresh (or kept from an earlier example), then surely from the cache
        expected = pillow(mode, where, text, size, bold, fill, anchor)
        ours = blank(mode)
        assert cached_text(Draw(ours), where, text, font(size, bold), fill, anchor)
        assert same(ours, expected), (text, where, anchor, size, bold)


def test_every_way_the_pictures_draw_text_goes_through_it() -> None:
    """``Draw.text`` and ``text_at`` (what the pictures call) give Pillow's pixels, and the
    cache keeps the mask they drew; text the cache cannot take (a stroke, several lines)
    is left to Pillow and still comes out right."""
    canvas._glyphs.clear()
    canvas._glyph_bytes = 0
    f = font(24, True)
    ours = Image.new("RGB", (420, 90), canvas.HEADER_BG)
    d = Draw(ours)
    d.text((10.5, 30.25), "player5 (you)", font=f, fill=canvas.HEADER_TEXT, anchor="lm")
    text_at(d, (410, 60.5), "Move 12", f, canvas.HEADER_MUTED, "rm")
    d.text((200, 45), "7", font=f, fill=canvas.WHITE, anchor="mm", stroke_width=2, stroke_fill=(28, 22, 18))
    d.text((5, 5), "two\nlines", font=f, fill=canvas.INK)
    assert {key[1] for key in canvas._glyphs} == {"player5 (you)", "Move 12"}

    expected = Image.new("RGB", (420, 90), canvas.HEADER_BG)
    e = ImageDraw.ImageDraw(expected)
    e.text((10.5, 30.25), "player5 (you)", font=f, fill=canvas.HEADER_TEXT, anchor="lm")
    e.text((410, 60.5), "Move 12", font=f, fill=canvas.HEADER_MUTED, anchor="rm")
    e.text((200, 45), "7", font=f, fill=canvas.WHITE, anchor="mm", stroke_width=2, stroke_fill=(28, 22, 18))
    e.text((5, 5), "two\nlines", font=f, fill=canvas.INK)
    assert same(ours, expected)


def test_the_cache_stays_within_its_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past its byte limit the cache drops the masks used least recently."""
    monkeypatch.setattr(canvas, "GLYPH_CACHE_BYTES", 64 * 2000)
    canvas._glyphs.clear()
    canvas._glyph_bytes = 0
    img = Image.new("RGB", (400, 60), canvas.BG)
    d = Draw(img)
    for n in range(200):
        d.text((5, 30), f"word {n}", font=font(20), fill=canvas.INK, anchor="lm")
        assert canvas._glyph_bytes <= canvas.GLYPH_CACHE_BYTES
        assert canvas._glyph_bytes == sum(kept[2] for kept in canvas._glyphs.values())
    assert ("word 199" in {key[1] for key in canvas._glyphs}) and len(canvas._glyphs) < 200
