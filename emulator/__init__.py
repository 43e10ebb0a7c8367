"""A local Discord API v10 emulator (REST + gateway) and a harness for end-to-end tests of a discord.py bot.

See ``harness.py`` for the test-facing API and ``limits.RULES`` for the enforced rules.
"""

from .errors import Violation
from .harness import BotFactory, BotHandle, Harness, InteractionNotAnswered, InteractionResult
from .interactions import BotNotConnected, CommandUnavailable, HarnessError
from .limits import RULES
from .model import Attachment, Channel, Guild, Message, Overwrite, Role, User
from .server import Emulator

__all__ = [
    "RULES",
    "Attachment",
    "BotFactory",
    "BotHandle",
    "BotNotConnected",
    "Channel",
    "CommandUnavailable",
    "Emulator",
    "Guild",
    "Harness",
    "HarnessError",
    "InteractionNotAnswered",
    "InteractionResult",
    "Message",
    "Overwrite",
    "Role",
    "User",
    "Violation",
]
