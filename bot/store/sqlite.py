"""The embedded backend: one SQLite file, owned by one bot process.

Writes go through an asyncio lock: a write is one ``BEGIN IMMEDIATE … COMMIT`` that
nobody else can see half-done, run on the event loop by ``bot.store.loop_writes`` (which
says why, and how it never holds the loop up).

Reads use read-only connections of their own and no lock. In WAL mode a reader sees
only committed transactions and never waits for the writer, and every read here is
a single statement, so it is its own consistent snapshot. Under load this matters:
a dozen reads per move queueing on the writers' lock (each hand-over costs an event
loop turn) made clicks wait for each other. A read is tried on the event loop first
(``bot.store.loop_reads``: no thread hand-off for a point read) and goes to the
read-only connection's thread (aiosqlite) when it would wait or run long.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.database import (
    Clock,
    Conflict,
    Database,
    DatabaseDamaged,
    DatabaseUnavailable,
    Dialect,
    Row,
    RowCache,
    Tx,
    utc_now,
)
from bot.store.loop_reads import LoopReader
from bot.store.loop_writes import LoopWriter
from bot.store.migrate import Migration, SchemaError, bundled_migrations, check_version

log = logging.getLogger(__name__)

#: SQLite's primary result codes (https://sqlite.org/rescode.html) that say the file is bad...
_DAMAGED_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB
#: ... and those that say the file cannot be reached or written.
_UNAVAILABLE_CODES = {3, 8, 10, 13, 14, 23}  # PERM, READONLY, IOERR, FULL, CANTOPEN, AUTH
#: Extended codes of a broken PRIMARY KEY or UNIQUE rule.
_UNIQUE_CODES = {1555, 2067}  # SQLITE_CONSTRAINT_PRIMARYKEY, SQLITE_CONSTRAINT_UNIQUE


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


def integrity_pragma(*, full: bool) -> str:
    return "PRAGMA integrity_check" if full else "PRAGMA quick_check"


def integrity_problems(rows: list[str]) -> str:
    """The first few problems SQLite's check reported, in one line; empty when it said "ok"."""
    if rows == ["ok"]:
        return ""
    lines = [line for row in rows for line in row.splitlines() if line and not line.startswith("***")]
    return "; ".join(lines[:3]) + (f"; and {len(lines) - 3} more" if len(lines) > 3 else "")


async def check_integrity(conn: aiosqlite.Connection, path: Path, *, full: bool = False) -> None:
    """Raise :class:`DatabaseDamaged` unless SQLite's own check finds nothing wrong.

    ``quick_check`` reads every page once (seconds even for a large file), which is
    enough to catch a truncated or overwritten file before the bot builds games on
    it; ``integrity_check`` also cross-checks every index, for restores."""
    async with conn.execute(integrity_pragma(full=full)) as cur:
        problems = integrity_problems([str(row[0]) for row in await cur.fetchall()])
    if problems:
        raise DatabaseDamaged(path, f"integrity check: {problems}")


async def cap_size(conn: aiosqlite.Connection, max_bytes: int) -> int:
    """Let writes through ``conn`` grow the file to at most ``max_bytes`` (SQLite's
    ``max_page_count``, which holds per connection); returns the pages allowed.

    A write that would need a page beyond it fails as on a full disk (SQLITE_FULL):
    its transaction is rolled back and the player is told the storage is full
    (``bot.store.faults``). Pages freed inside the file (rows deleted) are used again
    first. SQLite never caps a file below its current size: a larger file just cannot
    grow any further."""
    async with conn.execute("PRAGMA page_size") as cur:
        row = await cur.fetchone()
    page_size = int(row[0]) if row else 4096
    async with conn.execute(f"PRAGMA max_page_count = {max(1, max_bytes // page_size)}") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


def _try_open(path: Path) -> None:
    sqlite3.connect(path).close()


class SqliteTx(Tx):
    """The statements of one transaction, on the loop writer's connection: on the event
    loop, or each on a thread when the transaction is long (``bot.store.loop_writes``)."""

    def __init__(self, writer: LoopWriter, rows: RowCache | None = None, *, long: bool = False) -> None:
        self._writer = writer
        self._rows = rows
        self.long = long
        #: Cached tables its statements wrote (their rows are forgotten again at the end).
        self.touched: set[str] = set()

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        if self._rows is not None:
            self.touched |= self._rows.touched(sql)
        conn, values = self._writer.conn, tuple(params)
        with _conflicts():
            return await self._writer.run(lambda: max(conn.execute(sql, values).rowcount, 0), off_loop=self.long)

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        if self._rows is not None and sql.lstrip()[:6].upper() != "SELECT":  # a write with RETURNING
            self.touched |= self._rows.touched(sql)
        conn, values = self._writer.conn, tuple(params)
        with _conflicts():
            return await self._writer.run(lambda: list(conn.execute(sql, values).fetchall()), off_loop=self.long)


@contextlib.contextmanager
def _conflicts() -> Iterator[None]:
    """A broken uniqueness rule raised as :class:`Conflict`."""
    try:
        yield
    except sqlite3.IntegrityError as exc:
        if getattr(exc, "sqlite_errorcode", None) in _UNIQUE_CODES:
            raise Conflict(str(exc)) from exc
        raise


class SqliteDatabase(Database):
    dialect: Dialect = "sqlite"
    unreachable = (sqlite3.Error, ValueError)  # ValueError: the connection was closed

    def __init__(self, conn: aiosqlite.Connection, reader: aiosqlite.Connection, clock: Clock,
                 schema_version: int, path: Path, writer: LoopWriter, quick: LoopReader | None = None) -> None:
        """``conn``: the set-up's connection, which now only runs checkpoints on its thread;
        ``writer``: every transaction's (``bot.store.loop_writes``); ``quick``: reads tried
        on the event loop first (``bot.store.loop_reads``), else on ``reader``'s thread."""
        super().__init__(clock, schema_version)
        self._conn = conn
        self._reader = reader
        self.writer = writer
        self.quick = quick
        self._lock = asyncio.Lock()
        self._checkpoint: asyncio.Task[None] | None = None
        self.path = path

    @classmethod
    async def open(cls, path: str | Path, clock: Clock = utc_now,
                   migrations: list[Migration] | None = None, *, max_bytes: int | None = None) -> SqliteDatabase:
        """Open (creating and migrating) the database, after SQLite's quick check.
        ``max_bytes`` (``PYRAMID_SQLITE_MAX_MB``) caps how large the bot's writes may
        make the file (:func:`cap_size`).

        A file that is damaged or cannot be reached raises :class:`DatabaseDamaged` or
        :class:`DatabaseUnavailable`, so the bot can tell its operator what to do
        instead of dying with a traceback, or worse, running on a broken file."""
        path = Path(path)
        try:
            return await cls._open(path, clock, migrations, max_bytes)
        except sqlite3.Error as exc:
            operator_facing = classify(path, exc)
            if operator_facing is exc:
                raise
            raise operator_facing from exc

    @classmethod
    async def _open(cls, path: Path, clock: Clock, migrations: list[Migration] | None,
                    max_bytes: int | None) -> SqliteDatabase:
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
            max_pages = await cap_size(conn, max_bytes) if max_bytes is not None else None
            schema_version = await migrate_sqlite(conn, migrations)
            reader = await aiosqlite.connect(path, isolation_level=None)
            opened.push_async_callback(reader.close)
            reader.row_factory = aiosqlite.Row
            for pragma in ("query_only=ON", "foreign_keys=ON", "busy_timeout=5000"):
                await reader.execute(f"PRAGMA {pragma}")
            quick = LoopReader(path)
            opened.callback(quick.close)
            writer = LoopWriter(path, max_pages=max_pages)
            opened.callback(writer.close)
            opened.pop_all()  # all stay open: the Database owns them now
        return cls(conn, reader, clock, schema_version, path, writer, quick)

    def describe(self) -> str:
        return str(self.path)

    async def checkpointed(self) -> None:
        """Wait for the checkpoint under way, if any: closing must not cut one short, and a
        test of the log's size must not race one on a busy machine."""
        if self._checkpoint is not None:
            await asyncio.wait([self._checkpoint])

    async def close(self) -> None:
        async with self._lock:
            await self.checkpointed()
            if self.quick is not None:
                self.quick.close()
            self.writer.close()
            await self._reader.close()
            await self._conn.close()

    @asynccontextmanager
    async def transaction(self, *, long: bool = False) -> AsyncIterator[Tx]:
        await asyncio.sleep(0)  # a turn for the others first: a loop of writes must not hold the loop (see read_all)
        async with self._lock:
            await self.writer.begin()
            tx = SqliteTx(self.writer, self.rows, long=long)
            try:
                yield tx
            except BaseException:
                self.writer.rollback()
                raise
            else:
                if await self.writer.commit(off_loop=long):
                    self._checkpoint_soon()
            finally:
                self.rows.forget(tx.touched)

    def _checkpoint_soon(self) -> None:
        """A passive checkpoint on the set-up connection's thread (it waits for nobody, and
        its syncing holds up no click); one at a time."""
        if self._checkpoint is None or self._checkpoint.done():
            self._checkpoint = asyncio.get_running_loop().create_task(self._run_checkpoint())

    async def _run_checkpoint(self) -> None:
        try:
            await self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error as exc:  # the next one tries again; a commit never fails for it
            log.warning("SQLite checkpoint failed: %s", exc)

    async def read_one(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        rows = await self.read_all(sql, params)
        return rows[0] if rows else None

    async def read_all(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        params = tuple(params)
        # Every read lets the loop turn, as a trip to the thread did: code that reads in a loop
        # (a sweep over every game) must not hold up the clicks that come meanwhile.
        await asyncio.sleep(0)
        if self.quick is not None:
            rows = self.quick.read_all(sql, params)
            if rows is not None:
                return list(rows)
        return list(await self._reader.execute_fetchall(sql, params))


async def _current_version(conn: aiosqlite.Connection) -> int:
    await conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)"
    )
    async with conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


async def migrate_sqlite(conn: aiosqlite.Connection, migrations: list[Migration] | None = None) -> int:
    """Bring the schema up to date; returns the version now in force. Each file runs in
    its own transaction together with the row that records it, so a crash
    mid-migration leaves the previous version intact."""
    todo = bundled_migrations("sqlite") if migrations is None else migrations
    version = check_version(await _current_version(conn), todo)
    for migration in todo:
        if migration.version <= version:
            continue
        script = (
            "BEGIN;\n"
            + migration.sql
            + f"\nINSERT INTO schema_migrations (version, name) VALUES ({migration.version}, '{migration.name}');"
            + "\nCOMMIT;"
        )
        try:
            await conn.executescript(script)
        except Exception:
            if conn.in_transaction:
                await conn.rollback()
            raise
        version = migration.version
    return version


__all__ = ["SchemaError", "SqliteDatabase", "SqliteTx", "check_integrity", "classify", "migrate_sqlite"]
