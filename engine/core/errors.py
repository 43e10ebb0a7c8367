"""Errors a player can read.

Every rejection of a move is a :class:`MoveRejected`. Its message is a template
marked for translation with its arguments, as events are
(``IllegalMove(N_("You don't hold {tile}."), tile="R40")``): ``str(error)`` is the
English sentence, :meth:`EngineError.explain` the same in the reader's language. The
messages are written for people, not developers.
"""

from __future__ import annotations

from typing import Any

from engine.core.text import Gettext, Phrase


class EngineError(Exception):
    """Base of every error the engine raises on purpose.

    ``message`` is the English template (or a :class:`Phrase` made elsewhere, such as a
    rule's reason), ``args`` its named arguments. A message without arguments is
    used as it is, never formatted, so plain sentences may hold any character."""

    def __init__(self, message: str | Phrase = "", /, **args: object) -> None:
        if isinstance(message, Phrase):
            text = Phrase(message.template, {**message.args, **args})
        else:
            text = Phrase(message, args)
        self.text = text
        super().__init__(_english(text))

    def explain(self, gettext: Gettext | None = None) -> str:
        """The message in the reader's language (English without ``gettext``)."""
        if not self.text.args:
            return self.text.template if gettext is None else gettext(self.text.template)
        return self.text.fill((), gettext)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (to and from worker processes) with its template, not only the English.
        return (_rebuild, (type(self), self.text.template, dict(self.text.args)))


def _english(text: Phrase) -> str:
    return text.fill(()) if text.args else text.template


def _rebuild(cls: type[EngineError], template: str, args: dict[str, object]) -> EngineError:
    error = cls.__new__(cls)
    EngineError.__init__(error, template, **args)
    return error


class MoveRejected(EngineError):
    """A move was refused; the state it was tried on is unchanged."""

    @property
    def reason(self) -> str:
        """The English sentence (as ``str(error)``)."""
        return str(self)


class IllegalMove(MoveRejected):
    """The move breaks a rule (or is not a move at all)."""


class NotYourTurn(MoveRejected):
    """Someone other than the seat the game waits for tried to act."""


class GameOver(MoveRejected):
    """The game has already ended."""


class BadPosition(EngineError):
    """A position JSON or stored state cannot be loaded (unknown code, duplicate, ...).
    Its messages speak to whoever wrote the position (an operator, a test), so they
    stay English."""


class BadOptions(EngineError):
    """Game options or the player count are not allowed for this game."""
