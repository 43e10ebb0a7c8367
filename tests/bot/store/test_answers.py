"""Whether the database answers, as the health check asks: yes while open, a plain no once it cannot."""

from __future__ import annotations

from bot.ops.health import database_answers
from bot.store import DatabaseTarget


async def test_a_database_answers_until_it_is_closed(database_target: DatabaseTarget) -> None:
    db = await database_target.open()
    assert await database_answers(db)
    await db.close()
    assert not await database_answers(db)  # no exception: the endpoint reports 503
