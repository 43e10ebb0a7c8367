"""Gateway logins in the database (bot/store/identifies.py): one IDENTIFY per bucket per spacing, whichever process
asks; a shard's recent starts are counted for the restart backoff. On both backends."""

from __future__ import annotations

import asyncio

from bot.store import GameStore
from bot.store.identifies import IdentifyLog


async def test_one_turn_per_bucket_per_spacing(store: GameStore) -> None:
    a, b = IdentifyLog(store.db, "host-a:1:aa"), IdentifyLog(store.db, "host-b:2:bb")
    assert await a.take_turn(0, bucket=0, now=1000.0, spacing=5.25) == 0
    assert await b.take_turn(2, bucket=0, now=1001.0, spacing=5.25) == 4.25, "the other process waits"
    assert await b.take_turn(1, bucket=1, now=1001.0, spacing=5.25) == 0, "another bucket is free"
    assert await b.take_turn(2, bucket=0, now=1005.25, spacing=5.25) == 0
    rows = await store.db.read_all("SELECT shard_id, owner FROM gateway_identifies ORDER BY sent_at, shard_id")
    assert [tuple(r) for r in rows] == [(0, "host-a:1:aa"), (1, "host-b:2:bb"), (2, "host-b:2:bb")]


async def test_racing_processes_get_one_turn(store: GameStore) -> None:
    logs = [IdentifyLog(store.db, f"host:{i}:00") for i in range(6)]
    waits = await asyncio.gather(*(log.take_turn(i, bucket=0, now=50.0 + i / 1000, spacing=5.25)
                                   for i, log in enumerate(logs)))
    assert sum(1 for w in waits if w == 0) == 1
    assert all(0 < w <= 5.25 for w in waits if w != 0)


async def test_recent_starts_count_the_busiest_shard(store: GameStore) -> None:
    log = IdentifyLog(store.db, "h:1:00")
    for at, shard in ((10.0, 3), (20.0, 3), (30.0, 3), (25.0, 4), (500.0, 3)):
        assert await log.take_turn(shard, bucket=shard, now=at, spacing=5.25) == 0
    assert await log.starts_since([3, 4], since=15.0) == 3
    assert await log.starts_since([4], since=0.0) == 1
    assert await log.starts_since([7], since=0.0) == 0
    assert await log.starts_since([], since=0.0) == 0
    assert await log.last_sent(3) == 500.0 and await log.last_sent(9) is None
    assert await log.forget_before(100.0) == 4
    assert await log.starts_since([3, 4], since=0.0) == 1
