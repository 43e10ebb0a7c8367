"""Is a backup's schema exactly what the migrations make for its recorded version?

A backup is a file from somewhere: one that lacks a table fails on the bot's first
write to it, and one that carries a trigger of its own runs its SQL inside the bot's
transactions (rewriting a rating, say). So before a restore, the backup's tables,
columns, indexes, triggers and views are compared with those of a fresh database
migrated to the same version, in memory. The SQL SQLite keeps for each is compared
with comments and spacing left out.
"""

from __future__ import annotations

import re
import sqlite3

from bot.store.migrate import bundled_migrations

#: The migrations' bookkeeping table, made by the store before any migration (``bot.store.sqlite``).
BOOKKEEPING = "schema_migrations"
_COMMENTS = re.compile(r"--[^\n]*|/\*.*?\*/", re.S)
_SPACE = re.compile(r"\s+")


def normalized(sql: str | None) -> str:
    """SQL without comments, with single spaces, in lower case, around punctuation tight."""
    text = _SPACE.sub(" ", _COMMENTS.sub(" ", sql or "")).strip().lower()
    return re.sub(r" ?([(),;]) ?", r"\1", text)


def schema_of(conn: sqlite3.Connection) -> dict[str, str]:
    """``"<type> <name>"`` → what defines it: the normalized SQL, and for a table its
    columns as SQLite reads them (name, type, not null, default, key)."""
    found: dict[str, str] = {}
    rows = conn.execute("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' "
                        "AND name != ?", (BOOKKEEPING,)).fetchall()
    for kind, name, sql in rows:
        what = normalized(sql)
        if kind == "table":
            columns = conn.execute(f'PRAGMA table_xinfo("{name}")').fetchall()
            what += " | " + "; ".join(f"{c[1]} {c[2]} {c[3]} {c[4]} {c[5]}" for c in columns)
        found[f"{kind} {name}"] = what
    return found


def expected_schema(version: int) -> dict[str, str]:
    """The schema of a new database migrated to ``version``."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        # As the bot migrates: its bookkeeping first (a migration may read it: 0015 does), each file then recorded.
        conn.execute(f"CREATE TABLE {BOOKKEEPING} (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                     " applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)")
        for migration in bundled_migrations("sqlite")[:version]:
            conn.executescript(f"BEGIN;\n{migration.sql}\nCOMMIT;")
            conn.execute(f"INSERT INTO {BOOKKEEPING} (version, name) VALUES (?, ?)", (migration.version,
                                                                                     migration.name))
        return schema_of(conn)
    finally:
        conn.close()


def schema_differences(conn: sqlite3.Connection, version: int) -> list[str]:
    """What differs from the schema of ``version``, in words (empty: nothing)."""
    problems: list[str] = []
    versions = [int(row[0]) for row in conn.execute(f"SELECT version FROM {BOOKKEEPING} ORDER BY version")]
    if versions != list(range(1, version + 1)):
        problems.append(f"its recorded migrations are not 1 to {version}")
    found, wanted = schema_of(conn), expected_schema(version)
    problems += [f"{name} is missing" for name in sorted(wanted.keys() - found.keys())]
    problems += [f"{name} is not one of the bot's" for name in sorted(found.keys() - wanted.keys())]
    problems += [f"{name} differs" for name in sorted(wanted.keys() & found.keys()) if wanted[name] != found[name]]
    return problems
