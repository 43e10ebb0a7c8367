"""Schema migrations: ``migrations/NNNN_name.sql`` applied in order at start-up.

Each file runs in its own transaction together with the row that records it, so a
crash mid-migration leaves the previous version intact. A database migrated by newer
code is refused rather than guessed at.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

import aiosqlite

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


class SchemaError(Exception):
    """The database cannot be used by this version of the bot."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def bundled_migrations() -> list[Migration]:
    found: list[Migration] = []
    for entry in resources.files("migrations").iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), match.group(2), entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise SchemaError(f"Migrations must be numbered 0001, 0002, ... without gaps; found {versions}.")
    return found


async def current_version(conn: aiosqlite.Connection) -> int:
    await conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)"
    )
    await conn.commit()
    async with conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


async def migrate(conn: aiosqlite.Connection, migrations: list[Migration] | None = None) -> int:
    """Bring the schema up to date; returns the version now in force."""
    todo = bundled_migrations() if migrations is None else migrations
    latest = todo[-1].version if todo else 0
    version = await current_version(conn)
    if version > latest:
        raise SchemaError(
            f"This database is at schema version {version}, newer than this bot understands "
            f"({latest}). Upgrade Pyramid Bot, or point PYRAMID_DATABASE at another file."
        )
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
