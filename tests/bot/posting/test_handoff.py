"""Which process delivers a game's announcements (bot/posting/handoff.py): the live process that
runs its server's shard, else (no server, a dead owner, one process) whoever has it. On both
backends; the signal that wakes the owner on PostgreSQL only (SQLite has one process)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest

from bot.posting.handoff import SHARD_TTL, ShardOwners, shard_of
from bot.store import DatabaseTarget
from bot.store.database import Database
from bot.store.leases import LeaseStore
from emulator.gateway import shard_of as discords_shard_of
from tests.bot.clock import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def db(database_target: DatabaseTarget, clock: FakeClock) -> AsyncIterator[Database]:
    database = await database_target.open(clock)
    yield database
    await database.close()


def guild_on(shard: int, count: int, rng: random.Random) -> int:
    """A server id (a snowflake) whose events go to ``shard`` of ``count``."""
    while True:
        guild = rng.getrandbits(62) | (1 << 60)
        if discords_shard_of(guild, count) == shard:
            return guild


def owners(db: Database, name: str) -> ShardOwners:
    return ShardOwners(LeaseStore(db, name, shared=True), db)


def nothing(_game: int) -> None:
    return None


def test_the_shard_of_a_server_is_discords() -> None:
    rng = random.Random(42)
    for _ in range(2000):
        guild, count = rng.getrandbits(63), rng.randint(1, 64)
        assert shard_of(guild, count) == discords_shard_of(guild, count)


async def test_a_game_goes_to_its_shards_live_process_and_to_anyone_once_that_one_is_dead(
    db: Database, clock: FakeClock
) -> None:
    rng = random.Random(7)
    a, b = owners(db, "host:1:aa"), owners(db, "host:2:bb")
    await a.start([0], 2, nothing)
    await b.start([1], 2, nothing)
    g0, g1 = guild_on(0, 2, rng), guild_on(1, 2, rng)
    assert await a.elsewhere(g1) == 1 and await a.elsewhere(g0) is None and await a.elsewhere(None) is None
    assert await b.elsewhere(g0) == 0 and await b.elsewhere(g1) is None
    due = [(10, g1), (11, g0), (12, None)]
    assert await a.theirs(due) == {10} and await b.theirs(due) == {11}

    clock.advance(seconds=SHARD_TTL.total_seconds() + 1)  # B stopped renewing (SIGKILL): its shard is nobody's
    await a.renew()
    assert await a.elsewhere(g1) is None and await a.theirs(due) == set()
    assert await b.theirs(due) == {11}

    await b.renew()  # B back (a new process renews the same shard)
    assert await a.elsewhere(g1) == 1
    await b.release()  # a clean stop hands its games on at once
    assert await a.elsewhere(g1) is None and await a.theirs(due) == set()


async def test_every_due_game_is_left_to_exactly_the_live_process_of_its_shard(db: Database, clock: FakeClock) -> None:
    """Random deployments (shard counts, shards split over processes, some dead): each process
    leaves a game to others exactly when another process runs its shard and is alive; so among
    the live processes, one delivers each game (its shard's, else every one of them)."""
    rng = random.Random(20261129)
    for case in range(40):
        count = rng.randint(1, 8)
        processes = rng.randint(1, min(4, count))
        split: list[list[int]] = [[] for _ in range(processes)]
        for shard in range(count):
            split[shard % processes if shard < processes else rng.randrange(processes)].append(shard)
        fleet = [owners(db, f"host:{case}:{i}") for i in range(processes)]
        for process, shards in zip(fleet, split, strict=True):
            await process.start(shards, count, nothing)
        dead = {i for i in range(processes) if rng.random() < 0.3}
        clock.advance(seconds=SHARD_TTL.total_seconds() + 1)
        for i, process in enumerate(fleet):
            if i not in dead:
                await process.renew()
        games = [(n, guild_on(rng.randrange(count), count, rng) if rng.random() < 0.9 else None) for n in range(30)]
        runner = {shard: i for i, shards in enumerate(split) for shard in shards}
        for i, process in enumerate(fleet):
            if i in dead:
                continue
            left = await process.theirs(games)
            for game, guild in games:
                owner = runner[shard_of(guild, count)] if guild is not None else None
                expected = owner is not None and owner != i and owner not in dead
                assert (game in left) == expected, (case, i, owner, dead)
                assert (await process.elsewhere(guild) is not None) == expected
        for process in fleet:
            await process.release()


async def test_one_process_with_every_shard_or_sqlite_hands_nothing_over(db: Database) -> None:
    rng = random.Random(3)
    alone = ShardOwners(LeaseStore(db, "host:1:aa"), db)  # shared only on PostgreSQL
    await alone.start([0, 1, 2, 3], 4, nothing)
    assert all([await alone.elsewhere(guild_on(s, 4, rng)) is None for s in range(4)])
    partial = ShardOwners(LeaseStore(db, "host:2:bb", shared=False), db)
    await partial.start([0], 4, nothing)
    assert await partial.elsewhere(guild_on(3, 4, rng)) is None
    assert await partial.theirs([(1, guild_on(2, 4, rng))]) == set()


async def test_the_owner_is_woken_by_a_signal_on_postgresql(
    database_target: DatabaseTarget, db: Database, clock: FakeClock
) -> None:
    if db.dialect == "sqlite":
        assert not await db.signal("pyramid_outbox", "1 7")  # one process: nobody to tell
        assert not await db.on_signal("pyramid_outbox", print)
        return
    other = await database_target.open(clock)
    try:
        heard: asyncio.Queue[int] = asyncio.Queue()
        owner = owners(other, "host:2:bb")
        await owner.start([1], 2, heard.put_nowait)
        sender = owners(db, "host:1:aa")
        await sender.start([0], 2, nothing)
        await sender.hand_over(7, 0)  # for shard 0: not the owner's, ignored there
        await sender.hand_over(8, 1)
        assert await asyncio.wait_for(heard.get(), 10) == 8
        assert heard.empty()
    finally:
        await other.close()
