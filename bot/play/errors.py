"""What cannot be done in a game, in words a player can read."""

from __future__ import annotations


class PlayError(Exception):
    """A move or action that can't be made; the message is shown to the player."""


class StaleBoard(PlayError):
    """The player acted on a board that has since changed."""

    def __init__(self, current_version: int) -> None:
        super().__init__("This board is out of date: someone has moved since. Here is the current one.")
        self.current_version = current_version


#: What a player who resigned hears when they try to act in the game they left.
RESIGNED = "You left this game; an AI plays your seat now."
#: ... and one whose seat went to an AI when they timed out.
REPLACED = "An AI is playing your seat now: you timed out."
