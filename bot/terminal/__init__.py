"""``pyramid-bot play``: a game in the terminal (:mod:`bot.terminal.game`), with moves
typed as the pictures letter them (:mod:`~bot.terminal.reading`), the table set from the
command line (:mod:`~bot.terminal.table`), its words (:mod:`~bot.terminal.words`), line
editing (:mod:`~bot.terminal.console`) and pictures (:mod:`~bot.terminal.pictures`)."""

from __future__ import annotations

from bot.terminal.game import main, play

__all__ = ["main", "play"]
