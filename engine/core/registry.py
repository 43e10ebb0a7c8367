"""Games by id: the project's one list of the games it ships.

Engines are imported lazily so that asking for one game never pays for importing the
others. The other layers find a game's parts by the same name: a game whose engine is
``engine.<name>`` is drawn by ``render.<name>`` and presented by ``bot.games.<name>``,
so adding a game adds one line here and no line to any other table."""

from __future__ import annotations

from importlib import import_module
from types import MappingProxyType
from typing import Any

from engine.core.contract import Game
from engine.core.errors import EngineError
from engine.core.text import N_

#: game id -> module that defines ``GAME``, in the order players see the games.
GAME_MODULES = MappingProxyType({
    "flaming-pyramids": "engine.flaming_pyramids",
    "continuous-pyramid": "engine.continuous_pyramid",
    "pyrinoes": "engine.pyrinoes",
    "pyramido": "engine.pyramido",
})


class UnknownGame(EngineError):
    pass


def game_ids() -> list[str]:
    return list(GAME_MODULES)


def _module_of(kind: str) -> str:
    module_name = GAME_MODULES.get(kind)
    if module_name is None:
        raise UnknownGame(N_("There is no game called {kind}; the games are {games}."), kind=repr(kind),
                          games=", ".join(GAME_MODULES))
    return module_name


def package_of(kind: str) -> str:
    """The name the game's modules share across layers (``flaming_pyramids``)."""
    return _module_of(kind).rpartition(".")[2]


def get_game(kind: str) -> Game[Any]:
    game = getattr(import_module(_module_of(kind)), "GAME", None)
    if not isinstance(game, Game):
        raise UnknownGame(N_("The {kind} engine does not export a GAME rule book."), kind=kind)
    return game
