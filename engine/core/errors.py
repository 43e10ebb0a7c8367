"""Errors a player can read.

Every rejection of a move is a :class:`MoveRejected`; the bot shows ``str(error)`` to
the player as it is, so messages are written for people, not developers.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""


class MoveRejected(EngineError):
    """A move was refused; the state it was tried on is unchanged."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class IllegalMove(MoveRejected):
    """The move breaks a rule (or is not a move at all)."""


class NotYourTurn(MoveRejected):
    """Someone other than the seat the game waits for tried to act."""


class GameOver(MoveRejected):
    """The game has already ended."""


class BadPosition(EngineError):
    """A position JSON or stored state cannot be loaded (unknown code, duplicate, ...)."""


class BadOptions(EngineError):
    """Game options or the player count are not allowed for this game."""
