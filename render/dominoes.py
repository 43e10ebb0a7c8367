"""Pyrinoes pieces as sprites: ivory dominoes with pips, Looney pyramids seen from
the side (size by width and pips, colour by fill and its shape mark), and pyrinoes as a
slate tray holding their two ends, each with its spot count in a badge."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render import canvas as cv
from render import shapes as sh
from render.canvas import RGB

IVORY: RGB = (250, 246, 234)
PYRAMID_COLOURS: dict[str, RGB] = {
    "R": (235, 77, 19), "Y": (242, 190, 28), "B": (34, 79, 195), "K": (44, 44, 50), "G": (12, 150, 101),
}  # fmt: skip
TRAY: RGB = (72, 84, 104)
#: Each pyramid colour's mark, drawn on the pyramid: the same shapes the other games
#: give these colours, and K (black) the diamond.
PYRAMID_MARKS: dict[str, str] = {"R": "triangle", "Y": "star", "B": "square", "K": "diamond", "G": "circle"}

#: Pip positions on a 3×3 grid for 0..6.
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    0: (),
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}


def parse_end(code: str) -> tuple[str, tuple[int, ...]]:
    """'Y21' -> ('Y', (2, 1)), bottom first."""
    colour = code[:1].upper()
    sizes = tuple(int(ch) for ch in code[1:] if ch in "123")
    return colour, sizes or (1,)


def end_spots(code: str) -> int:
    colour, sizes = parse_end(code)
    return 0 if colour == "G" else sum(sizes)


def piece_ends(piece: str) -> tuple[str, str] | None:
    """Left and right of a piece as written: numbers for dominoes, end codes for pyrinoes."""
    if "|" in piece:
        a, _, b = piece.partition("|")
        return a, b
    if "-" in piece:
        a, _, b = piece.partition("-")
        return a, b
    return None


@lru_cache(maxsize=512)
def piece_sprite(piece: str, unit: int, flipped: bool = False) -> Image.Image:
    """A piece lying left-to-right, ``2*unit`` × ``unit`` px; ``flipped`` swaps its
    halves (a line row drawn right-to-left)."""
    ends = piece_ends(piece)
    if ends is None:
        ends = ("?", "?")
    if flipped:
        ends = (ends[1], ends[0])
    pyrino = "|" in piece
    return cv.supersample(2 * unit, unit, lambda img, d, s: _paint_piece(d, ends, pyrino, 2 * unit * s, unit * s, s))


def _paint_piece(d: ImageDraw.ImageDraw, ends: tuple[str, str], pyrino: bool, w: float, h: float, s: int) -> None:
    radius = int(h * 0.16)
    lip = h * 0.06
    d.rounded_rectangle((0, lip, w - 1, h - 1), radius, fill=(120, 110, 96) if not pyrino else (36, 42, 54))
    body = (0.0, 0.0, w - 1, h - 1 - lip)
    fill = IVORY if not pyrino else TRAY
    d.rounded_rectangle(body, radius, fill=fill, outline=(40, 34, 28), width=max(2, int(h * 0.035)))
    mid = w / 2
    d.line((mid, h * 0.12, mid, body[3] - h * 0.12), fill=(120, 110, 96) if not pyrino else (150, 162, 182),
           width=max(2, int(h * 0.03)))
    for i, end in enumerate(ends):
        x0 = 0 if i == 0 else mid
        if pyrino:
            _pyrino_end(d, end, x0, 0, mid, body[3], s)
        else:
            _pips(d, end, x0, 0, mid, body[3])


def _pips(d: ImageDraw.ImageDraw, value: str, x0: float, y0: float, w: float, h: float) -> None:
    try:
        n = int(value)
    except ValueError:
        cv.centred_text(d, (x0 + w / 2, y0 + h / 2), value, cv.font(int(h * 0.4), True), cv.INK)
        return
    r = h * 0.085
    for gx, gy in PIPS.get(n, ()):
        cx = x0 + w * (0.24 + 0.26 * gx)
        cy = y0 + h * (0.24 + 0.26 * gy)
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(30, 26, 22))


def pyramid_shape(d: ImageDraw.ImageDraw, colour: str, size: int, cx: float, base_y: float, unit: float,
                  s: int, mark: bool = True) -> None:
    """One Looney pyramid from the side, base centred at (cx, base_y)."""
    fill = PYRAMID_COLOURS.get(colour, (150, 150, 150))
    bw = unit * (0.42, 0.6, 0.78)[max(1, min(3, size)) - 1]
    bh = bw * 1.12
    outline = (250, 246, 234) if colour == "K" else cv.shade(fill, 0.45)
    pts = [(cx, base_y - bh), (cx + bw / 2, base_y), (cx - bw / 2, base_y)]
    d.polygon(pts, fill=fill, outline=outline, width=max(2, int(unit * 0.03)))
    # the lit face: a lighter right half, so it reads as a pyramid, not a flag
    d.polygon([(cx, base_y - bh), (cx + bw / 2, base_y), (cx + bw * 0.06, base_y)], fill=cv.shade(fill, 1.22))
    d.polygon(pts, outline=outline, width=max(2, int(unit * 0.03)))
    pip = unit * 0.035
    for k in range(size):
        px = cx + (k - (size - 1) / 2) * pip * 3
        py = base_y - bh * 0.16
        d.ellipse((px - pip, py - pip, px + pip, py + pip), fill=cv.WHITE if colour != "Y" else (60, 50, 20))
    if mark:
        # the colour's own shape (as in every game: red triangle, green circle...), so
        # a small red and a small green pyramid differ without colour
        ink = cv.WHITE if colour != "Y" else (60, 50, 20)
        shape = PYRAMID_MARKS.get(colour, "circle")
        sh.symbol(d, shape, (cx, base_y - bh * 0.45), bw * 0.2, ink, cv.shade(fill, 0.4), max(1, int(bw * 0.03)))


def _pyrino_end(d: ImageDraw.ImageDraw, end: str, x0: float, y0: float, w: float, h: float, s: int) -> None:
    colour, sizes = parse_end(end)
    base_y = y0 + h * 0.92
    cx = x0 + w * 0.36
    unit = h
    for i, size in enumerate(sizes):
        if i == 0:
            pyramid_shape(d, colour, size, cx, base_y, unit * 0.95, s, mark=len(sizes) == 1 or size >= 2)
        else:
            # the upper pyramid sits over the lower one's tip
            bw_low = unit * 0.95 * (0.42, 0.6, 0.78)[sizes[0] - 1]
            new_base = base_y - bw_low * 1.12 * 0.5
            pyramid_shape(d, colour, size, cx, new_base, unit * 0.95, s, mark=False)
    spots = end_spots(end)
    r = h * 0.33  # its number legible on a phone (render.canvas.legible) at the units the pictures use
    bx, by = x0 + w - r * 1.02, y0 + r * 1.02
    badge_fill = PYRAMID_COLOURS["G"] if colour == "G" else (250, 246, 234)
    d.ellipse((bx - r, by - r, bx + r, by + r), fill=badge_fill, outline=(20, 20, 24), width=max(2, int(s * 1.5)))
    cv.centred_text(d, (bx, by), str(spots), cv.font(int(r * 1.75), True), cv.WHITE if colour == "G" else cv.INK)


@lru_cache(maxsize=128)
def pyramid_sprite(code: str, unit: int) -> Image.Image:
    """A single pyramid (supply, green pool) on a ``unit``-square sprite."""
    colour, sizes = parse_end(code)

    def paint(img: Image.Image, d: ImageDraw.ImageDraw, s: int) -> None:
        pyramid_shape(d, colour, sizes[0], unit * s / 2, unit * s * 0.96, unit * s * 1.2, s)

    return cv.supersample(unit, unit, paint)
