"""Persistence: one SQLite file, migrated at start-up, owned by one connection."""

from bot.store.database import Clock, Database, utc_now
from bot.store.game_store import DuplicateMove, GameStore, LobbyError
from bot.store.migrate import SchemaError, migrate
from bot.store.records import (
    ChallengeRecord,
    CorruptRecord,
    GameRecord,
    GuildSettings,
    MessageRef,
    MoveRecord,
    SeatRecord,
)

__all__ = [
    "ChallengeRecord",
    "Clock",
    "CorruptRecord",
    "Database",
    "DuplicateMove",
    "GameRecord",
    "GameStore",
    "GuildSettings",
    "LobbyError",
    "MessageRef",
    "MoveRecord",
    "SchemaError",
    "SeatRecord",
    "migrate",
    "utc_now",
]
