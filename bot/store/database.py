"""The one owner of the SQLite connections.

aiosqlite runs every statement on one worker thread, so two coroutines sharing a
connection could interleave statements inside each other's transactions. Writes
therefore go through an asyncio lock: a write is one ``BEGIN IMMEDIATE … COMMIT``
that nobody else can see half-done.

Reads use a second, read-only connection and no lock. In WAL mode a reader sees
only committed transactions and never waits for the writer, and every read here is
a single statement, so it is its own consistent snapshot. Under load this matters:
a dozen reads per move queueing on the writers' lock (each hand-over costs an event
loop turn) made clicks wait for each other.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path

import aiosqlite

from bot.store.migrate import migrate

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


class Database:
    def __init__(self, conn: aiosqlite.Connection, reader: aiosqlite.Connection, clock: Clock,
                 schema_version: int) -> None:
        self._conn = conn
        self._reader = reader
        self._lock = asyncio.Lock()
        self.clock = clock
        self.schema_version = schema_version

    @classmethod
    async def open(cls, path: str | Path, clock: Clock = utc_now) -> Database:
        path = Path(path)
        if path.parent and not path.parent.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
        async with contextlib.AsyncExitStack() as opened:  # closes what was opened if a later step fails
            conn = await aiosqlite.connect(path, isolation_level=None)
            opened.push_async_callback(conn.close)
            conn.row_factory = aiosqlite.Row
            for pragma in ("journal_mode=WAL", "foreign_keys=ON", "busy_timeout=5000", "synchronous=NORMAL"):
                await conn.execute(f"PRAGMA {pragma}")
            schema_version = await migrate(conn)
            reader = await aiosqlite.connect(path, isolation_level=None)
            opened.push_async_callback(reader.close)
            reader.row_factory = aiosqlite.Row
            for pragma in ("query_only=ON", "foreign_keys=ON", "busy_timeout=5000"):
                await reader.execute(f"PRAGMA {pragma}")
            opened.pop_all()  # both stay open: the Database owns them now
        return cls(conn, reader, clock, schema_version)

    async def close(self) -> None:
        async with self._lock:
            await self._reader.close()
            await self._conn.close()

    def now(self) -> str:
        return self.clock().astimezone(UTC).isoformat(timespec="seconds")

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """Every write happens in here; an exception rolls the whole block back."""
        async with self._lock:
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                await self._conn.rollback()
                raise
            else:
                await self._conn.commit()

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[aiosqlite.Connection]:
        """The read-only connection, for one statement: it sees committed data only."""
        yield self._reader
