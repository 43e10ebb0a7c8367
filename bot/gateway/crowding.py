"""Guilds per shard against Discord's 2,500: Discord recommends more shards as a bot grows, and a session that
would hold more is refused (4011) the next time it logs in. The bot warns while it still runs."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable
from typing import Protocol

from bot.gateway.policy import GUILDS_PER_SHARD, crowded

log = logging.getLogger(__name__)


class OnShard(Protocol):
    @property
    def shard_id(self) -> int: ...


def guilds_per_shard(guilds: Iterable[OnShard]) -> dict[int, int]:
    return dict(Counter(g.shard_id for g in guilds))


def warn_if_crowded(guilds: Iterable[OnShard], shard_ids: Iterable[int] | None = None) -> dict[int, int]:
    """Log a warning for each shard (of ``shard_ids``, else all) holding more than 2,500 guilds; return them."""
    counts = guilds_per_shard(guilds)
    if shard_ids is not None:
        wanted = set(shard_ids)
        counts = {s: n for s, n in counts.items() if s in wanted}
    over = crowded(counts)
    for shard, n in sorted(over.items()):
        log.warning("shard %d holds %d servers, more than the %d Discord allows one shard: it will be refused "
                    "(4011) when it next logs in. Restart every process with PYRAMID_SHARD_COUNT=auto or a larger "
                    "count.", shard, n, GUILDS_PER_SHARD)
    return over
