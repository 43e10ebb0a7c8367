"""A fresh store on each backend, on a clock the test moves by hand: every store test
runs on a real SQLite file and on a real PostgreSQL database."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import DatabaseTarget, GameStore
from tests.bot.clock import FakeClock

BACKENDS = [pytest.param("sqlite", id="sqlite"), pytest.param("postgresql", id="postgresql",
                                                               marks=pytest.mark.postgres)]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(params=BACKENDS)
def database_target(request: pytest.FixtureRequest, tmp_path: Path) -> DatabaseTarget:
    if request.param == "sqlite":
        return DatabaseTarget.parse(tmp_path / "bot.db")
    return DatabaseTarget.parse(request.getfixturevalue("postgres_url"))


@pytest.fixture
async def store(database_target: DatabaseTarget, clock: FakeClock) -> AsyncIterator[GameStore]:
    db = await database_target.open(clock)
    yield GameStore(db)
    await db.close()
