"""Fixtures every test folder may use: a throwaway PostgreSQL server, a fresh database on it,
and ``database_target``, which runs a test once on a SQLite file and once on PostgreSQL."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.store import DatabaseTarget
from tests.postgres_fixtures import postgres_server, postgres_url  # noqa: F401  (re-exported fixtures)
from tests.slow_by_measure import SLOW_BY_MEASURE

BACKENDS = [pytest.param("sqlite", id="sqlite"),
            pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgres)]


@pytest.fixture(params=BACKENDS)
def database_target(request: pytest.FixtureRequest, tmp_path: Path) -> DatabaseTarget:
    if request.param == "sqlite":
        return DatabaseTarget.parse(tmp_path / "bot.db")
    return DatabaseTarget.parse(request.getfixturevalue("postgres_url"))


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker more than there are cores. The bot tests spend part of their time waiting on
    the emulator's sockets, so a third worker on two cores uses what would sit idle (measured: 4 min 12 s
    with two workers, 3 min 18 s with three, on an otherwise idle 2-core machine)."""
    return (os.cpu_count() or 1) + 1


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The default suite's longest tests go with the slow suite (``tests/slow_by_measure.py``), before
    ``-m 'not slow'`` deselects by mark."""
    for item in items:
        if item.nodeid in SLOW_BY_MEASURE or item.nodeid.split("[", 1)[0] in SLOW_BY_MEASURE:
            item.add_marker(pytest.mark.slow)
