"""``pyramid-bot restore`` trusts a backup only when its schema is exactly what the
migrations make for its recorded version (#26): tables, columns, indexes, triggers and
views; its integrity check must pass too. Nothing is touched before."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.ops.backup import BackupError, take_backup
from bot.ops.restore import restore
from bot.store import SqliteDatabase
from bot.store.migrate import bundled_migrations
from tests.bot.ops.helpers import make_database

START = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
EDITS: dict[str, tuple[str, str]] = {
    "without the moves table": ("DROP TABLE moves", "table moves"),
    "with a trigger of its own": (
        "CREATE TRIGGER sneaky AFTER INSERT ON games BEGIN UPDATE games SET seed = 0; END", "trigger sneaky"),
    "with a view of its own": ("CREATE VIEW everything AS SELECT * FROM games", "view everything"),
    "with an index of its own": ("CREATE INDEX games_by_seed ON games (seed)", "index games_by_seed"),
    "with a column of its own": ("ALTER TABLE games ADD COLUMN note TEXT", "table games"),
    "with a table of its own": ("CREATE TABLE notes (t TEXT)", "table notes"),
    "with an index dropped": ("DROP INDEX IF EXISTS {index}", "index {index}"),
}


def an_index(path: Path) -> str:
    with sqlite3.connect(path) as conn:
        row = conn.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL "
                           "ORDER BY name LIMIT 1").fetchone()
    return str(row[0])


@pytest.fixture
async def world(tmp_path: Path) -> tuple[Path, Path]:
    database = tmp_path / "bot.db"
    await make_database(database, games=2, moves=2)
    return database, take_backup(database, tmp_path / "backup.db").path


@pytest.mark.parametrize("edit", list(EDITS))
async def test_a_backup_whose_schema_differs_is_refused(world: tuple[Path, Path], edit: str) -> None:
    database, backup = world
    index = an_index(backup)
    statement, named = (part.format(index=index) for part in EDITS[edit])
    with sqlite3.connect(backup) as conn:
        conn.execute(statement)
    before = database.read_bytes()
    with pytest.raises(BackupError) as refused:
        restore(backup, database, START)
    message = str(refused.value)
    assert "schema" in message and named in message and "\n" not in message
    assert database.read_bytes() == before


async def test_an_older_backup_is_checked_against_its_own_version(tmp_path: Path) -> None:
    older = bundled_migrations()[:8]
    database = tmp_path / "old.db"
    db = await SqliteDatabase.open(database, migrations=older)
    await db.close()
    backup = take_backup(database, tmp_path / "old-backup.db").path
    assert restore(backup, tmp_path / "bot.db", START).restored.schema_version == 8
    with sqlite3.connect(backup) as conn:
        conn.execute("UPDATE schema_migrations SET version = 9 WHERE version = 8")
    with pytest.raises(BackupError, match="schema"):
        restore(backup, tmp_path / "bot2.db", START)
