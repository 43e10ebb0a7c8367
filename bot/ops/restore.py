"""Putting a backup back in place of the database.

Order matters, because a restore is what an operator runs on a bad day: first check
the backup (full integrity check, a schema version this bot understands, and exactly
the tables, columns, indexes, triggers and views its migrations make) while nothing has
been touched; then make sure no bot is running on the database; copy the backup in
beside the database; only then move the old file (with its ``-wal`` and ``-shm``,
which may hold its last moves) aside under a dated name, and rename the copy into
place. Nothing is ever deleted: the replaced files stay for a post-mortem.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel

from bot.ops.backup import BackupError, BackupFile, copy_database, inspect_backup
from bot.ops.running import no_bot_running

#: SQLite's companions of a database file, moved aside together with it.
COMPANIONS = ("-wal", "-shm", "-journal")


class RestoreReport(BaseModel):
    restored: BackupFile
    database: Path
    #: The replaced database and its companion files, kept under a dated name.
    kept_aside: list[Path]


def restore(backup: Path, database: Path, now: datetime) -> RestoreReport:
    """Replace ``database`` by ``backup``; raises ``BackupError`` (the backup is unfit)
    or ``DatabaseBusy`` (a bot is running) before touching anything."""
    checked = inspect_backup(backup, full=True, schema=True)
    if backup.resolve() == database.resolve():
        raise BackupError(f"{backup} is the database itself; name a backup file.")
    with no_bot_running(database):
        incoming = database.with_name(database.name + ".restoring")
        try:
            copy_database(backup, incoming)
            inspect_backup(incoming, full=False, schema=True)  # what lands is what was checked
            kept = _move_aside(database, now)
            os.replace(incoming, database)
        finally:
            incoming.unlink(missing_ok=True)
    return RestoreReport(restored=checked, database=database, kept_aside=kept)


def _move_aside(database: Path, now: datetime) -> list[Path]:
    stamp = now.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    aside = database.with_name(f"{database.name}.replaced-{stamp}")
    moved: list[Path] = []
    # The companions keep their suffix after the new name, so SQLite still pairs them with it.
    for source, target in [(database, aside)] + [
        (database.with_name(database.name + suffix), aside.with_name(aside.name + suffix)) for suffix in COMPANIONS
    ]:
        if source.exists():
            os.replace(source, target)
            moved.append(target)
    return moved
