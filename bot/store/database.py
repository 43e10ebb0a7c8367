"""The one owner of the SQLite connection.

aiosqlite runs every statement on one worker thread, so two coroutines sharing a
connection could interleave statements inside each other's transactions. All access
goes through an asyncio lock instead: a write is one ``BEGIN IMMEDIATE … COMMIT``
that nobody else can see half-done.
"""

from __future__ import annotations

import asyncio
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
    def __init__(self, conn: aiosqlite.Connection, clock: Clock) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()
        self.clock = clock
        self.schema_version = 0

    @classmethod
    async def open(cls, path: str | Path, clock: Clock = utc_now) -> Database:
        path = Path(path)
        if path.parent and not path.parent.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            conn.row_factory = aiosqlite.Row
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute("PRAGMA foreign_keys=ON")
            await conn.execute("PRAGMA busy_timeout=5000")
            await conn.execute("PRAGMA synchronous=NORMAL")
            db = cls(conn, clock)
            db.schema_version = await migrate(conn)
        except BaseException:
            await conn.close()
            raise
        return db

    async def close(self) -> None:
        async with self._lock:
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
        """Reads take the lock too, so they never see another coroutine's open transaction."""
        async with self._lock:
            yield self._conn
