"""What to tell the operator when the database cannot be used: what is wrong, and
the commands that fix it, with the real paths filled in."""

from __future__ import annotations

from typing import TextIO

from bot.config.settings import OperatorSettings
from bot.ops.backup import newest_backup
from bot.ops.exit_codes import ExitCode
from bot.store.database import DatabaseDamaged, DatabaseUnavailable
from bot.store.migrate import SchemaError


def damaged(exc: DatabaseDamaged, settings: OperatorSettings) -> str:
    folder = settings.backup_folder
    newest = newest_backup(settings.database_path, folder)
    said = f"{exc} Pyramid Bot did not start, so it wrote nothing more to it."
    if newest is not None:
        return (
            f"{said} To put the newest backup back, stop any bot still using the database and run:"
            f" pyramid-bot restore {newest} (the backups are in {folder}; the damaged file is kept aside, and"
            " `pyramid-bot restore` checks the backup first)."
        )
    return (
        f"{said} No backup of it was found in {folder} (PYRAMID_BACKUP_DIR). If you have one elsewhere, run:"
        " pyramid-bot restore BACKUP_FILE. Otherwise move the damaged file away, and the bot starts on an empty"
        " database."
    )


def unavailable(exc: DatabaseUnavailable, settings: OperatorSettings) -> str:
    if settings.database.shared:
        return (
            f"{exc} Check that the PostgreSQL server in PYRAMID_DATABASE is running and reachable from here, and"
            " that the user, password and database name in the URL are right (the database must exist)."
        )
    return (
        f"{exc} Check that PYRAMID_DATABASE names a file in a folder that the bot's user can write to,"
        " and that the disk is not full."
    )


#: What an operator command tells, and the exit code it ends with, when it cannot use the database.
DatabaseTrouble = SchemaError | DatabaseDamaged | DatabaseUnavailable


def database_trouble(exc: DatabaseTrouble, err: TextIO, *, then: str) -> ExitCode:
    """Say why an operator command could not use the database (and, for a damaged one,
    to restore a backup and ``then`` run it again); the exit code for it."""
    if isinstance(exc, SchemaError):
        print(exc, file=err)
        return ExitCode.SCHEMA
    if isinstance(exc, DatabaseDamaged):
        print(f"{exc} Restore a backup of it (pyramid-bot restore), then {then}.", file=err)
        return ExitCode.DATABASE_DAMAGED
    print(exc, file=err)
    return ExitCode.DATABASE_UNAVAILABLE
