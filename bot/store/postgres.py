"""The shared backend: PostgreSQL through asyncpg, for several bot processes.

Every process holds two small pools of connections. Reads take a read-only one:
each read is one statement, so READ COMMITTED gives it a consistent snapshot of
committed data, as SQLite's WAL reader does, and it cannot write by mistake. Write
transactions are serialized across all processes by one transaction-level advisory
lock, which is what SQLite's ``BEGIN IMMEDIATE`` gives the embedded backend: the
store's check-then-write code stays correct without retry loops, and a write never
waits long, since each is a few short statements. Within one process writers first
queue on an asyncio lock, so a burst of clicks holds one pooled connection, not all
of them.

The store writes ``?`` placeholders; they become asyncpg's ``$1, $2 …`` here.

Rows read on nearly every click and rarely written are kept in memory
(``Database.rows``); every process hears the others' writes to them on one more
connection (:meth:`PostgresDatabase.listen`).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import secrets
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.store.database import (
    Clock,
    Conflict,
    Database,
    DatabaseUnavailable,
    Dialect,
    Row,
    RowCache,
    Tx,
    utc_now,
)
from bot.store.migrate import Migration, bundled_migrations, check_version

#: Advisory lock keys (any fixed numbers, the same in every process).
WRITE_LOCK = 0x50594D01  # "PYM" 1: one writer at a time
MIGRATION_LOCK = 0x50594D02  # one process migrates, the others wait and find it done
#: The channel on which a write transaction names the kept rows it changed (``RowCache.SHARED``).
NOTICES = "pyramid_rows"

_PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|\?")


def dollar_params(sql: str) -> str:
    """``?`` placeholders as ``$1, $2 …`` (question marks inside string literals stay)."""
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        if match.group(0) != "?":
            return match.group(0)
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(number, sql)


def changed_rows(status: str) -> int:
    """Rows changed, from a command status such as ``UPDATE 2`` or ``INSERT 0 1``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def redacted(url: str) -> str:
    """The URL without its password, for logs and messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


class PostgresTx(Tx):
    def __init__(self, conn: asyncpg.Connection | PoolConnectionProxy, rows: RowCache | None = None) -> None:
        self._conn = conn
        self._rows = rows
        #: Kept names whose tables its statements wrote (forgotten again at the end).
        self.touched: set[str] = set()

    def _wrote(self, sql: str) -> None:
        if self._rows is not None and sql.lstrip()[:6].upper() != "SELECT":
            self.touched |= self._rows.touched(sql)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        self._wrote(sql)
        try:
            status = await self._conn.execute(dollar_params(sql), *params)
        except asyncpg.UniqueViolationError as exc:
            raise Conflict(str(exc)) from exc
        return changed_rows(status)

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        self._wrote(sql)
        try:
            row: Row | None = await self._conn.fetchrow(dollar_params(sql), *params)
        except asyncpg.UniqueViolationError as exc:
            raise Conflict(str(exc)) from exc
        return row

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        self._wrote(sql)
        try:
            return list(await self._conn.fetch(dollar_params(sql), *params))
        except asyncpg.UniqueViolationError as exc:
            raise Conflict(str(exc)) from exc


class PostgresDatabase(Database):
    dialect: Dialect = "postgresql"
    unreachable = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError)

    def __init__(self, pool: asyncpg.Pool, readers: asyncpg.Pool, url: str, clock: Clock,
                 schema_version: int) -> None:
        super().__init__(clock, schema_version)
        self._pool = pool
        self._readers = readers
        self._writing = asyncio.Lock()
        self.url = url
        #: The connection that hears other processes' writes to kept rows (see :meth:`listen`).
        self._listener: asyncpg.Connection | None = None
        #: Names this process in its notices (it does not act on its own).
        self._token = secrets.token_hex(8)
        self.rows = RowCache(enabled=False, only=RowCache.SHARED)
        #: One statement at a time on the listening connection (signals sent, channels listened to).
        self._signalling = asyncio.Lock()

    async def listen(self) -> None:
        """Keep the :attr:`RowCache.SHARED` rows in memory, hearing every process's
        writes to their tables on a connection of its own (``LISTEN pyramid_rows``):
        each write transaction names what it changed in a notice that PostgreSQL
        delivers at its commit (:meth:`transaction`), and each notice drops those rows.
        Should that connection be lost, nothing is kept any more: every read goes to
        the database."""
        conn = await asyncpg.connect(self.url, timeout=30)
        await conn.add_listener(NOTICES, self._heard)
        conn.add_termination_listener(self._deaf)
        self._listener = conn
        self.rows.enabled = True

    def _heard(self, _conn: asyncpg.Connection | PoolConnectionProxy, _pid: int, _channel: str,
               names: object) -> None:
        sender, *changed = str(names).split()
        if sender != self._token:  # this process's own writes were forgotten as they were made
            self.rows.forget(name for name in changed if name in RowCache.KEPT)

    def _deaf(self, _conn: asyncpg.Connection | PoolConnectionProxy) -> None:
        self.rows.disable()

    async def signal(self, channel: str, payload: str) -> bool:
        """``pg_notify`` on the listening connection: not a write, so it neither waits for the
        write lock nor holds it, and it is delivered at once (no transaction to commit)."""
        listener = self._listener
        if listener is None or listener.is_closed():
            return False
        try:
            async with self._signalling:
                await listener.execute("SELECT pg_notify($1, $2)", channel, payload)
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
            return False
        return True

    async def on_signal(self, channel: str, heard: Callable[[str], None]) -> bool:
        listener = self._listener
        if listener is None or listener.is_closed():
            return False

        def relay(_conn: asyncpg.Connection | PoolConnectionProxy, _pid: int, _channel: str, payload: object) -> None:
            heard(str(payload))

        try:
            async with self._signalling:
                await listener.add_listener(channel, relay)
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
            return False
        return True

    @classmethod
    async def open(cls, url: str, clock: Clock = utc_now, migrations: list[Migration] | None = None,
                   *, pool_size: int = 10) -> PostgresDatabase:
        """Connect and migrate: two writer connections (writes are one at a time anyway)
        and up to ``pool_size`` read-only ones. A server that cannot be reached, or
        refuses the login or the database name, raises :class:`DatabaseUnavailable`
        naming the URL without its password."""
        async with contextlib.AsyncExitStack() as opened:  # closes what was opened if a later step fails
            try:
                pool = await asyncpg.create_pool(url, min_size=1, max_size=2, timeout=30, command_timeout=60)
                opened.push_async_callback(pool.close)
                version = await migrate_postgres(pool, migrations)
                readers = await asyncpg.create_pool(
                    url, min_size=1, max_size=pool_size, timeout=30, command_timeout=60,
                    server_settings={"default_transaction_read_only": "on"})
                opened.push_async_callback(readers.close)
            except (TimeoutError, OSError, asyncpg.InterfaceError, asyncpg.InvalidCatalogNameError,
                    asyncpg.InvalidAuthorizationSpecificationError, asyncpg.CannotConnectNowError,
                    asyncpg.TooManyConnectionsError) as exc:
                raise DatabaseUnavailable(redacted(url), str(exc) or type(exc).__name__) from exc
            database = cls(pool, readers, url, clock, version)
            try:
                await database.listen()
            except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
                database.rows.disable()  # no notices: read everything from the database
            opened.pop_all()
        return database

    def describe(self) -> str:
        return redacted(self.url)

    async def close(self) -> None:
        if self._listener is not None:
            self.rows.disable()
            self._listener.remove_termination_listener(self._deaf)
            await self._listener.close()
        await self._readers.close()
        await self._pool.close()

    @asynccontextmanager
    async def transaction(self, *, long: bool = False) -> AsyncIterator[Tx]:
        """``long`` changes nothing here: every statement already waits on the server, off the loop."""
        tx: PostgresTx | None = None
        try:
            async with self._writing, self._pool.acquire() as conn, conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock($1)", WRITE_LOCK)
                tx = PostgresTx(conn, self.rows)
                yield tx
                changed = sorted(tx.touched & RowCache.SHARED)
                if changed:  # heard by every process (this one too) when this commits, never if it rolls back
                    await conn.execute("SELECT pg_notify($1, $2)", NOTICES, " ".join([self._token, *changed]))
        finally:
            if tx is not None:
                self.rows.forget(tx.touched)

    async def read_one(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        row: Row | None = await self._readers.fetchrow(dollar_params(sql), *params)
        return row

    async def read_all(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        return list(await self._readers.fetch(dollar_params(sql), *params))


async def migrate_postgres(pool: asyncpg.Pool, migrations: list[Migration] | None = None) -> int:
    """Bring the schema up to date, one migration per transaction; returns the version
    now in force. Processes starting together take turns on an advisory lock: the
    first migrates, the others find the work done."""
    todo = bundled_migrations("postgresql") if migrations is None else migrations
    while True:
        async with pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY,"
                " name TEXT NOT NULL, applied_at TEXT NOT NULL DEFAULT (now()::text))"
            )
            version = check_version(int(await conn.fetchval(
                "SELECT COALESCE(MAX(version), 0) FROM schema_migrations")), todo)
            following = [m for m in todo if m.version > version]
            if not following:
                return version
            step = following[0]
            await conn.execute(step.sql)  # no arguments: the simple protocol runs the whole script
            await conn.execute("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", step.version,
                               step.name)
