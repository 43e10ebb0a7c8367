"""The contract shared by every game engine."""

from engine.core.contract import Game, Json
from engine.core.errors import (
    BadOptions,
    BadPosition,
    EngineError,
    GameOver,
    IllegalMove,
    MoveRejected,
    NotYourTurn,
)
from engine.core.events import Event
from engine.core.pending import Pending
from engine.core.registry import UnknownGame, game_ids, get_game
from engine.core.result import Result
from engine.core.rng import Rng, derive_seed

__all__ = [
    "BadOptions",
    "BadPosition",
    "EngineError",
    "Event",
    "Game",
    "GameOver",
    "IllegalMove",
    "Json",
    "MoveRejected",
    "NotYourTurn",
    "Pending",
    "Result",
    "Rng",
    "UnknownGame",
    "derive_seed",
    "game_ids",
    "get_game",
]
