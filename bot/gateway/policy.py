"""The rules of logging in, pure: Discord's limits as ``GET /gateway/bot`` states them, and what the bot makes of
them. Discord's gateway docs (gateway.mdx):

* ``max_concurrency`` IDENTIFYs per 5 seconds, one in each bucket: a shard's bucket ("rate limit key") is
  ``shard_id % max_concurrency``. Over it, Discord answers INVALID_SESSION and the start is lost.
* ``total`` session starts (IDENTIFYs) a day, ``remaining`` of them left, ``reset_after`` ms until the count
  starts again. Spending them all resets the bot's token: every session ends and the operator must put a new
  token in. RESUMEs don't count.
* A shard may hold at most 2,500 guilds (else 4011, sharding required).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

#: Discord's: at most one IDENTIFY per bucket in any 5 seconds.
IDENTIFY_WINDOW = 5.0
#: Guilds one shard may hold (a session over it is closed with 4011).
GUILDS_PER_SHARD = 2500


@dataclass(frozen=True)
class StartLimit:
    """``session_start_limit`` of ``GET /gateway/bot``."""

    total: int
    remaining: int
    reset_after_ms: int
    max_concurrency: int

    @classmethod
    def of(cls, payload: Any) -> StartLimit:
        return cls(total=int(payload["total"]), remaining=int(payload["remaining"]),
                   reset_after_ms=int(payload["reset_after"]), max_concurrency=max(1, int(payload["max_concurrency"])))


@dataclass(frozen=True)
class LoginPolicy:
    """How the bot paces its logins. The defaults are for Discord; tests that restart a bot many times pass a
    quicker one through ``Services`` (never the operator: these are Discord's numbers plus margins)."""

    #: Seconds between two IDENTIFYs of one bucket, by the database's record: Discord's 5 s and a margin for the
    #: moments between a process's turn and its IDENTIFY reaching Discord (another process's may arrive sooner).
    spacing: float = IDENTIFY_WINDOW + 0.25
    #: Starts of one shard within ``history`` seconds that go ahead at once (a deploy, a few crashes): the
    #: shard's even share of the day's starts (those not kept back) for that long, and at least this many.
    free_starts: int = 3
    history: float = 3600.0
    #: Beyond those, a process waits before it logs in: ``backoff`` seconds, doubled with every further start,
    #: at most ``backoff_cap``.
    backoff: float = 5.0
    backoff_cap: float = 600.0

    def bucket(self, shard_id: int, max_concurrency: int) -> int:
        return shard_id % max_concurrency

    def free(self, limit: StartLimit, shard_count: int) -> int:
        """Starts of one shard within ``history`` that need no wait: at that pace all day long, every shard
        together would spend just the day's starts less the reserve, so a crash loop cannot spend more."""
        spendable = max(0, limit.total - reserve(limit, shard_count))
        return max(self.free_starts, math.floor(spendable * self.history / 86_400.0 / max(1, shard_count)))

    def restart_delay(self, recent_starts: int, limit: StartLimit, shard_count: int) -> float:
        """Seconds to wait before logging in, for a process whose busiest shard started ``recent_starts`` times
        within ``history``: 0 for the first ``free(...)``, then ``backoff`` doubling up to ``backoff_cap``."""
        extra = recent_starts - self.free(limit, shard_count)
        if extra < 0:
            return 0.0
        return min(self.backoff_cap, self.backoff * 2.0 ** min(extra, 30))


def reserve(limit: StartLimit, shard_count: int) -> int:
    """Session starts the bot keeps back from the day's: enough for every shard of the bot to log in once more,
    and at least a tenth of the day's. A process that would dip into them does not start."""
    return max(shard_count, math.ceil(limit.total / 10))


def starts_left_after(limit: StartLimit, starting: int) -> int:
    """What ``remaining`` would be once this process's ``starting`` shards had logged in."""
    return limit.remaining - starting


def refusal(limit: StartLimit, starting: int, shard_count: int) -> str | None:
    """Why this process must not log in (the operator's sentence), or None when it may."""
    keep = reserve(limit, shard_count)
    if starts_left_after(limit, starting) >= keep:
        return None
    hours, rest = divmod(limit.reset_after_ms // 1000, 3600)
    return (
        f"Pyramid Bot will not log in: Discord allows this bot {limit.total} gateway session starts a day and "
        f"{limit.remaining} are left (the count starts again in {hours} h {rest // 60} min). Starting "
        f"{starting} shard{'s' if starting != 1 else ''} would leave fewer than the {keep} kept back, and when "
        "they are all spent Discord resets the bot's token and ends every session. Find out why the bot keeps "
        "restarting (its log), and start it again after the reset."
    )


def crowded(guilds_per_shard: dict[int, int]) -> dict[int, int]:
    """The shards holding more guilds than Discord allows one shard."""
    return {shard: n for shard, n in guilds_per_shard.items() if n > GUILDS_PER_SHARD}
