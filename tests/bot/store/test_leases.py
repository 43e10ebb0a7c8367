"""Leases: one process at a time does a game's background work; a dead holder's work is taken up."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from bot.store import GameStore
from bot.store.leases import LeaseStore
from tests.bot.clock import FakeClock


async def test_one_holder_at_a_time_and_a_dead_holders_lease_expires(store: GameStore, clock: FakeClock) -> None:
    first = LeaseStore(store.db, "host-a:1:aa", shared=True)
    second = LeaseStore(store.db, "host-b:2:bb", shared=True)
    ttl = timedelta(minutes=3)
    assert await first.claim("deliver:7", ttl)
    assert not await second.claim("deliver:7", ttl)
    assert await second.claim("deliver:8", ttl)  # other work is free
    assert await first.claim("deliver:7", ttl)  # the holder renews
    assert await second.holder("deliver:7") == "host-a:1:aa"
    clock.advance(minutes=2)
    assert not await second.claim("deliver:7", ttl)  # renewed: still live
    clock.advance(minutes=2)
    assert await second.claim("deliver:7", ttl)  # the first holder went quiet: taken over
    await first.release("deliver:7")  # not theirs any more: nothing happens
    assert await first.holder("deliver:7") == "host-b:2:bb"
    await second.release("deliver:7")
    assert await first.holder("deliver:7") is None
    assert await first.claim("deliver:7", ttl)


async def test_racing_claims_have_one_winner(store: GameStore) -> None:
    holders = [LeaseStore(store.db, f"host:{i}:00", shared=True) for i in range(8)]
    won = await asyncio.gather(*(h.claim("ai:3", timedelta(minutes=1)) for h in holders))
    assert sum(won) == 1


async def test_a_lone_sqlite_bot_claims_without_writing(store: GameStore) -> None:
    leases = LeaseStore(store.db)
    assert leases.shared == (store.db.dialect == "postgresql")
    assert await leases.claim("sweep:1", timedelta(minutes=1))
    rows = await store.db.read_all("SELECT name FROM leases")
    assert [r[0] for r in rows] == ([] if store.db.dialect == "sqlite" else ["sweep:1"])


async def test_claiming_several_at_once_takes_only_the_free_ones(store: GameStore, clock: FakeClock) -> None:
    first = LeaseStore(store.db, "host-a:1:aa", shared=True)
    second = LeaseStore(store.db, "host-b:2:bb", shared=True)
    ttl = timedelta(seconds=15)
    assert await first.claim_all(["shard:0", "shard:1"], ttl) == {"shard:0", "shard:1"}
    assert await second.claim_all(["shard:1", "shard:2"], ttl) == {"shard:2"}
    assert await first.holders("shard:") == {"shard:0": "host-a:1:aa", "shard:1": "host-a:1:aa",
                                             "shard:2": "host-b:2:bb"}
    clock.advance(seconds=16)
    assert await second.claim_all(["shard:1", "shard:2"], ttl) == {"shard:1", "shard:2"}
    assert await first.holders("shard:") == {"shard:1": "host-b:2:bb", "shard:2": "host-b:2:bb"}
