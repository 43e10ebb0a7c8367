"""Pictures of games for Discord, drawn with Pillow from an engine ``view``.

The bot calls two functions, off the event loop (drawing is CPU work):

``render_board(view, *, labels=None, events=None) -> bytes``
    The shared board as PNG bytes: header strip (game, number, move, whose turn,
    piles/scores), the position, the last move highlighted, what mayhem removed
    this turn ghosted, and each legal spot in ``labels`` marked with its button
    letter (``render.labels.spot_labels`` makes both sides agree).
``render_hand(view) -> bytes``
    What the viewing seat holds (``view["seat"]``), for a DM; games without a
    private hand draw what the player chooses from.

``view`` is ``GAME.view(state, seat)`` plus the bot's optional ``names`` and
``game_number``. Output depends on nothing else (no clock, no randomness), so the
same view gives the same bytes. Only ``engine`` is imported, never ``bot``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from importlib import import_module
from pathlib import Path
from typing import Any

from PIL import Image

from engine.core import Event
from render import canvas

BoardFn = Callable[[dict[str, Any], dict[str, str], Sequence[Event]], Image.Image]
HandFn = Callable[[dict[str, Any]], Image.Image]

MAX_SIDE = 1600
PALETTES = Path(__file__).with_name("palettes")


#: game id -> module with ``render_board(view, labels, events)`` and ``render_hand(view)``.
MODULES: dict[str, str] = {
    "flaming-pyramids": "render.flaming",
    "continuous-pyramid": "render.continuous",
    "pyrinoes": "render.pyrinoes",
    "pyramido": "render.pyramido",
}


def _modules(game: str) -> tuple[BoardFn, HandFn]:
    """Imported on first use, like the engine registry, so one game's picture never
    pays for importing the others."""
    name = MODULES.get(game)
    if name is None:
        raise ValueError(f"No renderer for game {game!r}.")
    module = import_module(name)
    return module.render_board, module.render_hand


def board_image(view: dict[str, Any], labels: dict[str, str] | None = None,
                events: Sequence[Event] | None = None) -> Image.Image:
    draw, _ = _modules(str(view.get("game")))
    return _bounded(draw(view, dict(labels or {}), list(events or ())))


def hand_image(view: dict[str, Any]) -> Image.Image:
    _, draw = _modules(str(view.get("game")))
    return _bounded(draw(view))


@lru_cache(maxsize=8)
def palette(game: str) -> Image.Image:
    """The game's fixed PNG palette as a "P" image for ``canvas.encode``: shipped in
    ``render/palettes``, learnt from the gallery by ``python -m tools.gallery.palettes``."""
    try:
        data = (PALETTES / f"{game}.rgb").read_bytes()
    except FileNotFoundError:
        raise ValueError(f"No palette for game {game!r}; run `python -m tools.gallery.palettes`.") from None
    image = Image.new("P", (1, 1))
    image.putpalette(data)
    return image


def warm_up() -> None:
    """Import the drawing modules and read the palettes before the first real picture."""
    for game in MODULES:
        _modules(game)
        palette(game)


def render_board(view: dict[str, Any], *, labels: dict[str, str] | None = None,
                 events: list[Event] | None = None) -> bytes:
    return canvas.encode(board_image(view, labels, events), palette(str(view.get("game"))))


def render_hand(view: dict[str, Any]) -> bytes:
    return canvas.encode(hand_image(view), palette(str(view.get("game"))))


def _bounded(img: Image.Image) -> Image.Image:
    """Layouts aim to fit 1600×1600; this is the backstop for freak positions."""
    if img.width <= MAX_SIDE and img.height <= MAX_SIDE:
        return img
    scale = min(MAX_SIDE / img.width, MAX_SIDE / img.height)
    return img.resize((max(1, int(img.width * scale)), max(1, int(img.height * scale))), Image.Resampling.LANCZOS)


__all__ = ["board_image", "hand_image", "palette", "render_board", "render_hand", "warm_up"]
