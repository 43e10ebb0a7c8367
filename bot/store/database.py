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
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.migrate import migrate

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


class DatabaseDamaged(Exception):
    """The file is not a sound SQLite database; the cure is restoring a backup."""

    def __init__(self, path: Path, detail: str) -> None:
        super().__init__(f"The database {path} is damaged ({detail}).")
        self.path = path
        self.detail = detail


class DatabaseUnavailable(Exception):
    """The database cannot be opened or written (path, permissions, disk); the file
    itself may be fine, so the cure is fixing the place, not restoring."""

    def __init__(self, path: Path, detail: str) -> None:
        super().__init__(f"Cannot open or write the database {path} ({detail}).")
        self.path = path
        self.detail = detail


#: SQLite's primary result codes (https://sqlite.org/rescode.html) that say the file is bad...
_DAMAGED_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB
#: ... and those that say the file cannot be reached or written.
_UNAVAILABLE_CODES = {3, 8, 10, 13, 14, 23}  # PERM, READONLY, IOERR, FULL, CANTOPEN, AUTH


def classify(path: Path, exc: sqlite3.Error) -> Exception:
    """The operator-facing exception for a SQLite error, or ``exc`` itself when it
    says nothing about the file (a bug in a query, say)."""
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    if primary in _DAMAGED_CODES:
        return DatabaseDamaged(path, str(exc))
    if primary in _UNAVAILABLE_CODES:
        return DatabaseUnavailable(path, str(exc))
    return exc


async def check_integrity(conn: aiosqlite.Connection, path: Path, *, full: bool = False) -> None:
    """Raise :class:`DatabaseDamaged` unless SQLite's own check finds nothing wrong.

    ``quick_check`` reads every page once (seconds even for a large file), which is
    enough to catch a truncated or overwritten file before the bot builds games on
    it; ``integrity_check`` also cross-checks every index, for restores."""
    async with conn.execute(integrity_pragma(full=full)) as cur:
        problems = integrity_problems([str(row[0]) for row in await cur.fetchall()])
    if problems:
        raise DatabaseDamaged(path, f"integrity check: {problems}")


def _try_open(path: Path) -> None:
    sqlite3.connect(path).close()


def integrity_pragma(*, full: bool) -> str:
    return "PRAGMA integrity_check" if full else "PRAGMA quick_check"


def integrity_problems(rows: list[str]) -> str:
    """The first few problems SQLite's check reported, in one line; empty when it said "ok"."""
    if rows == ["ok"]:
        return ""
    lines = [line for row in rows for line in row.splitlines() if line and not line.startswith("***")]
    return "; ".join(lines[:3]) + (f"; and {len(lines) - 3} more" if len(lines) > 3 else "")


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
        """Open (creating and migrating) the database, after SQLite's quick check.

        A file that is damaged or cannot be reached raises :class:`DatabaseDamaged` or
        :class:`DatabaseUnavailable`, so the bot can tell its operator what to do
        instead of dying with a traceback, or worse, running on a broken file."""
        path = Path(path)
        try:
            return await cls._open(path, clock)
        except sqlite3.Error as exc:
            operator_facing = classify(path, exc)
            if operator_facing is exc:
                raise
            raise operator_facing from exc

    @classmethod
    async def _open(cls, path: Path, clock: Clock) -> Database:
        if path.parent and not path.parent.exists():
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise DatabaseUnavailable(path, f"cannot create its folder: {exc.strerror or exc}") from exc
        # A path SQLite cannot open fails here, with the plain driver: when aiosqlite's own
        # connect fails it leaves its worker thread to report to an event loop that is gone.
        await asyncio.to_thread(_try_open, path)
        async with contextlib.AsyncExitStack() as opened:  # closes what was opened if a later step fails
            conn = await aiosqlite.connect(path, isolation_level=None)
            opened.push_async_callback(conn.close)
            conn.row_factory = aiosqlite.Row
            await conn.execute("PRAGMA busy_timeout=5000")
            await check_integrity(conn, path)
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

    async def answers(self) -> bool:
        """One read of the schema table: whether the database answers at all (health checks)."""
        return await self.read_one("SELECT MAX(version) FROM schema_migrations") is not None

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

    async def read_one(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row | None:
        """The first row one statement on the read-only connection returns (None: no row)."""
        async with self.reading() as conn, conn.execute(sql, tuple(params)) as cur:
            return await cur.fetchone()

    async def read_all(self, sql: str, params: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        """Every row one statement on the read-only connection returns."""
        async with self.reading() as conn, conn.execute(sql, tuple(params)) as cur:
            return list(await cur.fetchall())
