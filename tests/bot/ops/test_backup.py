"""Backups and restores on real SQLite files: online backups while the store writes,
the schedule on a clock the test moves, retention, and restores that check first."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.ops.backup import BackupError, backup_name, inspect_backup, list_backups, prune, take_backup
from bot.ops.restore import restore
from bot.ops.running import BotAlreadyRunning, DatabaseBusy, bot_running, no_bot_running
from bot.ops.schedule import RETRY_AFTER, BackupSchedule
from bot.store import GameStore, SqliteDatabase
from bot.store.migrate import bundled_migrations
from tests.bot.clock import FakeClock
from tests.bot.ops.helpers import count_games, damage_pages, make_database

START = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)


def moves_match_snapshots(path: Path) -> bool:
    """Every game's last move and its snapshot were written in one transaction: a torn
    copy would show a snapshot ahead of (or behind) the move log."""
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            "SELECT g.id, (SELECT MAX(seq) FROM moves m WHERE m.game_id = g.id), s.seq"
            " FROM games g LEFT JOIN snapshots s ON s.game_id = g.id"
        ).fetchall()
    return all(last == snap for _, last, snap in rows)


async def test_an_online_backup_is_consistent_while_the_store_writes(tmp_path: Path) -> None:
    database = tmp_path / "bot.db"
    ids = await make_database(database, games=10, moves=5)
    db = await SqliteDatabase.open(database)
    store = GameStore(db)
    writing = True

    async def keep_writing() -> int:
        seq = 5
        while writing:
            seq += 1
            for game_id in ids:
                await store.append_move(game_id, seq, 0, f"move {seq}", actor_id=3,
                                        snapshot={"board": ["tile"] * 40, "seq": seq})
        return seq

    writer = asyncio.create_task(keep_writing())
    try:
        await asyncio.sleep(0.05)
        taken = [await asyncio.to_thread(take_backup, database, tmp_path / f"b{n}.db") for n in range(3)]
    finally:
        writing = False
        last_seq = await writer
        await db.close()
    assert last_seq > 6, "the store kept writing during the backups"
    for backup in taken:
        assert backup.games == 10 and backup.schema_version == bundled_migrations()[-1].version
        assert moves_match_snapshots(backup.path)
        assert not Path(f"{backup.path}-wal").exists(), "a backup is one self-contained file"
        inspect_backup(backup.path, full=True)


def test_a_backup_of_nothing_says_so(tmp_path: Path) -> None:
    with pytest.raises(BackupError, match="no database"):
        take_backup(tmp_path / "missing.db", tmp_path / "b.db")
    assert not (tmp_path / "b.db").exists()


async def test_a_damaged_database_gives_no_backup(tmp_path: Path) -> None:
    database = tmp_path / "bot.db"
    await make_database(database)
    damage_pages(database)
    with pytest.raises(BackupError, match="damaged"):
        take_backup(database, tmp_path / "b.db")
    assert not (tmp_path / "b.db").exists() and not (tmp_path / "b.db.partial").exists()


def test_prune_keeps_the_newest_and_touches_nothing_else(tmp_path: Path) -> None:
    database = tmp_path / "bot.db"
    names = [backup_name(database, START + timedelta(days=n)) for n in range(5)]
    for name in names:
        (tmp_path / name).write_bytes(b"x")
    others = [tmp_path / "other-20261122T030000Z.db", tmp_path / "notes.txt", tmp_path / "bot-latest.db"]
    for other in others:
        other.write_bytes(b"x")
    gone = prune(database, tmp_path, keep=2)
    assert sorted(p.name for p in gone) == names[:3]
    assert [p.name for _, p in list_backups(database, tmp_path)] == names[3:]
    assert all(other.exists() for other in others)


async def test_the_schedule_follows_the_clock_and_keeps_the_newest(tmp_path: Path) -> None:
    database = tmp_path / "bot.db"
    await make_database(database, games=3, moves=2)
    folder = tmp_path / "backups"
    clock = FakeClock(START)
    schedule = BackupSchedule(database, folder, every=timedelta(hours=24), keep=3, clock=clock)
    assert schedule.last_success is None

    first = await schedule.tick()  # none yet: one at once
    assert first is not None and first.name == backup_name(database, START)
    assert await schedule.tick() is None
    clock.now += timedelta(hours=23, minutes=59)
    assert await schedule.tick() is None
    clock.now += timedelta(minutes=1)
    assert await schedule.tick() is not None
    for _ in range(4):
        clock.now += timedelta(days=1)
        assert await schedule.tick() is not None
    kept = list_backups(database, folder)
    assert [when for when, _ in kept] == [START + timedelta(days=d) for d in (3, 4, 5)]
    assert schedule.last_success == START + timedelta(days=5)
    assert all(count_games(path) == 3 for _, path in kept)

    # A restarted bot reads the schedule from the files: nothing is due yet.
    clock.now += timedelta(hours=1)
    again = BackupSchedule(database, folder, every=timedelta(hours=24), keep=3, clock=clock)
    assert again.last_success == START + timedelta(days=5)
    assert await again.tick() is None


async def test_a_failed_backup_is_logged_and_retried_later(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    database = tmp_path / "bot.db"
    clock = FakeClock(START)
    schedule = BackupSchedule(database, tmp_path / "backups", every=timedelta(hours=24), keep=3, clock=clock)
    with caplog.at_level(logging.ERROR):
        assert await schedule.tick() is None  # no database yet
    assert "automatic backup" in caplog.text and "no database" in caplog.text
    await make_database(database, games=1, moves=1)
    clock.now += RETRY_AFTER - timedelta(minutes=1)
    assert await schedule.tick() is None, "not retried on every poll"
    clock.now += timedelta(minutes=1)
    assert await schedule.tick() is not None


async def test_restore_puts_the_backup_in_place_and_keeps_the_old_file(tmp_path: Path) -> None:
    database = tmp_path / "bot.db"
    ids = await make_database(database, games=4, moves=3)
    backup = take_backup(database, tmp_path / "backups" / "bot-1.db").path
    db = await SqliteDatabase.open(database)  # more play after the backup, left in the -wal
    await GameStore(db).create_game("pyrinoes", guild_id=1, channel_id=2, options={}, seed=1, created_by=3)
    await db.close()
    database.write_bytes(b"damaged" * 1000)
    (tmp_path / "bot.db-wal").write_bytes(b"last moves")

    report = restore(backup, database, START)

    assert report.restored.games == 4
    aside = tmp_path / "bot.db.replaced-20261122T030000Z"
    assert report.kept_aside == [aside, Path(f"{aside}-wal")]
    assert aside.read_bytes().startswith(b"damaged") and Path(f"{aside}-wal").read_bytes() == b"last moves"
    assert not Path(f"{database}-wal").exists(), "no stale -wal may meet the restored file"
    db = await SqliteDatabase.open(database)
    try:
        assert [g.id for g in await GameStore(db).all_games()] == ids
    finally:
        await db.close()


async def test_restore_checks_the_backup_before_touching_anything(tmp_path: Path) -> None:
    database = tmp_path / "bot.db"
    await make_database(database, games=2, moves=1)
    before = database.read_bytes()
    broken = tmp_path / "broken.db"
    broken.write_bytes(b"not a database" * 100)
    with pytest.raises(BackupError, match="cannot be read"):
        restore(broken, database, START)
    foreign = tmp_path / "foreign.db"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE notes (t TEXT)")
    with pytest.raises(BackupError, match="not a Pyramid Bot database"):
        restore(foreign, database, START)
    future = take_backup(database, tmp_path / "future.db").path
    with sqlite3.connect(future) as conn:
        conn.execute("INSERT INTO schema_migrations (version, name) VALUES (999, 'from_the_future')")
    with pytest.raises(BackupError, match="newer than this bot understands"):
        restore(future, database, START)
    with pytest.raises(BackupError, match="no backup"):
        restore(tmp_path / "missing.db", database, START)
    assert database.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir() if "replaced" in p.name) == []


async def test_restore_refuses_while_a_bot_runs_on_the_database(tmp_path: Path) -> None:
    database = tmp_path / "bot.db"
    await make_database(database, games=2, moves=1)
    backup = take_backup(database, tmp_path / "b.db").path
    with bot_running(database), pytest.raises(DatabaseBusy, match="is running"):
        restore(backup, database, START)
    with bot_running(database), pytest.raises(BotAlreadyRunning, match="already running"), bot_running(database):
        pass  # one bot per database
    assert restore(backup, database, START).restored.games == 2  # once the bot is gone


def test_a_bot_cannot_start_in_the_middle_of_a_restore(tmp_path: Path) -> None:
    database = tmp_path / "bot.db"
    with no_bot_running(database), pytest.raises(DatabaseBusy, match="being restored"), bot_running(database):
        pass
    with bot_running(database):  # the restore is over
        pass
