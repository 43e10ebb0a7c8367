"""Fixtures every test folder may use: a throwaway PostgreSQL server, a fresh database on it,
and ``database_target``, which runs a test once on a SQLite file and once on PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import DatabaseTarget
from tests.postgres_fixtures import postgres_server, postgres_url  # noqa: F401  (re-exported fixtures)

BACKENDS = [pytest.param("sqlite", id="sqlite"),
            pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgres)]


@pytest.fixture(params=BACKENDS)
def database_target(request: pytest.FixtureRequest, tmp_path: Path) -> DatabaseTarget:
    if request.param == "sqlite":
        return DatabaseTarget.parse(tmp_path / "bot.db")
    return DatabaseTarget.parse(request.getfixturevalue("postgres_url"))
