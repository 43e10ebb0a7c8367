"""SQLite transactions run on the event loop (``bot.store.loop_writes``) without ever holding
it up: waiting for another process's write lock is done on the loop's timer, a transaction
marked long runs its statements on a thread, a cancelled one is rolled back whole, and
checkpoints keep the write-ahead log from growing without end."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store.loop_writes import CHECKPOINT_EVERY
from bot.store.sqlite import SqliteDatabase


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[SqliteDatabase]:
    database = await SqliteDatabase.open(tmp_path / "bot.db")
    database.writer.conn.create_function("thread", 0, threading.get_ident)
    async with database.transaction() as conn:
        await conn.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v INTEGER NOT NULL)")
        await conn.execute("INSERT INTO t (k, v) VALUES (1, 0)")
    yield database
    await database.close()


async def ticking() -> tuple[asyncio.Task[None], list[int]]:
    ticks = [0]

    async def tick() -> None:
        while True:
            await asyncio.sleep(0.01)
            ticks[0] += 1

    return asyncio.create_task(tick()), ticks


async def test_a_short_transaction_runs_on_the_loop_and_a_long_one_on_a_thread(db: SqliteDatabase) -> None:
    loop_thread = threading.get_ident()
    async with db.transaction() as conn:
        short = await conn.fetch_one("SELECT thread()")
    async with db.transaction(long=True) as conn:
        long = await conn.fetch_one("SELECT thread()")
        await conn.execute("UPDATE t SET v = v + 1 WHERE k = 1")
    assert short is not None and short[0] == loop_thread
    assert long is not None and long[0] != loop_thread
    assert (await db.read_one("SELECT v FROM t WHERE k = 1"))[0] == 1  # type: ignore[index]


async def test_waiting_for_another_writer_lets_the_loop_run(db: SqliteDatabase) -> None:
    holder = sqlite3.connect(db.path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process's write, holding the lock
    ticker, ticks = await ticking()
    asyncio.get_running_loop().call_later(0.4, holder.execute, "COMMIT")
    try:
        async with db.transaction() as conn:
            await conn.execute("UPDATE t SET v = 7 WHERE k = 1")
    finally:
        ticker.cancel()
        holder.close()
    assert ticks[0] >= 10, "the loop went on while the write waited for the lock"
    assert (await db.read_one("SELECT v FROM t WHERE k = 1"))[0] == 7  # type: ignore[index]


async def test_a_lock_held_too_long_is_a_busy_error_and_changes_nothing(db: SqliteDatabase) -> None:
    holder = sqlite3.connect(db.path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(sqlite3.OperationalError, match="locked") as raised:
            await db.writer.begin(patience=0.2)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert raised.value.sqlite_errorcode & 0xFF == 5  # SQLITE_BUSY: told as "busy" (bot.store.faults)
    assert not db.writer.conn.in_transaction


async def test_a_cancelled_long_statement_finishes_and_its_transaction_is_rolled_back(db: SqliteDatabase) -> None:
    started = asyncio.Event()

    async def slow() -> None:
        async with db.transaction(long=True) as conn:
            await conn.execute("UPDATE t SET v = 99 WHERE k = 1")
            started.set()
            await conn.fetch_one("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000000)"
                                 " SELECT COUNT(*) FROM n")

    task = asyncio.create_task(slow())
    await started.wait()
    await asyncio.sleep(0.02)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert not db.writer.conn.in_transaction
    assert (await db.read_one("SELECT v FROM t WHERE k = 1"))[0] == 0  # type: ignore[index]
    async with db.transaction() as conn:  # the connection is whole and free
        await conn.execute("UPDATE t SET v = 5 WHERE k = 1")
    assert (await db.read_one("SELECT v FROM t WHERE k = 1"))[0] == 5  # type: ignore[index]


async def test_checkpoints_keep_the_log_from_growing_with_every_commit(db: SqliteDatabase) -> None:
    wal = Path(f"{db.path}-wal")
    sizes = []
    # Each round ends with the commit that starts a checkpoint, and the round waits for it: no commit
    # then races the checkpoint on its thread, however long a busy machine makes it.
    for _ in range(-db.writer.commits % CHECKPOINT_EVERY):
        async with db.transaction() as conn:
            await conn.execute("UPDATE t SET v = -1 WHERE k = 1")
    await db.checkpointed()
    for round_ in range(10):
        for n in range(CHECKPOINT_EVERY):
            async with db.transaction() as conn:
                await conn.execute("UPDATE t SET v = ? WHERE k = 1", (round_ * CHECKPOINT_EVERY + n,))
        await db.checkpointed()
        sizes.append(wal.stat().st_size)
    # Without checkpoints the log holds every commit's pages: ten rounds, ten times the first's.
    assert sizes[-1] <= 2 * sizes[0], sizes
