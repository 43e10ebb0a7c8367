"""A fresh store on a real SQLite file, on a clock the test moves by hand."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Database, GameStore
from tests.bot.clock import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def store(tmp_path: Path, clock: FakeClock) -> AsyncIterator[GameStore]:
    db = await Database.open(tmp_path / "bot.db", clock=clock)
    yield GameStore(db)
    await db.close()
