"""``GameStore``: the game's stores in one object, as the bot's callers reach them.

Each concern of the game's rows has its own module and class (``Rows`` subclasses, each
usable alone on a database): games (``games.py``), lobbies (``lobbies.py``), seats
(``seats.py``), DM status (``dm_status.py``), the move log and snapshots (``moves.py``),
messages the bot edits (``messages.py``), server settings (``guild_settings.py``),
reminders (``reminders.py``), challenges (``challenges.py``) and blocked-board notices
(``notices.py``). ``GameStore`` is their composition and owns no SQL: its methods are
theirs, so the 400-odd callers (``store.game_record(...)``) stay as they were. The outbox
and the leases are stores of their own (``outbox.py``, ``leases.py``), reached as
``services.outbox`` and ``services.leases``, not through ``GameStore``.
"""

from __future__ import annotations

from bot.store.challenges import ChallengeRows
from bot.store.dm_status import DM_RETRY, DmRows
from bot.store.games import GameRows, NewGame
from bot.store.guild_settings import GuildSettingsRows
from bot.store.lobbies import AlreadyEntered, LobbyError, LobbyRows, TooManyOpenGames, insert_lobby
from bot.store.messages import MessageRows
from bot.store.moves import DuplicateMove, MoveRows
from bot.store.notices import NoticeRows
from bot.store.reminders import ReminderRows
from bot.store.seats import SeatRows

__all__ = ["DM_RETRY", "AlreadyEntered", "DuplicateMove", "GameStore", "LobbyError", "NewGame", "TooManyOpenGames",
           "insert_lobby"]


class GameStore(GameRows, LobbyRows, SeatRows, DmRows, MoveRows, MessageRows, GuildSettingsRows, ReminderRows,
                ChallengeRows, NoticeRows):
    """Every concern's rows through one object (``GameStore(db)``); it adds nothing of its own."""
