"""What cannot be done in a game, in words a player can read.

A :class:`PlayError` carries its message as a translatable template and its named
arguments (:class:`engine.core.text.Phrase`), as the engine's errors do:
``PlayError(N_("There is no game #{number} here."), number=7)``. ``str(error)`` is the
English sentence; :meth:`PlayError.explain` (or ``error.text.fill((), gettext)``) the
same in the reader's language. A message already written in the reader's language
(or an engine error's :class:`Phrase`) may be given as it is.
"""

from __future__ import annotations

from engine.core.text import Gettext, Phrase, Word
from i18n import N_

#: The template of a message given without arguments: the message is an argument, so
#: a sentence holding braces (a player's name) is never taken for a template.
_AS_IS = "{message}"


class PlayError(Exception):
    """A move or action that can't be made; the message is shown to the player."""

    def __init__(self, message: str | Phrase = "", /, **args: object) -> None:
        if isinstance(message, Phrase) and (message.args or args):
            text = Phrase(message.template, {**message.args, **args}, message.players)
        elif isinstance(message, Phrase):  # a sentence without fields: never formatted
            text = Phrase(_AS_IS, {"message": Word(message.template)})
        elif args:
            text = Phrase(message, args)
        else:
            text = Phrase(_AS_IS, {"message": Word(message)})
        self.text = text
        super().__init__(text.fill(()))

    def explain(self, gettext: Gettext | None = None) -> str:
        """The message in the reader's language (English without ``gettext``)."""
        return self.text.fill((), gettext)


class StaleBoard(PlayError):
    """The player acted on a board that has since changed."""

    def __init__(self, current_version: int) -> None:
        super().__init__(N_("This board is out of date: someone has moved since. Here is the current one."))
        self.current_version = current_version


#: What a player who resigned hears when they try to act in the game they left.
RESIGNED = N_("You left this game; an AI plays your seat now.")
#: ... and one whose seat went to an AI when they timed out.
REPLACED = N_("An AI is playing your seat now: you timed out.")


class OutOfTime(PlayError):
    """A move made after the mover's time bank ran out: it is not played, and the
    timeout is applied at that moment, as the sweep would have (``action``: what it did,
    "ai" or "forfeit"; None when nothing was left to do or no one applies timeouts)."""

    def __init__(self, action: str | None) -> None:
        if action == "forfeit":
            super().__init__(N_("Your time bank ran out before this move, so it was not played: you timed out "
                                "and forfeit this game."))
        elif action == "ai":
            super().__init__(N_("Your time bank ran out before this move, so it was not played: you timed out, "
                                "and an AI plays your seat now."))
        else:
            super().__init__(N_("Your time bank ran out before this move, so it was not played: you timed out."))
        self.action = action
