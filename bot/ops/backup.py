"""Backups of the SQLite database, taken while the bot runs.

Copying the file is not a backup: in WAL mode the latest moves may still be in
``-wal`` and a copy taken mid-write can be torn. SQLite's backup API instead reads
every page inside one read transaction (``pages=-1``: a single step), so the copy is
the database exactly as of one commit, while the bot's writer carries on.

Each backup is a self-contained file (rollback journal, not WAL), checked with
``quick_check`` before it is renamed into place, so a file that carries a backup's
name is a whole, sound backup. Names carry the UTC time they were taken
(``pyramid-bot-20261122T120000Z.db``), which is all the schedule needs to know.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel

from bot.ops.schema_check import schema_differences
from bot.store.migrate import bundled_migrations
from bot.store.sqlite import integrity_pragma, integrity_problems

_STAMP = "%Y%m%dT%H%M%SZ"


class BackupError(Exception):
    """A backup could not be taken or is not fit to restore; the message says why."""


class BackupFile(BaseModel):
    """What a backup holds, as checked before it is trusted."""

    path: Path
    schema_version: int
    games: int
    size_bytes: int


def backup_name(database: Path, when: datetime) -> str:
    """``<database stem>-<UTC time>.db``: sorts by time, and says which database it is of."""
    return f"{database.stem}-{when.astimezone(UTC).strftime(_STAMP)}.db"


def taken_at(database: Path, candidate: Path) -> datetime | None:
    """When a file in the backup folder was taken, or None if it is not one of ``database``'s backups."""
    match = re.fullmatch(re.escape(database.stem) + r"-(\d{8}T\d{6}Z)\.db", candidate.name)
    if match is None:
        return None
    return datetime.strptime(match.group(1), _STAMP).replace(tzinfo=UTC)


def list_backups(database: Path, folder: Path) -> list[tuple[datetime, Path]]:
    """The backups of ``database`` in ``folder``, oldest first."""
    if not folder.is_dir():
        return []
    found = [(when, path) for path in folder.iterdir() if (when := taken_at(database, path)) is not None]
    return sorted(found)


def newest_backup(database: Path, folder: Path) -> Path | None:
    backups = list_backups(database, folder)
    return backups[-1][1] if backups else None


def prune(database: Path, folder: Path, keep: int) -> list[Path]:
    """Delete all but the ``keep`` newest backups of ``database`` in ``folder``; returns what went."""
    doomed = [path for _, path in list_backups(database, folder)[:-keep]] if keep > 0 else []
    for path in doomed:
        path.unlink(missing_ok=True)
    return doomed


def take_backup(database: Path, target: Path) -> BackupFile:
    """Copy ``database`` to ``target`` through SQLite's online backup API.

    Safe while the bot is running and writing. The copy is written beside ``target``
    and renamed into place only once it passes ``quick_check``."""
    if not database.is_file():
        raise BackupError(f"There is no database at {database} to back up (check PYRAMID_DATABASE).")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        with _connect(database) as source, _connect(partial) as copy:
            source.execute("PRAGMA busy_timeout=10000")
            source.backup(copy)  # pages=-1: every page in one step, one read transaction
            copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
            problems = _check(copy, full=False)
        if problems:
            raise BackupError(f"The database {database} is damaged, so its backup would be too ({problems}).")
        _fsync(partial)
        os.replace(partial, target)
        _fsync_folder(target.parent)
    except sqlite3.Error as exc:
        raise BackupError(f"Could not back up {database} to {target}: {exc}.") from exc
    finally:
        partial.unlink(missing_ok=True)
    return inspect_backup(target, full=False)


def inspect_backup(path: Path, *, full: bool = True, schema: bool = False) -> BackupFile:
    """Check a backup before trusting it: SQLite's integrity check (the full one by
    default), a Pyramid Bot schema, and a schema version this bot understands; with
    ``schema``, also that its schema is exactly the one the migrations make for that
    version (``bot.ops.schema_check``: before a restore)."""
    if not path.is_file():
        raise BackupError(f"There is no backup at {path}.")
    latest = bundled_migrations()[-1].version
    try:
        with _connect(path) as conn:
            problems = _check(conn, full=full)
            if problems:
                raise BackupError(f"The backup {path} is damaged ({problems}).")
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not {"schema_migrations", "games"} <= tables:
                raise BackupError(f"{path} is an SQLite file but not a Pyramid Bot database.")
            version = int(conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").fetchone()[0])
            if version > latest:
                raise BackupError(
                    f"The backup {path} is at schema version {version}, newer than this bot understands ({latest}):"
                    " upgrade Pyramid Bot before restoring it."
                )
            if schema:
                differences = schema_differences(conn, version)
                if differences:
                    raise BackupError(f"The backup {path} does not have the schema the migrations make for its "
                                      f"version {version}: {'; '.join(differences[:5])}"
                                      + (f"; and {len(differences) - 5} more" if len(differences) > 5 else "")
                                      + ".")
            games = int(conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.Error as exc:
        raise BackupError(f"The backup {path} cannot be read as a database ({exc}).") from exc
    return BackupFile(path=path, schema_version=version, games=games, size_bytes=path.stat().st_size)


def copy_database(source: Path, target: Path) -> None:
    """Write ``source`` (a checked backup) to ``target`` as one self-contained file, synced to disk."""
    target.unlink(missing_ok=True)
    with _connect(source) as src, _connect(target) as dst:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")
    _fsync(target)


@contextlib.contextmanager
def _connect(path: Path) -> Iterator[sqlite3.Connection]:
    """A plain connection: read-only ones cannot fold a ``-wal`` file in, and a backup
    someone copied by hand may come with one. Nothing here writes to a source."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        yield conn
    finally:
        conn.close()


def _check(conn: sqlite3.Connection, *, full: bool) -> str:
    return integrity_problems([str(row[0]) for row in conn.execute(integrity_pragma(full=full))])


def _fsync(path: Path) -> None:
    with path.open("rb+") as f:
        os.fsync(f.fileno())


def _fsync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (POSIX); a no-op where folders cannot be opened."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
