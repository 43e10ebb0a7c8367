"""A fresh store on each backend (``database_target``, from ``tests/conftest.py``), on a
clock the test moves by hand: every store test runs on a real SQLite file and on a real
PostgreSQL database."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.store import DatabaseTarget, GameStore
from tests.bot.clock import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def store(database_target: DatabaseTarget, clock: FakeClock) -> AsyncIterator[GameStore]:
    db = await database_target.open(clock)
    yield GameStore(db)
    await db.close()
