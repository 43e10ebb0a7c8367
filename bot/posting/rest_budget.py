"""Discord's global rate limit, kept by the bot itself, and shared by its processes.

Discord allows a bot token 50 requests a second in all, whatever the route, across every
process and shard of the bot; the interaction endpoints (callbacks, follow-ups) are
exempt. discord.py keeps the per-route buckets from Discord's headers but learns of the
global limit only from a 429 (then every request waits), and each process would learn
it separately: two busy processes collide on it, and every 429 counts towards Discord's
invalid-request ban.

So each process spaces its own rate-limited requests (:class:`GlobalLimit`: at most
``per_second`` in any second), and the processes sharing a database split the budget
evenly (:class:`BudgetShare`): each holds a lease ``rest:<process>`` that it renews,
and counts the live ones. One write every few seconds per process, none per request.
An uneven load (one process busy, the other idle) leaves part of the budget unused;
a REST proxy that holds the token's limit for all processes (see README, "Scaling
out") avoids that.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from datetime import timedelta

from bot.store.leases import LeaseStore

log = logging.getLogger(__name__)

#: How often a process renews its share, and how long a dead process's share lasts.
RENEW_EVERY = 5.0
SHARE_TTL = timedelta(seconds=20)


class GlobalLimit:
    """At most ``per_second`` requests in any second (a sliding window), in the order asked."""

    def __init__(self, per_second: float) -> None:
        self.per_second = per_second
        self._sent: deque[float] = deque()
        self._lock = asyncio.Lock()
        #: Requests that had to wait, and the seconds waited in all (for the metrics and benches).
        self.waited = 0
        self.waited_seconds = 0.0

    @property
    def allowance(self) -> int:
        return max(1, int(self.per_second))

    async def acquire(self) -> None:
        loop = asyncio.get_running_loop()
        async with self._lock:
            started = loop.time()
            while True:
                now = loop.time()
                while self._sent and self._sent[0] <= now - 1.0:
                    self._sent.popleft()
                if len(self._sent) < self.allowance:
                    self._sent.append(now)
                    break
                await asyncio.sleep(self._sent[0] + 1.0 - now)
            if now > started:
                self.waited += 1
                self.waited_seconds += now - started


class BudgetShare:
    """Splits ``budget`` requests a second evenly between the live bot processes on one database."""

    def __init__(self, leases: LeaseStore, limit: GlobalLimit, budget: float) -> None:
        self.leases = leases
        self.limit = limit
        self.budget = budget
        self.name = f"rest:{leases.owner}"

    async def renew(self) -> int:
        """Hold this process's share a while longer; returns how many processes share the budget."""
        if not self.leases.shared:
            self.limit.per_second = self.budget
            return 1
        await self.leases.claim(self.name, SHARE_TTL)
        processes = max(1, await self.leases.live_count("rest:"))
        self.limit.per_second = self.budget / processes
        return processes

    async def run(self) -> None:
        """Renew the share until cancelled (a failed renewal keeps the last share)."""
        while True:
            try:
                await self.renew()
            except Exception:
                log.warning("could not renew this process's share of Discord's rate limit", exc_info=True)
            await asyncio.sleep(RENEW_EVERY)

    async def release(self) -> None:
        if self.leases.shared:
            await self.leases.release(self.name)


__all__ = ["BudgetShare", "GlobalLimit"]
