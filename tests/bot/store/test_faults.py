"""Storage faults are told by kind (#26): real SQLite errors, read by their codes."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.interactions.failures import FAULT_TEXTS
from bot.store.faults import Fault, fault_of
from i18n import shared_texts


def sqlite_error(tmp_path: Path, setup: str, statement: str, *, timeout: float = 5.0) -> sqlite3.Error:
    conn = sqlite3.connect(tmp_path / "db.sqlite", isolation_level=None, timeout=timeout)
    conn.execute("CREATE TABLE IF NOT EXISTS t (x BLOB)")
    for line in filter(None, setup.split(";")):
        conn.execute(line)
    with pytest.raises(sqlite3.Error) as raised:
        for _ in range(1000):
            conn.execute(statement)
    conn.close()
    return raised.value


def test_a_full_database_a_read_only_one_and_a_held_lock(tmp_path: Path) -> None:
    full = sqlite_error(tmp_path, "VACUUM;PRAGMA max_page_count = 2", "INSERT INTO t VALUES (randomblob(900))")
    assert fault_of(full) is Fault.FULL
    read_only = sqlite_error(tmp_path, "PRAGMA query_only = ON", "INSERT INTO t VALUES (1)")
    assert fault_of(read_only) is Fault.READ_ONLY
    holder = sqlite3.connect(tmp_path / "db.sqlite", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        locked = sqlite_error(tmp_path, "", "INSERT INTO t VALUES (1)", timeout=0)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert fault_of(locked) is Fault.BUSY
    wrapped = RuntimeError("while saving")
    wrapped.__cause__ = full
    assert fault_of(wrapped) is Fault.FULL
    assert fault_of(sqlite3.OperationalError("no such table: moves")) is None
    assert fault_of(ValueError("bug")) is None


@pytest.mark.parametrize("fault", list(Fault))
def test_each_fault_says_what_happened_that_nothing_changed_and_when_to_retry(fault: Fault) -> None:
    english = FAULT_TEXTS[fault]
    assert "nothing was changed" in english and "try again" in english
    german = shared_texts().lang("de").gettext(english)
    assert german != english and "nichts geändert" in german and "noch einmal" in german


class PgError(Exception):
    def __init__(self, sqlstate: str) -> None:
        super().__init__(sqlstate)
        self.sqlstate = sqlstate


def test_postgresql_faults_by_their_sqlstate() -> None:
    assert fault_of(PgError("53100")) is Fault.FULL
    assert fault_of(PgError("25006")) is Fault.READ_ONLY
    assert fault_of(PgError("55P03")) is Fault.BUSY
    assert fault_of(PgError("08006")) is Fault.UNAVAILABLE
    assert fault_of(PgError("23505")) is None
