"""``pyramid-bot migrate-db --to postgresql://…``: a bot's data, from its SQLite file to PostgreSQL.

How it stays trustworthy and safe to re-run:

* Both sides are opened as the bot opens them: the SQLite file is migrated to this
  bot's schema, the PostgreSQL database gets (or already has) the same schema, so the
  copy is column for column. The tables, their columns, keys and foreign keys are read
  from the SQLite file's own schema, so a migration that adds a table or a column needs
  no change here. ``schema_migrations`` (each side keeps its own) and ``leases`` (claims
  of processes that are running now) are not data to move.
* No bot may run on the file meanwhile: the copy takes the lock a restore takes, so it
  is the data of one moment, not of a game half-way through a move.
* Everything is written in one PostgreSQL transaction, parents before children, as
  ``INSERT … ON CONFLICT DO NOTHING``: a re-run adds only what is missing and never
  overwrites a row.
* Before that transaction commits, every table is counted and checksummed on both
  sides. Any difference rolls the whole copy back and names the tables: a target that
  already held other rows under the same keys must not pass for a migrated one.
* The identity sequences move past the copied ids, so new games get new ids.
"""

from __future__ import annotations

import asyncio
import contextlib
import graphlib
import hashlib
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import asyncpg

from bot.config.settings import OperatorSettings
from bot.ops.advice import database_trouble
from bot.ops.exit_codes import ExitCode
from bot.ops.running import DatabaseBusy, no_bot_running
from bot.store.database import DatabaseDamaged, DatabaseUnavailable, Row, Tx
from bot.store.migrate import SchemaError
from bot.store.postgres import PostgresDatabase, redacted
from bot.store.sqlite import SqliteDatabase
from bot.store.target import BadDatabaseTarget, DatabaseTarget

#: Each side migrates its own schema; leases belong to the processes running now.
NOT_COPIED = frozenset({"schema_migrations", "leases"})
#: Rows read and written per statement: few round trips, modest memory.
BATCH_ROWS = 500
#: PostgreSQL's limit on the parameters of one statement.
_MAX_PARAMETERS = 32767
_CHECKSUM_MODULUS = 2**256

Fetch = Callable[[str, Sequence[Any]], Awaitable[list[Row]]]


class MigrationError(Exception):
    """The copy cannot be made, or cannot be trusted; the message says why and what to do."""


@dataclass(frozen=True)
class Table:
    """One table to copy, as the SQLite file's schema describes it."""

    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]
    parents: frozenset[str]


@dataclass
class Tally:
    """A table's row count and checksum.

    The checksum is the sum of each row's SHA-256, so it does not depend on the order
    rows are read in: the two engines sort text keys by different collations. Values
    are written out by type (integers as integers, floats by ``repr``, text as UTF-8,
    NULL as its own marker), so ``1``, ``1.0``, ``'1'`` and NULL all differ."""

    rows: int = 0
    total: int = 0

    def add(self, row: Sequence[Any]) -> None:
        self.rows += 1
        digest = hashlib.sha256(b"".join(_token(value) for value in row)).digest()
        self.total = (self.total + int.from_bytes(digest)) % _CHECKSUM_MODULUS

    @property
    def checksum(self) -> str:
        return f"{self.total:064x}"


def _token(value: Any) -> bytes:
    if value is None:
        return b"N;"
    if isinstance(value, bool | int):
        return b"i%d;" % value
    if isinstance(value, float):
        return b"f" + repr(value).encode() + b";"
    if isinstance(value, str):
        text = value.encode()
        return b"s%d:" % len(text) + text
    if isinstance(value, bytes):
        return b"b%d:" % len(value) + value
    return f"?{type(value).__name__}:{value!r};".encode()  # unexpected: compared as such, never equal to the others


@dataclass(frozen=True)
class TableCheck:
    table: str
    #: Rows this run inserted (the rest were there already).
    copied: int
    source: Tally
    target: Tally

    @property
    def difference(self) -> str | None:
        """What differs, in words; None when both sides hold the same rows."""
        if self.target.rows > self.source.rows:
            return f"{self.target.rows - self.source.rows:,} more rows in PostgreSQL"
        if self.target.rows < self.source.rows:
            return f"{self.source.rows - self.target.rows:,} rows missing in PostgreSQL"
        if self.target.checksum != self.source.checksum:
            return "same number of rows, different content"
        return None


@dataclass(frozen=True)
class MigrationReport:
    source: Path
    #: The PostgreSQL URL without its password.
    target: str
    schema_version: int
    tables: tuple[TableCheck, ...]
    seconds: float

    @property
    def copied(self) -> int:
        return sum(check.copied for check in self.tables)

    @property
    def rows(self) -> int:
        return sum(check.source.rows for check in self.tables)

    @property
    def differing(self) -> list[TableCheck]:
        return [check for check in self.tables if check.difference is not None]


class VerificationFailed(MigrationError):
    """The target does not hold what the source holds; the copy was rolled back."""

    def __init__(self, report: MigrationReport) -> None:
        differences = ", ".join(f"{check.table} ({check.difference})" for check in report.differing)
        super().__init__(
            f"The PostgreSQL database {report.target} does not match {report.source} in {differences}: it already "
            "held other data. Nothing was written (the copy was rolled back). Point --to at an empty database, or "
            "drop and recreate this one, and run migrate-db again."
        )
        self.report = report


def quote(name: str) -> str:
    """An identifier both engines read as written."""
    return '"' + name.replace('"', '""') + '"'


async def migrate_database(source: Path, target_url: str, *, batch_rows: int = BATCH_ROWS) -> MigrationReport:
    """Copy every table of the SQLite file ``source`` into the PostgreSQL database at
    ``target_url``, verify, and commit; a second run copies nothing and still verifies.

    Raises :class:`VerificationFailed` (nothing written), :class:`MigrationError`,
    ``DatabaseBusy`` (a bot runs on the file), ``DatabaseUnavailable``,
    ``DatabaseDamaged`` or ``SchemaError``, each with a message for the operator."""
    if not source.is_file():
        raise MigrationError(f"There is no SQLite database at {source} to migrate (check PYRAMID_DATABASE or --from).")
    started = time.perf_counter()
    with no_bot_running(source, role="migrate"):
        async with contextlib.AsyncExitStack() as opened:
            sqlite = await SqliteDatabase.open(source)
            opened.push_async_callback(sqlite.close)
            postgres = await PostgresDatabase.open(target_url, pool_size=1)
            opened.push_async_callback(postgres.close)
            if sqlite.schema_version != postgres.schema_version:
                raise MigrationError(
                    f"{source} is at schema version {sqlite.schema_version} but {postgres.describe()} is at "
                    f"{postgres.schema_version}; both must be at the same version to be copied."
                )
            tables = await source_tables(sqlite)
            await check_target_columns(postgres, tables)
            async with postgres.transaction() as tx:
                checks = [await copy_table(sqlite.read_all, tx, table, batch_rows) for table in tables]
                await move_identities_past_copied_ids(tx, {table.name for table in tables})
                report = MigrationReport(source, postgres.describe(), sqlite.schema_version, tuple(checks),
                                         time.perf_counter() - started)
                if report.differing:
                    raise VerificationFailed(report)  # leaving the block with it rolls the copy back
    return report


async def source_tables(db: SqliteDatabase) -> list[Table]:
    """The tables to copy, parents before children (by their foreign keys)."""
    names = [str(row[0]) for row in await db.read_all(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
        " ORDER BY name")]
    tables: dict[str, Table] = {}
    for name in names:
        if name in NOT_COPIED:
            continue
        info = await db.read_all("SELECT name, pk FROM pragma_table_info(?) ORDER BY cid", (name,))
        key = tuple(str(row[0]) for row in sorted((row for row in info if row[1]), key=lambda row: int(row[1])))
        if not key:
            raise MigrationError(f"The table {name} has no primary key, so a re-run could not tell its copied rows "
                                 "from new ones; it cannot be migrated safely.")
        parents = await db.read_all("SELECT DISTINCT \"table\" FROM pragma_foreign_key_list(?)", (name,))
        tables[name] = Table(name, tuple(str(row[0]) for row in info), key,
                             frozenset(str(row[0]) for row in parents) - {name})
    order = graphlib.TopologicalSorter({name: table.parents & tables.keys() for name, table in tables.items()})
    try:
        return [tables[name] for name in order.static_order()]
    except graphlib.CycleError as exc:
        raise MigrationError(f"The tables {', '.join(exc.args[1])} refer to each other in a circle; "
                             "they cannot be copied parents first.") from exc


async def check_target_columns(db: PostgresDatabase, tables: list[Table]) -> None:
    """Refuse before writing anything if PostgreSQL lacks a table or column the file has."""
    rows = await db.read_all("SELECT table_name, column_name FROM information_schema.columns"
                             " WHERE table_schema = current_schema()")
    present = {(str(row[0]), str(row[1])) for row in rows}
    missing = [f"{table.name}.{column}" for table in tables for column in table.columns
               if (table.name, column) not in present]
    if missing:
        raise MigrationError(f"The PostgreSQL database {db.describe()} has no {', '.join(missing)}, although both "
                             "databases are at the same schema version; it was not made by Pyramid Bot's migrations.")


async def batches(fetch: Fetch, table: Table, size: int) -> AsyncIterator[list[Row]]:
    """Every row of ``table`` in key order, ``size`` at a time: each batch starts after
    the last key of the one before, which costs the same at the end of a big table as
    at its start (unlike OFFSET)."""
    columns = ", ".join(quote(column) for column in table.columns)
    key = ", ".join(quote(column) for column in table.key)
    after = ", ".join("?" for _ in table.key)
    first = f"SELECT {columns} FROM {quote(table.name)} ORDER BY {key} LIMIT {size}"
    following = f"SELECT {columns} FROM {quote(table.name)} WHERE ({key}) > ({after}) ORDER BY {key} LIMIT {size}"
    positions = [table.columns.index(column) for column in table.key]
    rows = await fetch(first, ())
    while rows:
        yield rows
        if len(rows) < size:
            return
        rows = await fetch(following, [rows[-1][position] for position in positions])


async def copy_table(read: Fetch, tx: Tx, table: Table, batch_rows: int) -> TableCheck:
    """Insert the rows PostgreSQL lacks, then count and checksum both sides."""
    size = max(1, min(batch_rows, _MAX_PARAMETERS // len(table.columns)))
    columns = ", ".join(quote(column) for column in table.columns)
    one_row = "(" + ", ".join("?" for _ in table.columns) + ")"
    source, target, copied = Tally(), Tally(), 0
    async for rows in batches(read, table, size):
        values = [[row[n] for n in range(len(table.columns))] for row in rows]
        for value in values:
            source.add(value)
        sql = (f"INSERT INTO {quote(table.name)} ({columns}) VALUES {', '.join([one_row] * len(values))}"
               " ON CONFLICT DO NOTHING")
        try:
            copied += await tx.execute(sql, [cell for value in values for cell in value])
        except (asyncpg.PostgresError, asyncpg.InterfaceError) as exc:  # a value it cannot store, a lost link
            raise MigrationError(f"PostgreSQL did not take rows of the table {table.name}: {exc}. "
                                 "Nothing was written (the copy was rolled back).") from exc
    async for rows in batches(tx.fetch_all, table, size):
        for row in rows:
            target.add([row[n] for n in range(len(table.columns))])
    return TableCheck(table.name, copied, source, target)


async def move_identities_past_copied_ids(tx: Tx, copied: set[str]) -> None:
    """Copied rows carry their ids, which their identity sequences never handed out:
    set each sequence after the highest id, or the next new game would collide."""
    rows = await tx.fetch_all(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()"
        " AND (is_identity = 'YES' OR column_default LIKE 'nextval(%')")
    for table, column in ((str(row[0]), str(row[1])) for row in rows):
        if table in copied:
            await tx.fetch_one(f"SELECT setval(pg_get_serial_sequence(?, ?), COALESCE(MAX({quote(column)}), 0) + 1,"
                               f" false) FROM {quote(table)}", (quote(table), column))


# --- the operator's command ------------------------------------------------------------


def migrate_db_command(settings: OperatorSettings, target: str, source: Path | None, *,
                       out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    """``pyramid-bot migrate-db``: run the copy, print what was copied and the checks,
    and say what to do next; the exit code says how it went."""
    if source is None:
        if settings.database.path is None:
            print(f"PYRAMID_DATABASE is already the PostgreSQL database {settings.database.describe()}: there is "
                  "no SQLite file to migrate from. Name one with --from PATH.", file=err)
            return ExitCode.SETTINGS
        source = settings.database.path
    url = postgres_url(target)
    if url is None:
        print(f"--to must be a PostgreSQL URL such as postgresql://user:password@host/database, "
              f"not {redacted(target)}.", file=err)
        return ExitCode.SETTINGS
    try:
        report = asyncio.run(migrate_database(source, url))
    except VerificationFailed as exc:
        print(checks_table(exc.report), file=out)
        print(exc, file=err)
        return ExitCode.FAILED
    except (MigrationError, DatabaseBusy) as exc:
        print(exc, file=err)
        return ExitCode.FAILED
    except (SchemaError, DatabaseDamaged, DatabaseUnavailable) as exc:
        return database_trouble(exc, err, then="migrate")
    print(summary(report), file=out)
    return ExitCode.OK


def postgres_url(text: str) -> str | None:
    """``text`` if it names a PostgreSQL server, else None."""
    try:
        parsed = DatabaseTarget.parse(text)
    except BadDatabaseTarget:
        return None
    return parsed.url if parsed.dialect == "postgresql" else None


def checks_table(report: MigrationReport) -> str:
    header = ("table", "copied", "rows (SQLite)", "rows (PostgreSQL)", "checksum (SQLite)", "checksum (PostgreSQL)",
              "")
    lines = [header] + [
        (check.table, f"{check.copied:,}", f"{check.source.rows:,}", f"{check.target.rows:,}",
         check.source.checksum[:16], check.target.checksum[:16], check.difference or "same")
        for check in report.tables
    ]
    widths = [max(len(line[n]) for line in lines) for n in range(len(header))]
    return "\n".join(
        "  ".join(cell.ljust(width) if n in (0, 4, 5, 6) else cell.rjust(width)
                  for n, (cell, width) in enumerate(zip(line, widths, strict=True))).rstrip()
        for line in lines
    )


def summary(report: MigrationReport) -> str:
    rate = report.copied / report.seconds if report.seconds > 0 else 0.0
    copied = (f"copied {report.copied:,} new rows of {report.rows:,} in {report.seconds:.1f} s ({rate:,.0f} rows/s)"
              if report.copied else f"nothing new to copy (all {report.rows:,} rows were there already)")
    return (
        f"Migrated {report.source} (schema version {report.schema_version}) to {report.target}: {copied}.\n"
        f"{checks_table(report)}\n"
        "Every table has the same rows on both sides.\n"
        f"Next: set PYRAMID_DATABASE={report.target} for every bot process (with its real password) and start "
        f"them. No bot writes to {report.source} any more: keep it as the last SQLite backup."
    )
