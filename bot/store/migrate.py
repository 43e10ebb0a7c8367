"""Schema migrations: ``migrations/NNNN_name.sql`` applied in order at start-up.

One numbered sequence serves both backends. A file runs as it is on both unless the
dialects differ there: then ``NNNN_name.postgresql.sql`` (or ``.sqlite.sql``) beside
it replaces it for that backend, with the same version and name, so both reach the
same schema at every version. A database migrated by newer code is refused rather
than guessed at.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from typing import Literal

Dialect = Literal["sqlite", "postgresql"]

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)(?:\.(sqlite|postgresql))?\.sql$")


class SchemaError(Exception):
    """The database cannot be used by this version of the bot."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def bundled_migrations(dialect: Dialect = "sqlite") -> list[Migration]:
    """The migrations for one backend, oldest first."""
    shared: dict[int, Migration] = {}
    special: dict[int, Migration] = {}
    for entry in resources.files("migrations").iterdir():
        match = _NAME.match(entry.name)
        if not match:
            continue
        migration = Migration(int(match.group(1)), match.group(2), entry.read_text(encoding="utf-8"))
        kept = shared if match.group(3) is None else special if match.group(3) == dialect else None
        if kept is None:
            continue
        if migration.version in kept:  # two branches' files of one number: refused, never one picked by chance
            raise SchemaError(f"Two migrations are numbered {migration.version:04d}: {kept[migration.version].name} "
                              f"and {migration.name}.")
        kept[migration.version] = migration
    found = sorted({**shared, **special}.values(), key=lambda m: m.version)
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise SchemaError(f"Migrations must be numbered 0001, 0002, ... without gaps; found {versions}.")
    return found


def check_version(version: int, todo: list[Migration]) -> int:
    """``version`` back, after refusing a schema newer than the migrations at hand."""
    latest = todo[-1].version if todo else 0
    if version > latest:
        raise SchemaError(
            f"This database is at schema version {version}, newer than this bot understands "
            f"({latest}). Upgrade Pyramid Bot, or point PYRAMID_DATABASE at another database."
        )
    return version
