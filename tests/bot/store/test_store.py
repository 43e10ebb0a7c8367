"""The store against real SQLite files and a real PostgreSQL database."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from bot.store import CorruptRecord, DatabaseTarget, DuplicateMove, GameStore, LobbyError, SchemaError, SqliteDatabase
from bot.store.migrate import Migration, bundled_migrations
from bot.store.sqlite import migrate_sqlite as migrate


async def pyrinoes_game(store: GameStore) -> int:
    """A lobby row, nothing more: what most of these tests write moves into."""
    return await store.create_game("pyrinoes", guild_id=1, channel_id=2, options={}, seed=5, created_by=3)


async def test_migrates_an_empty_database(store: GameStore) -> None:
    assert store.db.schema_version == bundled_migrations(store.db.dialect)[-1].version
    row = await store.db.read_one("SELECT COUNT(*), MAX(version) FROM schema_migrations")
    assert row is not None and tuple(row) == (len(bundled_migrations()), bundled_migrations()[-1].version)


async def test_sqlite_runs_in_wal_mode_with_foreign_keys(tmp_path: Path) -> None:
    db = await SqliteDatabase.open(tmp_path / "bot.db")
    try:
        journal = await db.read_one("PRAGMA journal_mode")
        keys = await db.read_one("PRAGMA foreign_keys")
        assert journal is not None and journal[0] == "wal"
        assert keys is not None and keys[0] == 1
    finally:
        await db.close()


def test_both_dialects_have_every_migration() -> None:
    """One numbered sequence: a dialect's own file replaces the shared one, never adds or skips a version."""
    sqlite, postgresql = bundled_migrations("sqlite"), bundled_migrations("postgresql")
    assert [(m.version, m.name) for m in sqlite] == [(m.version, m.name) for m in postgresql]


async def test_reopening_applies_nothing_twice(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    db = await SqliteDatabase.open(path)
    game_id = await pyrinoes_game(GameStore(db))
    await db.close()
    db = await SqliteDatabase.open(path)
    try:
        game = await GameStore(db).game_record(game_id)
        assert game is not None and game.kind == "pyrinoes"
        row = await db.read_one("SELECT COUNT(*) FROM schema_migrations")
        assert row is not None and row[0] == len(bundled_migrations())
    finally:
        await db.close()


async def test_refuses_a_newer_schema(database_target: DatabaseTarget) -> None:
    db = await database_target.open()
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO schema_migrations (version, name) VALUES (999, 'from_the_future')")
    await db.close()
    with pytest.raises(SchemaError, match="newer than this bot understands"):
        await database_target.open()


async def test_a_failing_migration_leaves_the_previous_version(tmp_path: Path) -> None:
    conn = await aiosqlite.connect(tmp_path / "x.db", isolation_level=None)
    try:
        good = Migration(1, "good", "CREATE TABLE a (x INTEGER);")
        bad = Migration(2, "bad", "CREATE TABLE b (x INTEGER); THIS IS NOT SQL;")
        with pytest.raises(aiosqlite.Error):
            await migrate(conn, [good, bad])
        assert await migrate(conn, [good]) == 1
        async with conn.execute("SELECT name FROM sqlite_master WHERE name = 'b'") as cur:
            assert await cur.fetchone() is None
    finally:
        await conn.close()


async def test_duplicate_move_number_is_rejected(store: GameStore) -> None:
    game_id = await pyrinoes_game(store)
    await store.append_move(game_id, 1, 0, "draw", actor_id=3)
    with pytest.raises(DuplicateMove):
        await store.append_move(game_id, 1, 1, "pass", actor_id=4)
    moves = await store.moves(game_id)
    assert [(m.seq, m.move) for m in moves] == [(1, "draw")]


async def test_racing_writers_of_the_same_move_produce_one_row(store: GameStore) -> None:
    game_id = await pyrinoes_game(store)

    async def attempt(move: str) -> bool:
        try:
            await store.append_move(game_id, 1, 0, move, actor_id=3)
        except DuplicateMove:
            return False
        return True

    wins = await asyncio.gather(*(attempt(f"m{i}") for i in range(10)))
    assert sum(wins) == 1
    assert len(await store.moves(game_id)) == 1


async def test_failed_transaction_writes_nothing(store: GameStore) -> None:
    game_id = await pyrinoes_game(store)
    with pytest.raises(RuntimeError):
        async with store.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO moves (game_id, seq, seat, move, created_at) VALUES (?, 1, 0, 'x', 'now')",
                (game_id,),
            )
            raise RuntimeError("boom")
    assert await store.moves(game_id) == []


async def test_reads_neither_wait_for_nor_see_an_open_write(store: GameStore) -> None:
    """Reads go to their own connection: a click reading a board never queues behind
    another game's write, and never sees half a transaction."""
    game_id = await pyrinoes_game(store)
    await store.append_move(game_id, 1, 0, "draw", actor_id=3)
    async with store.db.transaction() as conn:
        await conn.execute(
            "INSERT INTO moves (game_id, seq, seat, move, created_at) VALUES (?, 2, 1, 'pass', 'now')", (game_id,)
        )
        seen = await asyncio.wait_for(store.moves(game_id), timeout=2)  # the write lock is held right now
        assert [m.move for m in seen] == ["draw"]
    assert [m.move for m in await store.moves(game_id)] == ["draw", "pass"]
    with pytest.raises((aiosqlite.OperationalError, asyncpg.ReadOnlySQLTransactionError)):  # reads cannot write
        await store.db.read_all("DELETE FROM moves RETURNING seq")
    assert len(await store.moves(game_id)) == 2


async def test_lobby_seats(store: GameStore) -> None:
    game_id = await store.create_game("flaming-pyramids", guild_id=1, channel_id=2, options={}, seed=1,
                                      created_by=10)
    assert await store.add_seat(game_id, user_id=10, limit=3) == 0
    with pytest.raises(LobbyError, match="already in this game"):
        await store.add_seat(game_id, user_id=10, limit=3)
    assert await store.add_seat(game_id, ai_level="easy", limit=3) == 1
    assert await store.add_seat(game_id, user_id=11, limit=3) == 2
    with pytest.raises(LobbyError, match="full"):
        await store.add_seat(game_id, user_id=12, limit=3)
    await store.remove_seat(game_id, 1)
    seats = await store.seats(game_id)
    assert [(s.seat, s.user_id, s.ai_level) for s in seats] == [(0, 10, None), (1, 11, None)]
    assert await store.set_status(game_id, "active", expect="lobby")
    assert not await store.set_status(game_id, "active", expect="lobby")
    with pytest.raises(LobbyError, match="no longer taking players"):
        await store.add_seat(game_id, user_id=13, limit=6)


async def test_corrupt_rows_are_reported_not_crashed_on(store: GameStore) -> None:
    good = await pyrinoes_game(store)
    bad = await pyrinoes_game(store)
    async with store.db.transaction() as conn:
        await conn.execute("UPDATE games SET options = '{not json' WHERE id = ?", (bad,))
    with pytest.raises(CorruptRecord, match="damaged"):
        await store.game_record(bad)
    listed = await store.all_games()
    assert [g.id for g in listed] == [good]
    async with store.db.transaction() as conn:
        await conn.execute(
            "INSERT INTO moves (game_id, seq, seat, move, created_at) VALUES (?, 2, 0, 'x', 'now')", (good,)
        )
    with pytest.raises(CorruptRecord, match="gaps"):
        await store.moves(good)
