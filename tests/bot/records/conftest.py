"""The session service on each backend (a real SQLite file and a real PostgreSQL
database), which makes the finished games the record tests read."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.core.session_service import SessionService
from bot.games.catalogue import Catalogue
from bot.store import DatabaseTarget, GameStore
from tests.bot.clock import FakeClock


@pytest.fixture
async def service(database_target: DatabaseTarget) -> AsyncIterator[SessionService]:
    db = await database_target.open(FakeClock())
    yield SessionService(GameStore(db), Catalogue.default())
    await db.close()
