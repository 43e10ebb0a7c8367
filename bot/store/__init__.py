"""Persistence: a SQLite file (one bot process) or a PostgreSQL database (several), migrated at start-up."""

from bot.store.database import Clock, Database, utc_now
from bot.store.game_store import GameStore
from bot.store.lobbies import LobbyError
from bot.store.migrate import SchemaError
from bot.store.moves import DuplicateMove
from bot.store.records import (
    ChallengeRecord,
    CorruptRecord,
    GameRecord,
    GuildSettings,
    MessageRef,
    MoveRecord,
    SeatRecord,
)
from bot.store.sqlite import SqliteDatabase
from bot.store.target import DatabaseTarget, open_database

__all__ = [
    "ChallengeRecord",
    "Clock",
    "CorruptRecord",
    "Database",
    "DatabaseTarget",
    "DuplicateMove",
    "GameRecord",
    "GameStore",
    "GuildSettings",
    "LobbyError",
    "MessageRef",
    "MoveRecord",
    "SchemaError",
    "SeatRecord",
    "SqliteDatabase",
    "open_database",
    "utc_now",
]
