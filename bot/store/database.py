"""What the store needs from a database, whichever engine keeps it.

The store speaks one small dialect of SQL that SQLite and PostgreSQL both run:
``?`` placeholders, ``INSERT … ON CONFLICT``, ``RETURNING``, ``IS NOT DISTINCT
FROM``, ISO-8601 text for times and integers for flags. Each backend
(``bot.store.sqlite``, ``bot.store.postgres``) turns that into its driver's calls,
so ``GameStore`` and ``OutboxStore`` are written once and every store test runs on
both. Where the engines really differ (column types, identity columns) only the
migrations say so, in per-dialect files.

Both backends keep SQLite's promise to the store: a write transaction sees no other
writer's half-done work and is never interleaved with one, and a read is one
statement that sees committed data only. That keeps check-then-write code (a
lobby's seat count, the cap on open games) correct without retries.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime
from typing import Any, ClassVar, Literal, Protocol, TypeVar, cast

Clock = Callable[[], datetime]
T = TypeVar("T")
Dialect = Literal["sqlite", "postgresql"]


def utc_now() -> datetime:
    return datetime.now(UTC)


class Row(Protocol):
    """A result row, as both drivers give it: by column name or position."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def keys(self) -> Iterable[str]: ...


class DatabaseDamaged(Exception):
    """The database is not sound; the cure is restoring a backup."""

    def __init__(self, where: object, detail: str) -> None:
        super().__init__(f"The database {where} is damaged ({detail}).")
        self.path = where
        self.detail = detail


class DatabaseUnavailable(Exception):
    """The database cannot be opened or written (path, permissions, disk, server down);
    the data itself may be fine, so the cure is fixing the place, not restoring."""

    def __init__(self, where: object, detail: str) -> None:
        super().__init__(f"Cannot open or write the database {where} ({detail}).")
        self.path = where
        self.detail = detail


class Conflict(Exception):
    """A write broke a uniqueness rule: someone else wrote that row first."""


class Tx(ABC):
    """One write transaction: statements in the store's dialect, all or nothing."""

    @abstractmethod
    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; how many rows it changed. Raises :class:`Conflict` on a
        uniqueness violation."""

    @abstractmethod
    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """The first row of one statement (``SELECT`` or ``… RETURNING``)."""

    @abstractmethod
    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of one statement."""

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> int:
        """One statement for each parameter row; how many rows they changed in all."""
        changed = 0
        for params in rows:
            changed += await self.execute(sql, params)
        return changed


class RowCache:
    """Rows read on nearly every click and rarely written (a player's preferences, a server's
    settings, closed DMs, quiet hours and times away, a seat's time bank, when a move was
    made), kept in memory until a write touches their tables.

    Every write transaction of this process says which tables its statements name
    (:meth:`touched`), and the kept rows read from those tables are dropped when it
    ends, so a row written by any code of this process, the store's or a test's raw SQL
    alike, is read afresh. A read that was on its way while they were dropped is not
    kept (it may have seen the row before the write).

    On SQLite this process is the file's only writer (``bot.ops.running``): all of
    :attr:`KEPT` is kept. On PostgreSQL other processes write too; each write
    transaction of a bot process names the :attr:`SHARED` rows it changed in a notice
    delivered at its commit, and ``bot.store.postgres`` drops those rows when it hears
    one, so only those are kept there, and only while the notices can be heard. A
    notice arrives a few milliseconds after the other process's commit: a preference
    changed elsewhere may be read as it was for that long, as if the click had come a
    moment earlier. The clock's rows feed the next move's write, so they are never kept
    on PostgreSQL. SQL run by hand on a running bot's PostgreSQL database sends no
    notice: restart the bot processes after such an edit of these tables."""

    #: What is kept (the name its readers use) → the tables whose writes make it stale.
    #: A name's words are matched in each write statement, so a write that merely
    #: mentions a table (a sub-select) also drops its rows: too often is harmless.
    KEPT: ClassVar[dict[str, tuple[str, ...]]] = {
        "guild_settings": ("guild_settings",),
        "players": ("players",),
        "dm_closed": ("dm_closed",),
        "quiet_hours": ("quiet_hours",),
        "aways": ("away_periods", "away_grants"),
        "seat_clocks": ("seat_clocks",),
        "move_times": ("moves",),
        "clock_upgrade": ("clock_upgrade_turns", "clock_upgrade_quiet"),  # written by migration 0015 only
    }
    #: What may be kept where other processes write (they announce writes to its tables).
    SHARED: ClassVar[frozenset[str]] = frozenset({"guild_settings", "players", "dm_closed", "quiet_hours", "aways",
                                                   "clock_upgrade"})

    def __init__(self, enabled: bool, size: int = 16_384, only: frozenset[str] | None = None) -> None:
        """``only``: the names kept (None: all of :attr:`KEPT`); the others are always read."""
        self.enabled = enabled
        self.size = size
        self.only = frozenset(self.KEPT) if only is None else only
        self._rows: dict[str, dict[Any, Any]] = {name: {} for name in self.KEPT}
        #: Bumped whenever a name's rows are dropped: a read begun before is not kept.
        self._generation = dict.fromkeys(self.KEPT, 0)
        self.hits = 0
        self.misses = 0

    async def get(self, name: str, key: Any, load: Callable[[], Awaitable[T]]) -> T:
        """The kept value of ``name`` under ``key``, else ``load()``'s (kept from then on)."""
        if not self.enabled or name not in self.only:
            return await load()
        rows = self._rows[name]
        if key in rows:
            self.hits += 1
            return cast(T, rows[key])
        self.misses += 1
        generation = self._generation[name]
        row = await load()
        if self.enabled and self._generation[name] == generation:
            if len(rows) >= self.size:
                rows.clear()
            rows[key] = row
        return row

    def names(self, text: str) -> frozenset[str]:
        """The kept names whose tables ``text`` (a statement, a table's name) names."""
        return frozenset(name for name, tables in self.KEPT.items() if any(table in text for table in tables))

    def touched(self, sql: str) -> frozenset[str]:
        """A write statement ran: forget what is kept of every table it names, and
        return those names (to forget again when the transaction ends: a read on the
        other connection meanwhile still saw the row as it was)."""
        if not self.enabled:
            return frozenset()
        names = self.names(sql)
        self.forget(names)
        return names

    def forget(self, names: Iterable[str]) -> None:
        for name in names:
            self._rows[name].clear()
            self._generation[name] += 1

    def disable(self) -> None:
        """Keep nothing from now on (on PostgreSQL: the notices can no longer be heard)."""
        self.enabled = False
        self.forget(self.KEPT)


class Database(ABC):
    """The store's connection to its database; see the module docstring for the contract."""

    dialect: Dialect
    #: What the driver raises when the database cannot answer (a closed connection, a
    #: server gone): health checks report these as "not answering" instead of failing.
    unreachable: tuple[type[BaseException], ...] = ()

    def __init__(self, clock: Clock, schema_version: int) -> None:
        self.clock = clock
        self.schema_version = schema_version
        #: Often-read rows kept in memory, where that is safe (see :class:`RowCache`).
        self.rows = RowCache(enabled=self.dialect == "sqlite")

    @abstractmethod
    def transaction(self, *, long: bool = False) -> AbstractAsyncContextManager[Tx]:
        """Every write happens in here; an exception rolls the whole block back. ``long``:
        the block may work through many rows (a purge, a recount of every rating), so on
        SQLite its statements run off the event loop (``bot.store.loop_writes``)."""

    @abstractmethod
    async def read_one(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        """The first row one statement returns (None: no row); committed data only."""

    @abstractmethod
    async def read_all(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        """Every row one statement returns; committed data only."""

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    def describe(self) -> str:
        """Where the data lives, for logs and operators (never a password)."""

    async def answers(self) -> bool:
        """One read of the schema table: whether the database answers at all (health checks)."""
        return await self.read_one("SELECT MAX(version) FROM schema_migrations") is not None

    def now(self) -> str:
        return self.clock().astimezone(UTC).isoformat(timespec="seconds")

    async def signal(self, channel: str, payload: str) -> bool:
        """Tell every process listening on ``channel`` (PostgreSQL's ``NOTIFY``) ``payload`` now,
        outside any transaction; False where no other process can hear (SQLite: the bot is alone)
        or it could not be sent (the caller's work is then found by a poll)."""
        return False

    async def on_signal(self, channel: str, heard: Callable[[str], None]) -> bool:
        """Call ``heard`` with each payload signalled on ``channel`` by any process (this one
        too); False where no signal can come (SQLite, or no listening connection)."""
        return False

