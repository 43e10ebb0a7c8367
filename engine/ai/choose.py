"""Choosing a move for a seat at a given level."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core import Game, Rng

LEVELS = ("easy", "normal", "hard")
Clock = Callable[[], float]


def choose_move(game: Game[Any], state: Any, seat: int, level: str, seed: int, clock: Clock | None = None) -> str:
    """A legal move for ``seat``, which must be the seat to act."""
    rng = Rng(seed)
    seen = game.determinize(state, seat, rng)
    moves = game.legal_moves(seen)
    if not moves:
        raise ValueError("The AI was asked to move when it has no legal move.")
    if level not in LEVELS:
        raise ValueError(f"Unknown AI level {level!r}; the levels are {', '.join(LEVELS)}.")
    return moves[rng.below(len(moves))]
