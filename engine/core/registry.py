"""Games by id. Engines are imported lazily so that asking for one game never pays
for importing the others."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from engine.core.contract import Game
from engine.core.errors import EngineError

#: game id -> module that defines ``GAME``.
GAME_MODULES: dict[str, str] = {
    "flaming-pyramids": "engine.flaming_pyramids",
    "continuous-pyramid": "engine.continuous_pyramid",
    "pyrinoes": "engine.pyrinoes",
    "pyramido": "engine.pyramido",
}


class UnknownGame(EngineError):
    pass


def game_ids() -> list[str]:
    return list(GAME_MODULES)


def get_game(game_id: str) -> Game[Any]:
    module_name = GAME_MODULES.get(game_id)
    if module_name is None:
        known = ", ".join(GAME_MODULES)
        raise UnknownGame(f"There is no game called {game_id!r}; the games are {known}.")
    game = getattr(import_module(module_name), "GAME", None)
    if not isinstance(game, Game):
        raise UnknownGame(f"The {game_id} engine does not export a GAME rule book.")
    return game
