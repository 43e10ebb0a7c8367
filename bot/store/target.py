"""Where ``PYRAMID_DATABASE`` points: a SQLite file (a path, or ``sqlite:///path``) or
a PostgreSQL server (``postgresql://…``), and opening it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from bot.store.database import Clock, Database, Dialect, utc_now
from bot.store.migrate import Migration
from bot.store.postgres import PostgresDatabase, redacted
from bot.store.sqlite import SqliteDatabase

_POSTGRES_SCHEMES = ("postgresql", "postgres")


class BadDatabaseTarget(ValueError):
    """``PYRAMID_DATABASE`` names something the bot cannot use."""


@dataclass(frozen=True)
class DatabaseTarget:
    dialect: Dialect
    #: The SQLite file (None for PostgreSQL).
    path: Path | None = None
    #: The PostgreSQL URL, as given (None for SQLite).
    url: str | None = None

    @classmethod
    def parse(cls, text: str | Path) -> DatabaseTarget:
        if isinstance(text, Path):
            return cls("sqlite", path=text)
        text = text.strip()
        if not text:
            raise BadDatabaseTarget("PYRAMID_DATABASE is empty: give a file path or a postgresql:// URL.")
        scheme = text.split(":", 1)[0].lower() if "://" in text else ""
        if scheme in _POSTGRES_SCHEMES:
            parts = urlsplit(text)
            if not parts.hostname and "host=" not in parts.query:
                raise BadDatabaseTarget(f"PYRAMID_DATABASE {redacted(text)} names no server host.")
            return cls("postgresql", url=text)
        if scheme == "sqlite":
            rest = text.split("://", 1)[1]
            if not rest.startswith("/") or rest == "/":
                raise BadDatabaseTarget(f"Write a SQLite URL as sqlite:///relative/path or sqlite:////absolute/path,"
                                        f" not {text}.")
            return cls("sqlite", path=Path(unquote(rest[1:])))
        if scheme:
            raise BadDatabaseTarget(f"PYRAMID_DATABASE {text.split('://', 1)[0]}://… is not supported: use a file "
                                    "path, sqlite:///path or postgresql://user:password@host/database.")
        return cls("sqlite", path=Path(text))

    @property
    def shared(self) -> bool:
        """Whether several bot processes can use it at once."""
        return self.dialect == "postgresql"

    def describe(self) -> str:
        return str(self.path) if self.path is not None else redacted(self.url or "")

    async def open(self, clock: Clock = utc_now, migrations: list[Migration] | None = None,
                   *, pool_size: int = 10, sqlite_max_bytes: int | None = None) -> Database:
        """Open and migrate the database (a SQLite file grows to at most ``sqlite_max_bytes``)."""
        if self.path is not None:
            return await SqliteDatabase.open(self.path, clock, migrations, max_bytes=sqlite_max_bytes)
        assert self.url is not None
        return await PostgresDatabase.open(self.url, clock, migrations, pool_size=pool_size)


async def open_database(target: str | Path | DatabaseTarget, clock: Clock = utc_now) -> Database:
    """Open a database from ``PYRAMID_DATABASE``-style text, a path, or a parsed target."""
    parsed = target if isinstance(target, DatabaseTarget) else DatabaseTarget.parse(target)
    return await parsed.open(clock)
