"""The exit codes of ``pyramid-bot``, one per thing the operator must do differently.

Service managers and scripts see only the number; the README's table repeats it."""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    OK = 0
    #: An operator command (backup, restore, health) did not succeed; it said why.
    FAILED = 1
    #: A setting is missing or invalid (shards for another process included), or Discord refused the token.
    SETTINGS = 2
    #: The database was migrated by a newer bot.
    SCHEMA = 3
    #: Discord (or PYRAMID_API_BASE_URL) could not be reached.
    UNREACHABLE = 4
    #: The database file is damaged: restore a backup.
    DATABASE_DAMAGED = 5
    #: The database cannot be opened or written (path, permissions, disk), or is being restored.
    DATABASE_UNAVAILABLE = 6
    #: The health and metrics endpoint cannot listen on PYRAMID_METRICS_HOST:PYRAMID_METRICS_PORT.
    METRICS_PORT = 7
    #: Another bot process is already running on this database (one database, one bot process).
    ALREADY_RUNNING = 8
    #: Discord's gateway session starts for the day are nearly spent (a restart loop?): wait for the reset.
    SESSION_STARTS = 9
