"""Logging the bot's shards in to Discord's gateway, in turn with every other process on the database.

discord.py paces the shards of one process (its default ``before_identify_hook`` sleeps 5 s between them) and
knows nothing of other processes: processes started together (a deploy, a crash loop) IDENTIFY at once, and
Discord refuses all but one per bucket, each refusal a lost start. Here:

* ``prepare`` (before anything else at start, once logged in over REST) reads ``GET /gateway/bot``: the shard
  count when ``PYRAMID_SHARD_COUNT`` is ``auto`` or unset, ``max_concurrency``, and the day's session starts left.
  A process that would dip into the starts kept back (``policy.reserve``) stops with ``SessionStartsSpent``, so a
  restart loop can never make Discord reset the token. A process whose shards have started more often in the
  last hour than their share of the day's starts allows (``policy.free``) waits before logging in
  (``policy.restart_delay``: 5 s, doubling, at most 10 min).
* ``before_identify`` (discord.py's ``before_identify_hook``, for every IDENTIFY, the first and every new session
  after an INVALID_SESSION) waits for the shard's bucket: a turn recorded in the database
  (``bot.store.identifies``), one per bucket every ``policy.spacing`` seconds across all processes.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.gateway.policy import LoginPolicy, StartLimit, refusal
from bot.store.identifies import KEEP_SECONDS, IdentifyLog

log = logging.getLogger(__name__)


class SessionStartsSpent(Exception):
    """Discord's session starts for the day are nearly spent: this process does not log in."""


@dataclass(frozen=True)
class Plan:
    """What ``prepare`` found: the shard count in force, this process's shards, and Discord's limit."""

    shard_count: int
    shard_ids: tuple[int, ...]
    limit: StartLimit
    recommended: int


class Logins:
    def __init__(self, identifies: IdentifyLog, policy: LoginPolicy | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.identifies = identifies
        self.policy = policy if policy is not None else LoginPolicy()
        self.clock = clock
        self.max_concurrency = 1
        self.plan: Plan | None = None

    async def prepare(self, gateway_bot: Callable[[], Any], shard_count: int | None,
                      shard_ids: Sequence[int] | None) -> Plan:
        """Read Discord's limits (``gateway_bot``: discord.py's ``HTTPClient.get_bot_gateway``), settle the shard
        count, refuse to start when the day's starts are nearly spent, and wait out a restart loop."""
        recommended, _url, raw = await gateway_bot()
        limit = StartLimit.of(raw)
        count = shard_count if shard_count is not None else int(recommended)
        mine = tuple(shard_ids) if shard_ids is not None else tuple(range(count))
        self.max_concurrency = limit.max_concurrency
        self.plan = Plan(count, mine, limit, int(recommended))
        if shard_count is not None and recommended > shard_count:
            log.warning("Discord recommends %d gateway shards for this bot and PYRAMID_SHARD_COUNT is %d: set it to "
                        "auto or %d (a shard over 2,500 servers is refused)", recommended, shard_count, recommended)
        why = refusal(limit, len(mine), count)
        if why is not None:
            raise SessionStartsSpent(why)
        now = self.clock()
        await self.identifies.forget_before(now - KEEP_SECONDS)
        starts = await self.identifies.starts_since(mine, now - self.policy.history)
        delay = self.policy.restart_delay(starts, limit, count)
        if delay > 0:
            log.warning("shards %s have logged in %d times in the last %d minutes (is the bot restarting in a "
                        "loop?): waiting %.1f s before logging in, to keep Discord's %d session starts a day "
                        "(%d left)", _shards(mine), starts, self.policy.history // 60, delay, limit.total,
                        limit.remaining)
            await asyncio.sleep(delay)
        log.info("logging in %d of %d shards; Discord allows %d at a time, %d session starts left today",
                 len(mine), count, limit.max_concurrency, limit.remaining)
        return self.plan

    async def before_identify(self, shard_id: int | None) -> None:
        """Wait for this shard's bucket to be free across every process, and take it."""
        shard = shard_id or 0
        bucket = self.policy.bucket(shard, self.max_concurrency)
        while True:
            wait = await self.identifies.take_turn(shard, bucket, self.clock(), self.policy.spacing)
            if wait <= 0:
                return
            await asyncio.sleep(wait)


def _shards(ids: Sequence[int]) -> str:
    return ",".join(map(str, ids)) if len(ids) <= 8 else f"{ids[0]}…{ids[-1]} ({len(ids)})"
