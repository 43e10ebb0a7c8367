"""SQLite reads are answered on the event loop when they are quick (``bot.store.loop_reads``),
and on the thread reader otherwise, with the same rows and the same errors either way; a
long statement is stopped on the loop and run on the thread."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.store.loop_reads import LoopReader
from bot.store.sqlite import SqliteDatabase


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[SqliteDatabase]:
    database = await SqliteDatabase.open(tmp_path / "bot.db")
    async with database.transaction() as conn:
        await conn.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT, n INTEGER)")
    yield database
    await database.close()


def quick(db: SqliteDatabase) -> LoopReader:
    assert db.quick is not None, "a SQLite database reads on the loop"
    return db.quick


def plain(path: Path, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """The rows as a connection of its own reads them."""
    with sqlite3.connect(path) as conn:
        return [tuple(row) for row in conn.execute(sql, params).fetchall()]


QUERIES = [
    ("SELECT * FROM t WHERE k = ?", 1),
    ("SELECT v, n FROM t WHERE n >= ? ORDER BY k", 1),
    ("SELECT COUNT(*), MAX(n) FROM t WHERE v = ?", 1),
    ("SELECT k FROM t ORDER BY n, k", 0),
    ("SELECT * FROM t WHERE k = ? OR v = ?", 2),
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.dictionaries(st.integers(-50, 50), st.tuples(st.sampled_from(["a", "b", "c", ""]),
                                                             st.integers(-3, 3)), max_size=30),
       query=st.sampled_from(QUERIES), args=st.lists(st.integers(-50, 50) | st.sampled_from(["a", "b"]),
                                                     min_size=2, max_size=2))
async def test_a_read_on_the_loop_gives_what_a_connection_of_its_own_reads(
        db: SqliteDatabase, rows: dict[int, tuple[str, int]], query: tuple[str, int], args: list[Any]) -> None:
    async with db.transaction() as conn:
        await conn.execute("DELETE FROM t")
        for key, (text, number) in rows.items():
            await conn.execute("INSERT INTO t (k, v, n) VALUES (?, ?, ?)", (key, text, number))
    sql, arity = query
    answered = quick(db).answered
    got = [tuple(row) for row in await db.read_all(sql, args[:arity])]
    assert got == plain(db.path, sql, tuple(args[:arity]))
    assert quick(db).answered == answered + 1, "a small read is answered on the loop"


async def test_a_long_statement_is_stopped_on_the_loop_and_answered_by_the_thread(db: SqliteDatabase) -> None:
    async with db.transaction() as conn:
        await conn.execute_many("INSERT INTO t (k, v, n) VALUES (?, 'x', ?)", [(k, k % 7) for k in range(400)])
    sql = "SELECT COUNT(*) FROM t a, t b WHERE a.n <= b.n"  # 160,000 pairs: far past the loop's budget
    handed_back = quick(db).handed_back
    row = await db.read_one(sql)
    assert row is not None and row[0] == plain(db.path, sql, ())[0][0]
    assert quick(db).handed_back == handed_back + 1
    assert (await db.read_one("SELECT n FROM t WHERE k = 12")) is not None  # the loop's connection still reads
    assert quick(db).answered >= 1


async def test_a_failing_read_fails_as_the_thread_reader_says(db: SqliteDatabase) -> None:
    handed_back = quick(db).handed_back
    with pytest.raises(sqlite3.OperationalError, match="no such table: nowhere"):
        await db.read_all("SELECT * FROM nowhere")
    with pytest.raises(sqlite3.ProgrammingError, match="bindings"):
        await db.read_all("SELECT * FROM t WHERE k = ?", (1, 2))
    assert quick(db).handed_back == handed_back + 2
    assert await db.read_all("SELECT * FROM t") == []
