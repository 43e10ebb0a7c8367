"""Fixtures the bot's unit tests share."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.core.session_service import SessionService
from bot.games.catalogue import Catalogue
from bot.store import DatabaseTarget, GameStore


@pytest.fixture
async def service(database_target: DatabaseTarget) -> AsyncIterator[SessionService]:
    """Sessions over a store on each backend: the cache's freshness check reads the database."""
    db = await database_target.open()
    yield SessionService(GameStore(db), Catalogue.default())
    await db.close()
