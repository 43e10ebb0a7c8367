"""The bot's own keeping of Discord's global rate limit: a process never sends more than
its share in any second, and the processes on one database split the budget."""

from __future__ import annotations

import asyncio

import aiohttp

from bot.posting.rest_budget import BudgetShare, GlobalLimit
from bot.store import GameStore
from bot.store.leases import LeaseStore
from emulator.ratelimits import RateLimits
from emulator.server import Emulator
from tests.bot.clock import FakeClock


async def test_never_more_than_the_limit_in_any_second() -> None:
    limit = GlobalLimit(per_second=4)
    loop = asyncio.get_running_loop()
    sent: list[float] = []

    async def request() -> None:
        await limit.acquire()
        sent.append(loop.time())

    await asyncio.gather(*(request() for _ in range(10)))
    assert len(sent) == 10
    # Any window of one second, less the 0.1 s a busy machine may take to resume one request
    # and not the next (the limiter admits at its own clock reading; ``sent`` is read after).
    for first in sent:
        assert sum(1 for t in sent if first <= t < first + 0.9) <= 4
    assert limit.waited >= 6  # the first four went at once


async def test_processes_on_one_database_split_the_budget(store: GameStore, clock: FakeClock) -> None:
    one = BudgetShare(LeaseStore(store.db, "host-a:1:aa", shared=True), GlobalLimit(45), 45.0)
    two = BudgetShare(LeaseStore(store.db, "host-b:2:bb", shared=True), GlobalLimit(45), 45.0)
    assert await one.renew() == 1 and one.limit.per_second == 45.0
    assert await two.renew() == 2 and two.limit.per_second == 22.5
    assert await one.renew() == 2 and one.limit.per_second == 22.5
    clock.advance(seconds=30)  # the second process died: its share runs out
    assert await one.renew() == 1 and one.limit.per_second == 45.0
    await one.release()
    assert await LeaseStore(store.db).live_count("rest:") == 0


async def test_a_lone_sqlite_bot_keeps_the_whole_budget_without_writing(store: GameStore) -> None:
    share = BudgetShare(LeaseStore(store.db, shared=False), GlobalLimit(1), 45.0)
    assert await share.renew() == 1 and share.limit.per_second == 45.0
    assert await store.db.read_all("SELECT name FROM leases") == []


async def test_two_processes_sharing_the_budget_get_no_global_429(store: GameStore) -> None:
    """Against the emulator's global limit (per token, shared by both): each process alone
    at the full budget would collide with the other; with the budget split, none is refused."""
    # The budget keeps a margin under Discord's limit (as the default 45 under 50 does): a request spaced
    # on the bot's side may reach Discord a little later than the one before it.
    emulator = await Emulator.start(rate_limits=RateLimits(global_per_second=8, route_default=None))
    try:
        shares = [BudgetShare(LeaseStore(store.db, f"host:{n}:00", shared=True), GlobalLimit(6), 6.0)
                  for n in range(2)]
        for share in shares:
            await share.renew()
        await shares[0].renew()
        assert [s.limit.per_second for s in shares] == [3.0, 3.0]
        async with aiohttp.ClientSession() as http:

            async def process(share: BudgetShare) -> list[int]:
                statuses = []
                for _ in range(9):
                    await share.limit.acquire()
                    async with http.get(emulator.api_url + "/users/@me",
                                        headers={"Authorization": f"Bot {emulator.token}"}) as r:
                        statuses.append(r.status)
                return statuses

            answers = await asyncio.gather(*(process(s) for s in shares))
        assert [status for statuses in answers for status in statuses] == [200] * 18
        assert emulator.limiter.refused["global"] == 0
    finally:
        await emulator.close()
