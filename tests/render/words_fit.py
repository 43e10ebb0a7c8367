"""The checks of the words on a picture (``render.textlog``): every word inside its
box, none over another, every one legible on a phone, none (and nothing else drawn)
under Discord's ALT badge in the bottom-left corner. Shared by the tests and by
``python -m tests.render.words_fit`` (which prints what is wrong in the gallery)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

from PIL import Image

from render import board_image, hand_image, textlog
from render.canvas import BG, FRAME, FRAME_WIDTH, MIN_PHONE_PX, PHONE_WIDTH, alt_corner
from render.textlog import Box, Word
from tools.gallery.samples import Sample, all_samples

LANGUAGES = ("en", "de")
#: Anti-aliasing reaches half a pixel past a glyph's box.
SLACK = 0.5
#: How far from the card's background or frame colour a pixel under the ALT badge may be:
#: frame and card blend where a picture was scaled down; anything drawn differs far more.
BLEND = 40


@dataclass(frozen=True)
class Picture:
    name: str
    image: Image.Image
    words: list[Word]
    #: Words too wide for any line, broken across lines ("Felde" "r"): none on a picture.
    broken: tuple[str, ...] = ()


def pictures(samples: list[Sample] | None = None) -> Iterator[Picture]:
    """Every gallery position's board and hand in English and German, with their words."""
    for s in samples if samples is not None else all_samples():
        for lang in LANGUAGES:
            with textlog.recording():
                board = board_image({**s.view, "lang": lang}, s.labels, s.events)
                board_broken = tuple(textlog.broken())
            with textlog.recording():
                hand = hand_image({**s.hand_view, "lang": lang})
                hand_broken = tuple(textlog.broken())
            yield Picture(f"{s.name}-board-{lang}", board, textlog.words(board), board_broken)
            yield Picture(f"{s.name}-hand-{lang}", hand, textlog.words(hand), hand_broken)


def _inside(box: Box, limit: Box) -> bool:
    return (box[0] >= limit[0] - SLACK and box[1] >= limit[1] - SLACK and box[2] <= limit[2] + SLACK
            and box[3] <= limit[3] + SLACK)


def _overlap(a: Box, b: Box) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > SLACK and min(a[3], b[3]) - max(a[1], b[1]) > SLACK


def cut_off(picture: Picture) -> list[str]:
    """Words drawn past their box (or past the picture), or shortened with "…"."""
    bounds: Box = (0, 0, picture.image.width, picture.image.height)
    return [f"{w.text!r} at {_fmt(w.box)} outside {_fmt(w.limit)}" for w in picture.words
            if not (_inside(w.box, w.limit) and _inside(w.box, bounds))
            or (w.text.endswith("…") and w.text.strip() != "…")]


def broken_words(picture: Picture) -> list[str]:
    """Words broken across lines because no line at the legible size held them."""
    return [f"{w!r} broken across lines" for w in picture.broken]


def overlapping(picture: Picture) -> list[str]:
    """Pairs of words drawn over each other."""
    return [f"{a.text!r} at {_fmt(a.box)} over {b.text!r} at {_fmt(b.box)}"
            for a, b in combinations(picture.words, 2) if _overlap(a.box, b.box)]


def too_small(picture: Picture) -> list[str]:
    """Words under MIN_PHONE_PX high when the picture is shown PHONE_WIDTH px wide."""
    k = PHONE_WIDTH / picture.image.width
    return [f"{w.text!r} {w.size:.1f}px → {w.size * k:.1f}px" for w in picture.words
            if w.size * k < MIN_PHONE_PX - 1e-6]


def under_badge(picture: Picture) -> list[str]:
    """Words, and anything else drawn (a legend tile, a panel), where Discord's ALT badge
    covers the picture's bottom-left corner on a phone (``canvas.alt_corner``): only the
    card's background and frame may be there."""
    corner = alt_corner(picture.image.width, picture.image.height)
    found = [f"{w.text!r} at {_fmt(w.box)} under the badge {_fmt(corner)}" for w in picture.words
             if _overlap(w.box, corner)]
    x0, y0, x1, y1 = (round(v) for v in corner)
    x0, y1 = x0 + FRAME_WIDTH + 1, y1 - FRAME_WIDTH - 1  # inside the frame (blended where a picture was scaled)
    crop = picture.image.convert("RGB").crop((x0, y0, x1, y1))
    ink = [(x, y) for y in range(crop.height) for x in range(crop.width)
           if not any(_near(crop.getpixel((x, y)), plain) for plain in (BG, FRAME))]
    if ink:
        box = (x0 + min(x for x, _ in ink), y0 + min(y for _, y in ink), x0 + max(x for x, _ in ink) + 1,
               y0 + max(y for _, y in ink) + 1)
        found.append(f"{len(ink)} px drawn at {_fmt(box)} under the badge {_fmt(corner)}")
    return found


def _near(a: object, b: tuple[int, int, int]) -> bool:
    """Within a blend of ``b`` (a picture scaled down to fit 1600 px mixes frame and card)."""
    return isinstance(a, tuple) and max(abs(int(u) - v) for u, v in zip(a, b, strict=False)) <= BLEND


def _fmt(b: Box) -> str:
    return "(" + ", ".join(f"{v:.0f}" for v in b) + ")"


def main() -> None:
    import sys

    games = sys.argv[1:] or None
    for p in pictures(all_samples(games)):
        for kind, found in (("cut", cut_off(p)), ("overlap", overlapping(p)), ("small", too_small(p)),
                            ("badge", under_badge(p)), ("broken", broken_words(p))):
            for line in found:
                print(f"{p.name} {kind}: {line}")


if __name__ == "__main__":
    main()
