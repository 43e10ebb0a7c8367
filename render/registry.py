"""Where each game's ``Art`` lives: ``render.<name>`` for the game whose engine is
``engine.<name>`` (the engine's registry is the one list of games).

Modules are imported on first use, like the engine's registry, so one game's picture
never pays for importing the others. A game outside the engine's registry (a test's)
is drawn by passing its ``Art`` to the public functions instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from types import MappingProxyType
from typing import Any

from engine.core.registry import game_ids, package_of
from render.art import Art

#: game id -> the module whose ``ART`` draws it.
ART_MODULES = MappingProxyType({game: f"render.{package_of(game)}" for game in game_ids()})


class UnknownArt(ValueError):
    """No pictures are registered for a game id."""


def art_ids() -> list[str]:
    return list(ART_MODULES)


def art_for(game: str) -> Art:
    """The registered ``Art`` of ``game``."""
    name = ART_MODULES.get(game)
    if name is None:
        raise UnknownArt(f"No renderer for game {game!r}; games with pictures: {', '.join(ART_MODULES)}.")
    art = import_module(name).ART
    if not isinstance(art, Art):
        raise TypeError(f"{name}.ART must be an Art, not {art!r}.")
    return art


def art_of(view: Mapping[str, Any], art: Art | None = None) -> Art:
    """The given art, which must be the view's game's, or the registered one."""
    game = str(view.get("game"))
    if art is None:
        return art_for(game)
    if art.game != game:
        raise ValueError(f"The pictures of {art.game!r} cannot draw a view of {game!r}.")
    return art

