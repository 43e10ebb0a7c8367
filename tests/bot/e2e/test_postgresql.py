"""The whole bot on PostgreSQL: the same games, through the same emulator, as on SQLite.

Some of the SQLite suite's own tests, collected again here with the ``database``
fixture pointing at a fresh PostgreSQL database (a game against an AI to its end,
ratings and their rebuild), a game in a guild on each of two shards, and two bots
sweeping at once. The longer whole games on PostgreSQL are in
``test_postgresql_games.py``, with the slow suite.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.bot.clock import FakeClock
from tests.bot.e2e.driver import start_flaming
from tests.bot.e2e.test_games import (  # noqa: F401  (collected again, on PostgreSQL)
    test_pyrinoes_against_an_ai_to_the_target,
)
from tests.bot.e2e.test_ratings import test_ratings_change_show_and_are_rebuilt_identically as ratings_on_sqlite
from tests.bot.e2e.test_sharding import play_on_both_shards

pytestmark = pytest.mark.postgres


@pytest.fixture
def database(postgres_url: str) -> str:
    return postgres_url


@pytest.fixture
def emulator_options() -> dict[str, Any]:
    return {"shard_count": 2}


@pytest.mark.slow  # about 25 s; the SQLite run of it is in the default suite
async def test_ratings_change_show_and_are_rebuilt_identically(emulator: Any, harness: Any, database: str) -> None:
    """The SQLite suite's ratings test, on PostgreSQL."""
    await ratings_on_sqlite(emulator, harness, database)


async def test_flaming_pyramids_on_two_shards_of_one_process(emulator: Any, harness: Any) -> None:
    await play_on_both_shards(emulator, harness)
    store = harness.bot.services.store
    assert store.db.dialect == "postgresql"
    games = await store.all_games()
    assert len(games) == 2 and all(g.status == "finished" for g in games)
    assert (await harness.bot.services.outbox.backlog()).pending == 0


async def test_two_processes_on_one_database_remind_and_time_out_once(
    emulator: Any, harness: Any, bot_factory: Any, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bots (shard 0 and shard 1 of two) on one PostgreSQL database sweep at the same moment: each idle
    player is reminded once and timed out once, whichever bot's server the game is in."""
    ana, ben, cy, dee = [await harness.add_user(n) for n in ("ana", "ben", "cy", "dee")]
    monkeypatch.setenv("PYRAMID_SHARD_COUNT", "2")
    monkeypatch.setenv("PYRAMID_SHARD_IDS", "0")
    await harness.start_bot()
    monkeypatch.setenv("PYRAMID_SHARD_IDS", "1")
    await harness.start_extra_bot(bot_factory)
    threads = []
    for shard, players in ((0, [ana, ben]), (1, [cy, dee])):
        guild = await harness.add_guild(f"on shard {shard}", members=players, shard=shard)
        thread, _game = await start_flaming(emulator, harness, players, channel=harness.channel("general", guild=guild))
        threads.append(thread)
    bots = [harness.bot, *(b for b in harness.bots if b is not harness.bot)]
    assert len(bots) == 2 and [b.client.shard_ids for b in bots] == [[0], [1]]

    async def sweep_everywhere() -> list[str]:
        done = await asyncio.gather(*(b.client.host.reminders.sweep() for b in bots))
        await harness.settle()
        return [d for each in done for d in each]

    clock.advance(hours=25)
    done = await sweep_everywhere()
    assert sorted(d.split(":")[0] for d in done) == ["reminder", "reminder"], done
    for thread in threads:
        assert len([m for m in harness.messages(thread) if m.text.startswith("⏰")]) == 1
    assert await sweep_everywhere() == []  # reminded already, by whichever bot it was
    clock.advance(hours=60)
    done = await sweep_everywhere()
    assert sorted(d.split(":")[0] for d in done) == ["timeout", "timeout"], done
    for thread in threads:
        taken = [m for m in harness.messages(thread) if m.text.startswith("⌛") and "AI takes their seat" in m.text]
        assert len(taken) == 1


async def test_a_move_and_the_sweep_of_two_processes_time_a_seat_out_once(
    emulator: Any, harness: Any, bot_factory: Any, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move refused for an empty bank times its seat out on the process that took the click
    (``Reminders.run_out``) while the sweep of another process finds the same empty bank: the seat is
    handed to an AI once, and the channel is told once. Each process's game lock is its own, so only
    the database can decide who comes first."""
    ana, ben = [await harness.add_user(n) for n in ("ana", "ben")]
    monkeypatch.setenv("PYRAMID_SHARD_COUNT", "2")
    monkeypatch.setenv("PYRAMID_SHARD_IDS", "0")
    await harness.start_bot()
    monkeypatch.setenv("PYRAMID_SHARD_IDS", "1")
    await harness.start_extra_bot(bot_factory)
    guild = await harness.add_guild("on shard 1", members=[ana, ben], shard=1)
    thread, game = await start_flaming(emulator, harness, [ana, ben], channel=harness.channel("general", guild=guild))
    bots = [harness.bot, *(b for b in harness.bots if b is not harness.bot)]
    clock.advance(hours=200)
    seat = (await bots[0].services.sessions.load(game, fresh=True)).to_act
    done = await asyncio.gather(bots[0].client.host.reminders.sweep(), bots[1].client.host.reminders.run_out(game))
    await harness.settle()
    taken = [m for m in harness.messages(thread) if m.text.startswith("⌛") and "AI takes their seat" in m.text]
    assert len(taken) == 1, (done, [m.text for m in taken])
    assert (await bots[0].services.sessions.load(game, fresh=True)).seat(seat).is_ai
