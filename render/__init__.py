"""Pictures of games for Discord, drawn with Pillow from an engine ``view``.

The bot calls two functions, off the event loop (drawing is CPU work):

``render_board(view, *, labels=None, events=None, art=None) -> bytes``
    The shared board as PNG bytes: header strip (game, number, move, whose turn,
    piles/scores), the position, the last move highlighted, what mayhem removed
    this turn ghosted, and each legal spot in ``labels`` marked with its button
    letter (``render.labels`` makes both sides agree).
``render_hand(view, *, art=None) -> bytes``
    What the viewing seat holds (``view["seat"]``), for a DM; games without a
    private hand draw what the player chooses from.

``view`` is ``GAME.view(state, seat)`` plus the bot's optional ``names`` and
``game_number``; ``art`` is the game's :class:`Art`, looked up by ``view["game"]``
in the registry when not given. Output depends on nothing else (no clock, no
randomness), so the same view gives the same bytes. Only ``engine`` is imported,
never ``bot``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image

from engine.core import Event
from render import canvas, textlog
from render.art import Art, BoardFn, HandFn, SpotsFn
from render.registry import ART_MODULES, UnknownArt, art_for, art_ids, art_of

MAX_SIDE = 1600
PALETTES = Path(__file__).with_name("palettes")


def board_image(view: dict[str, Any], labels: dict[str, str] | None = None,
                events: Sequence[Event] | None = None, *, art: Art | None = None) -> Image.Image:
    draw = _art(view, art).board
    return _bounded(draw(view, dict(labels or {}), list(events or ())))


def hand_image(view: dict[str, Any], *, art: Art | None = None) -> Image.Image:
    art = _art(view, art)
    return _bounded(art.hand(hand_view(view, art)))


def hand_view(view: dict[str, Any], art: Art) -> dict[str, Any]:
    """What the hand picture of ``view`` is drawn from (``Art.hand_view``): equal parts, equal pictures."""
    return art.hand_view(view) if art.hand_view is not None else view


def palette(art: Art) -> Image.Image | None:
    """The art's fixed PNG palette as a "P" image for ``canvas.encode``, or None: each
    picture then gets its own adaptive palette."""
    return None if art.palette is None else _shipped_palette(art.palette)


@lru_cache(maxsize=8)
def _shipped_palette(name: str) -> Image.Image:
    """A palette shipped in ``render/palettes``, learnt from the gallery by
    ``python -m tools.gallery.palettes`` (learning it here would cost every start)."""
    try:
        data = (PALETTES / name).read_bytes()
    except FileNotFoundError:
        raise ValueError(f"No palette {name!r} in render/palettes; run `python -m tools.gallery.palettes`.") from None
    image = Image.new("P", (1, 1))
    image.putpalette(data)
    return image


def warm_up(arts: Iterable[Art] | None = None) -> None:
    """Import the drawing modules, read the palettes and draw the pieces every picture
    reuses (``Art.warm``) before the first real picture (by default of every registered
    game)."""
    for art in arts if arts is not None else map(art_for, art_ids()):
        palette(art)
        if art.warm is not None:
            art.warm()


def render_board(view: dict[str, Any], *, labels: dict[str, str] | None = None,
                 events: Sequence[Event] | None = None, art: Art | None = None) -> bytes:
    art = _art(view, art)
    return canvas.encode(board_image(view, labels, events, art=art), palette(art))


def render_hand(view: dict[str, Any], *, art: Art | None = None) -> bytes:
    art = _art(view, art)
    return canvas.encode(hand_image(view, art=art), palette(art))


def _art(view: dict[str, Any], art: Art | None) -> Art:
    return art_of(view, art)


def _bounded(img: Image.Image) -> Image.Image:
    """Layouts aim to fit 1600×1600; this is the backstop for freak positions."""
    if img.width <= MAX_SIDE and img.height <= MAX_SIDE:
        return img
    scale = min(MAX_SIDE / img.width, MAX_SIDE / img.height)
    small = img.resize((max(1, int(img.width * scale)), max(1, int(img.height * scale))), Image.Resampling.LANCZOS)
    textlog.transform(small, img, scale)
    return small


__all__ = [
    "ART_MODULES",
    "PALETTES",
    "Art",
    "BoardFn",
    "HandFn",
    "SpotsFn",
    "UnknownArt",
    "art_for",
    "art_ids",
    "board_image",
    "hand_image",
    "hand_view",
    "palette",
    "render_board",
    "render_hand",
    "warm_up",
]
