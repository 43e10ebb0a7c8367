"""MahJongg tile faces drawn from shapes, so no font beyond the shipped one and no
image file is needed. Each face pairs a big readable mark (rank digit, wind letter)
with a shape that tells the family apart without relying on colour alone: bamboo
stalk, character seal, circle ring; compass for winds; flower, sun, leaf, snowflake
for seasons; a gold-rimmed medallion for the wild dragons."""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from render import canvas as cv
from render import shapes as sh
from render.canvas import RGB

IVORY: RGB = (251, 247, 234)
#: Suits and levels keep apart under the common colour-vision deficiencies too
#: (tests/render/test_colour_vision.py); their shapes and dots tell them apart as well.
SUIT_COLOURS: dict[str, RGB] = {"B": (8, 150, 46), "C": (160, 28, 30), "O": (12, 72, 170)}
WIND_COLOUR: RGB = (30, 38, 60)
SEASON_COLOURS: dict[str, RGB] = {"SP": (214, 64, 140), "SU": (226, 120, 10), "AU": (150, 80, 30), "WI": (30, 140, 190)}
SEASON_NAMES: dict[str, str] = {"SP": "SPR", "SU": "SUM", "AU": "AUT", "WI": "WIN"}
DRAGON_COLOURS: dict[str, RGB] = {"DR": (200, 30, 30), "DG": (30, 140, 60), "DW": (40, 80, 170)}
GOLD: RGB = (214, 160, 30)
#: The side of a tile shows its level, so stacks read as layers.
LEVEL_EDGES: dict[int, RGB] = {1: (189, 146, 89), 2: (30, 165, 175), 3: (105, 40, 145), 4: (212, 50, 36)}


@lru_cache(maxsize=512)
def face_sprite(code: str, width: int, height: int, level: int = 1) -> Image.Image:
    """A tile ``width``×``height`` px, its side (bottom and right) in the level's colour."""
    return cv.supersample(width, height, lambda img, d, s: _paint(d, code, width * s, height * s, level, s))


def _paint(d: ImageDraw.ImageDraw, code: str, w: float, h: float, level: int, s: int) -> None:
    side = max(3 * s, w * 0.07)
    radius = int(w * 0.12)
    edge = LEVEL_EDGES.get(level, LEVEL_EDGES[1])
    d.rounded_rectangle((side, side, w - 1, h - 1), radius, fill=cv.shade(edge, 0.7))
    d.rounded_rectangle((side * 0.5, side * 0.5, w - 1 - side * 0.5, h - 1 - side * 0.5), radius, fill=edge)
    face = (0.0, 0.0, w - 1 - side, h - 1 - side)
    d.rounded_rectangle(face, radius, fill=IVORY, outline=cv.shade(edge, 0.55), width=max(2, int(s * 1.5)))
    fw, fh = face[2], face[3]
    # the level as dots in the top right corner too, so it needs no colour
    level_dots(d, (fw - fw * 0.2, fh * 0.075), level, fw * 0.035)
    if len(code) == 2 and code[0] in SUIT_COLOURS and code[1].isdigit():
        _suited(d, code[0], code[1], fw, fh, s)
    elif code in ("WE", "WS", "WW", "WN"):
        _wind(d, code[1], fw, fh, s)
    elif code in SEASON_COLOURS:
        _season(d, code, fw, fh, s)
    elif code in DRAGON_COLOURS:
        _dragon(d, code, fw, fh, s)
    else:
        cv.centred_text(d, (fw / 2, fh / 2), code, cv.font(int(fh * 0.3), True), cv.INK)


def level_dots(d: ImageDraw.ImageDraw, centre: tuple[float, float], level: int, r: float) -> None:
    """One dot fewer than the level (none on level 1), side by side around ``centre``,
    in the level's colour with a white rim."""
    cx, cy = centre
    edge = LEVEL_EDGES.get(level, LEVEL_EDGES[1])
    for k in range(level - 1):
        x = cx + (k - (level - 2) / 2) * r * 2.6
        d.ellipse((x - r, cy - r, x + r, cy + r), fill=edge, outline=cv.WHITE, width=max(1, int(r * 0.35)))


def _suited(d: ImageDraw.ImageDraw, suit: str, rank: str, w: float, h: float, s: int) -> None:
    colour = SUIT_COLOURS[suit]
    cv.centred_text(d, (w * 0.5, h * 0.3), rank, cv.font(int(h * 0.44), True), colour)
    cx, cy, r = w * 0.5, h * 0.73, min(w, h) * 0.2
    if suit == "B":
        _bamboo(d, cx, cy, r, colour, s)
    elif suit == "C":
        _seal(d, cx, cy, r, colour, s)
    else:
        d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=colour, width=int(r * 0.32))
        rr = r * 0.3
        d.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=colour)


def _bamboo(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour: RGB, s: int) -> None:
    """Two stalks with nodes."""
    for dx in (-0.42, 0.42):
        x = cx + dx * r
        sw = r * 0.36
        d.rounded_rectangle((x - sw, cy - r * 1.05, x + sw, cy + r * 1.05), int(sw * 0.8), fill=colour)
        for ny in (-0.35, 0.35):
            y = cy + ny * r
            d.line((x - sw * 1.25, y, x + sw * 1.25, y), fill=cv.shade(colour, 0.55), width=max(1, int(r * 0.14)))


def _seal(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour: RGB, s: int) -> None:
    """A square seal with three bars, standing for the character suit."""
    d.rounded_rectangle((cx - r, cy - r, cx + r, cy + r), int(r * 0.2), outline=colour, width=int(r * 0.22))
    for k in (-0.42, 0.0, 0.42):
        y = cy + k * r
        d.line((cx - r * 0.55, y, cx + r * 0.55, y), fill=colour, width=int(r * 0.2))


def _wind(d: ImageDraw.ImageDraw, letter: str, w: float, h: float, s: int) -> None:
    cv.centred_text(d, (w * 0.5, h * 0.32), letter, cv.font(int(h * 0.42), True), WIND_COLOUR)
    cx, cy, r = w * 0.5, h * 0.74, min(w, h) * 0.19
    d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=WIND_COLOUR, width=max(2, int(r * 0.14)))
    angle = {"N": -90, "E": 0, "S": 90, "W": 180}[letter]
    a = math.radians(angle)
    tip = (cx + r * 0.95 * math.cos(a), cy + r * 0.95 * math.sin(a))
    back = (cx - r * 0.5 * math.cos(a), cy - r * 0.5 * math.sin(a))
    px, py = -math.sin(a) * r * 0.38, math.cos(a) * r * 0.38
    d.polygon([tip, (back[0] + px, back[1] + py), (back[0] - px, back[1] - py)], fill=(200, 40, 40))


def _season(d: ImageDraw.ImageDraw, code: str, w: float, h: float, s: int) -> None:
    colour = SEASON_COLOURS[code]
    f = cv.fit_font(SEASON_NAMES[code], int(h * 0.3), w * 0.9, bold=True, min_size=6)
    cv.centred_text(d, (w * 0.5, h * 0.2), SEASON_NAMES[code], f, colour)
    cx, cy, r = w * 0.5, h * 0.64, min(w, h) * 0.28
    if code == "SP":  # a five-petal blossom
        for i in range(5):
            a = -math.pi / 2 + i * 2 * math.pi / 5
            px, py = cx + r * 0.55 * math.cos(a), cy + r * 0.55 * math.sin(a)
            pr = r * 0.42
            d.ellipse((px - pr, py - pr, px + pr, py + pr), fill=colour)
        cr = r * 0.28
        d.ellipse((cx - cr, cy - cr, cx + cr, cy + cr), fill=(250, 210, 60))
    elif code == "SU":  # the sun
        for i in range(8):
            a = i * math.pi / 4
            d.line((cx + r * 0.55 * math.cos(a), cy + r * 0.55 * math.sin(a), cx + r * math.cos(a),
                    cy + r * math.sin(a)), fill=colour, width=max(2, int(r * 0.16)))
        cr = r * 0.45
        d.ellipse((cx - cr, cy - cr, cx + cr, cy + cr), fill=colour)
    elif code == "AU":  # a leaf
        left = [(cx - r * 0.62 * math.sin(i / 20 * math.pi), cy - r + 2 * r * i / 20) for i in range(21)]
        right = [(cx + r * 0.62 * math.sin(i / 20 * math.pi), cy + r - 2 * r * i / 20) for i in range(21)]
        d.polygon(left + right, fill=colour)
        d.line((cx, cy - r * 0.8, cx, cy + r * 1.1), fill=cv.shade(colour, 0.5), width=max(2, int(r * 0.1)))
    else:  # a snowflake
        for i in range(3):
            a = i * math.pi / 3 + math.pi / 2
            dx, dy = r * math.cos(a), r * math.sin(a)
            d.line((cx - dx, cy - dy, cx + dx, cy + dy), fill=colour, width=max(2, int(r * 0.16)))
            for sign in (1, -1):
                bx, by = cx + sign * dx * 0.6, cy + sign * dy * 0.6
                for b in (0.6, -0.6):
                    ba = a + b + (math.pi if sign < 0 else 0)
                    d.line((bx, by, bx + r * 0.32 * math.cos(ba), by + r * 0.32 * math.sin(ba)), fill=colour,
                           width=max(2, int(r * 0.12)))


def _dragon(d: ImageDraw.ImageDraw, code: str, w: float, h: float, s: int) -> None:
    """Wild: a gold-rimmed medallion in the dragon's colour with its letter (R, G, W:
    the letter, not the colour, tells the dragons apart) and a star under it."""
    colour = DRAGON_COLOURS[code]
    inset = min(w, h) * 0.07
    d.rounded_rectangle((inset, inset, w - inset, h - inset), int(w * 0.08), outline=GOLD, width=max(2, int(w * 0.05)))
    cx, cy, r = w * 0.5, h * 0.4, min(w, h) * 0.34
    letter = code[1]
    f = cv.font(int(r * 1.3), True)
    if code == "DW":
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=IVORY, outline=colour, width=max(2, int(r * 0.16)))
        cv.centred_text(d, (cx, cy), letter, f, colour)
    else:
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=cv.shade(colour, 0.6), width=max(1, s))
        cv.centred_text(d, (cx, cy), letter, f, cv.WHITE)
    sh.star(d, (w * 0.5, h * 0.8), min(w, h) * 0.13, GOLD, cv.shade(GOLD, 0.6), max(1, s))
