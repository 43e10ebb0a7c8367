"""Every listing command reads a bounded amount, however long the server's history
(issue #37: one ``/pyramid leaderboard`` read 20,005 rows for 20,000 games).

Counted, not timed: the statements each listing runs and the rows they return, on a
real SQLite file seeded with few and with many finished games
(``tools.bench.leaderboards`` seeds and runs them; the bench prints the same at
100,000 games), and SQLite's query plan of every statement, which must find its rows by
an index rather than read a table through."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from tools.bench.leaderboards import Measured, measure, prepared

#: A plan step that reads a whole table (not by an index, and not a handful of rows by a key).
FULL_SCAN = re.compile(r"^SCAN (\w+)$")


async def measured(folder: Path, games: int) -> dict[str, Measured]:
    path = folder / f"{games}.sqlite3"
    await prepared(path, games)
    _, results = await measure(path)
    return results


def plan(path: Path, sql: str) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute(f"EXPLAIN QUERY PLAN {sql}", [1] * sql.count("?")).fetchall()
        return [str(r[3]) for r in rows]
    finally:
        conn.close()


async def test_each_listing_reads_as_much_for_many_games_as_for_few(tmp_path: Path) -> None:
    few = await measured(tmp_path, 50)
    many = await measured(tmp_path, 5_000)
    assert set(few) == set(many) and len(few) >= 5
    for name in few:
        assert (many[name].statements, many[name].rows) == (few[name].statements, few[name].rows), name
        assert many[name].statements <= 10, name
        for sql in many[name].sql:
            scans = [step for step in plan(tmp_path / "5000.sqlite3", sql) if FULL_SCAN.match(step)]
            assert not scans, f"{name}: {sql} reads whole tables: {scans}"
