"""The whole bot on PostgreSQL: the same games, through the same emulator, as on SQLite.

These are the SQLite suite's own tests, collected again here with the ``database``
fixture pointing at a fresh PostgreSQL database: every game to its end (boards, hand
DMs, AIs, a challenge's leaderboard), and a game in a guild on each of two shards.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.bot.e2e.test_games import (  # noqa: F401  (collected again, on PostgreSQL)
    test_continuous_pyramid_challenge_two_players_and_leaderboard,
    test_pyramido_competitive_against_an_ai,
    test_pyramido_coop_two_people_share_one_pyramid,
    test_pyrinoes_against_an_ai_to_the_target,
)
from tests.bot.e2e.test_sharding import play_on_both_shards

pytestmark = pytest.mark.postgres


@pytest.fixture
def database(postgres_url: str) -> str:
    return postgres_url


@pytest.fixture
def emulator_options() -> dict[str, Any]:
    return {"shard_count": 2}


async def test_flaming_pyramids_on_two_shards_of_one_process(emulator: Any, harness: Any) -> None:
    await play_on_both_shards(emulator, harness)
    store = harness.bot.services.store
    assert store.db.dialect == "postgresql"
    games = await store.all_games()
    assert len(games) == 2 and all(g.status == "finished" for g in games)
    assert (await store.outbox.backlog()).pending == 0
