"""Shapes drawn as polygons rather than font glyphs (the fonts' ▲ ★ ◀ are thin or
missing): the colour-blind-safe marks (each shape always means one colour in a
game), stars for winners and wild tiles, and arrows."""

from __future__ import annotations

import math

from PIL import ImageDraw

from render.canvas import RGB


def star_points(cx: float, cy: float, r: float, points: int = 5, inner: float = 0.45) -> list[tuple[float, float]]:
    out = []
    for i in range(points * 2):
        rad = r if i % 2 == 0 else r * inner
        ang = -math.pi / 2 + i * math.pi / points
        out.append((cx + rad * math.cos(ang), cy + rad * math.sin(ang)))
    return out


def star(d: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, fill: RGB,
         outline: RGB | None = None, width: int = 2) -> None:
    d.polygon(star_points(centre[0], centre[1], r), fill=fill, outline=outline, width=width)


def symbol(d: ImageDraw.ImageDraw, kind: str, centre: tuple[float, float], r: float, fill: RGB,
           outline: RGB | None, width: int = 2) -> None:
    """Colour-blind-safe marks: the same shape always means the same colour."""
    cx, cy = centre
    if kind == "triangle":
        d.polygon([(cx, cy - r), (cx + r * 0.95, cy + r * 0.72), (cx - r * 0.95, cy + r * 0.72)], fill=fill,
                  outline=outline, width=width)
    elif kind == "circle":
        rr = r * 0.82
        d.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=fill, outline=outline, width=width)
    elif kind == "square":
        rr = r * 0.72
        d.rectangle((cx - rr, cy - rr, cx + rr, cy + rr), fill=fill, outline=outline, width=width)
    elif kind == "star":
        d.polygon(star_points(cx, cy, r * 1.08), fill=fill, outline=outline, width=width)
    elif kind == "diamond":
        d.polygon([(cx, cy - r), (cx + r * 0.8, cy), (cx, cy + r), (cx - r * 0.8, cy)], fill=fill, outline=outline,
                  width=width)


def arrow(d: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], fill: RGB, width: int = 5,
          head: float = 16) -> None:
    (x0, y0), (x1, y1) = a, b
    ang = math.atan2(y1 - y0, x1 - x0)
    bx, by = x1 - head * 0.8 * math.cos(ang), y1 - head * 0.8 * math.sin(ang)
    d.line((x0, y0, bx, by), fill=fill, width=width)
    left = (x1 - head * math.cos(ang - 0.5), y1 - head * math.sin(ang - 0.5))
    right = (x1 - head * math.cos(ang + 0.5), y1 - head * math.sin(ang + 0.5))
    d.polygon([(x1, y1), left, right], fill=fill)


def triangle_arrow(d: ImageDraw.ImageDraw, centre: tuple[float, float], size: float, pointing: str,
                   fill: RGB) -> None:
    """A solid ◀ or ▶ (the fonts' arrows are thin at small sizes)."""
    cx, cy = centre
    s = size / 2
    if pointing == "left":
        d.polygon([(cx - s, cy), (cx + s, cy - s), (cx + s, cy + s)], fill=fill)
    else:
        d.polygon([(cx + s, cy), (cx - s, cy - s), (cx - s, cy + s)], fill=fill)
