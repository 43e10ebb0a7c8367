"""Where the bot's log lines go and what they look like.

discord.py's own ``setup_logging`` colours its lines with ANSI escapes whenever it
thinks it runs in Docker, terminal or not, so a log file, ``docker logs`` piped into
a file or a log collector fills with ``\\x1b[...m``. Here colour is for a person at a
terminal only: the stream must be a TTY (and ``NO_COLOR`` unset, the convention
terminals share).

discord.py also warns on every start that PyNaCl and davey are missing, so "voice
will NOT be supported". The bot never joins a voice channel, so these two lines say
nothing an operator can act on; :class:`WithoutVoiceWarnings` drops them, and only
them.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import TextIO

import discord

#: What discord.py's voice warnings say, whichever library they name.
VOICE_WARNING = "voice will NOT be supported"
#: The plain format, as discord.py writes it without colour.
PLAIN_FORMAT = "[{asctime}] [{levelname:<8}] {name}: {message}"
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"


class WithoutVoiceWarnings(logging.Filter):
    """Drops discord.py's "PyNaCl/davey is not installed, voice will NOT be supported"."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.name.startswith("discord") and VOICE_WARNING in record.getMessage())


def wants_colour(stream: TextIO) -> bool:
    """Colour only for a terminal a person reads, unless they asked for none (``NO_COLOR``)."""
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(callable(isatty) and isatty())


def setup_logging(level: str, stream: TextIO | None = None) -> logging.Handler:
    """Log at ``level`` to ``stream`` (stderr) from the root logger: coloured on a
    terminal, plain text otherwise, without the voice warnings. Returns the handler."""
    stream = stream if stream is not None else sys.stderr
    handler = logging.StreamHandler(stream)
    handler.addFilter(WithoutVoiceWarnings())
    numeric = logging.getLevelName(level)
    if wants_colour(stream):
        discord.utils.setup_logging(handler=handler, level=numeric)
    else:
        formatter = logging.Formatter(PLAIN_FORMAT, DATE_FORMAT, style="{")
        discord.utils.setup_logging(handler=handler, formatter=formatter, level=numeric)
    return handler
