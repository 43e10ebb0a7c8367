"""A game's announcements are delivered by the process that runs its server's shard (issue #42).

Discord sends DMs, and clicks on the buttons of DM messages, to shard 0 only. A hand DM carries
the move chooser on its reader's turn, so without this rule every move made from a DM would be
received, played *and announced* (its board drawn in the render workers, its cards posted and
edited, the hand DMs drawn and sent) by the process running shard 0, whichever server the game is
in: measured, with four processes that one used half of the bots' CPU (docs/benchmarks.md).

**The rule.** The outbox rows of a game in a server are delivered by the process that runs the
server's shard, ``(guild_id >> 22) % shard_count``, while that process is alive. Every delivery
of the outbox asks here: what delivers on request (``Delivery.announce`` after a move, a start or
an AI's move, and ``Delivery.deliver_game``, a resignation's end) asks ``Delivery._hand_over``,
which hands the game over instead of delivering it, and the worker's pass
(``Delivery.deliver_due``) leaves such games to their owner.

**What stays where the click arrives.** The click is answered there (within Discord's 3 s), and
the move is played there too (``SessionService.make_move``, under the game's lock): that is
cheap, and the chooser's answer needs it (a stale, out-of-turn or refused move is told at once,
as before). Only the announcement moves: the move's outbox rows are written in its transaction,
so handing over is only a wake-up. The click's "⏳ Playing…" then becomes "✅ You played …" there,
and the owner sends the mover's new hand as a DM (one rate-limited request, where shard 0
completed the click's answer with it: the interaction's token stays in the process that got it).

**Alive** means holding the lease ``shard:<id>`` (``bot.store.leases``), which each process renews
for its shards every :data:`RENEW_EVERY` seconds for :data:`SHARD_TTL`. A process that dies (even
by SIGKILL) stops renewing; once its leases run out, nobody owns its shards' games, and any
process delivers them (the fallback, at most ``SHARD_TTL`` plus a worker's poll after the death).
Delivering stays under the game's ``deliver:<game>`` lease and each row is marked done once, so a
hand-over never delivers twice; it changes who delivers, never how often.

**Waking the owner.** PostgreSQL's ``NOTIFY`` on :data:`SIGNALS` with ``"<shard> <game>"``, sent on
the listening connection every bot process keeps already (``bot.store.postgres``), outside any
transaction: the owner starts delivering within milliseconds. asyncpg delivers notifications to a
callback on that connection, with no polling of its own, so this costs one round trip. Should the
signal be lost (the connection dropped), the owner's worker finds the rows due at its next pass
(``Delivery.poll_seconds``, 2 s).

Games without a server (a group DM's, played in place) stay where their interaction arrives,
and on SQLite (one process, every shard) nothing changes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Sequence
from datetime import timedelta

from bot.store.database import Database
from bot.store.leases import LeaseStore

log = logging.getLogger(__name__)

#: The PostgreSQL channel on which a process tells a shard's owner to deliver a game now.
SIGNALS = "pyramid_outbox"
#: How long a process owns its shards without renewing (its death is noticed after this).
SHARD_TTL = timedelta(seconds=15)
#: How often each process renews its shards' leases (well inside SHARD_TTL: a busy loop is late).
RENEW_EVERY = 4.0
SHARD_PREFIX = "shard:"


def shard_lease(shard: int) -> str:
    return f"{SHARD_PREFIX}{shard}"


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's rule: the shard that receives a server's events."""
    return (guild_id >> 22) % shard_count


class ShardOwners:
    """Which process delivers which game's announcements: see the module's docstring."""

    def __init__(self, leases: LeaseStore, db: Database) -> None:
        self.leases = leases
        self.db = db
        #: Set by :meth:`start` once the process knows its shards (None: deliver everything here).
        self.shard_count: int | None = None
        self.mine: frozenset[int] = frozenset()
        self._wake: Callable[[int], None] | None = None

    @property
    def sharded(self) -> bool:
        """Whether other processes may run some of the shards (PostgreSQL, some shards here)."""
        return self.leases.shared and self.shard_count is not None and len(self.mine) < self.shard_count

    async def start(self, shard_ids: Iterable[int], shard_count: int, wake: Callable[[int], None]) -> None:
        """This process runs ``shard_ids`` of ``shard_count``: own them, and call ``wake(game)``
        when another process hands over a game of one of them."""
        self.shard_count, self.mine = shard_count, frozenset(shard_ids)
        self._wake = wake
        if not self.leases.shared:
            return
        await self.renew()
        if not await self.db.on_signal(SIGNALS, self._heard):
            log.warning("cannot hear games handed over by other processes: they are found by the worker's poll")

    async def renew(self) -> None:
        """Hold this process's shards a while longer (one write transaction for all of them)."""
        await self.leases.claim_all([shard_lease(shard) for shard in sorted(self.mine)], SHARD_TTL)

    async def run(self) -> None:
        """Renew this process's shards until cancelled (a failed renewal is tried again)."""
        if not self.leases.shared:
            return
        while True:
            await asyncio.sleep(RENEW_EVERY)
            try:
                await self.renew()
            except Exception:
                log.warning("could not renew this process's shard leases", exc_info=True)

    async def release(self) -> None:
        """A clean stop: the shards' games go to whoever delivers next, without waiting for expiry."""
        if self.leases.shared:
            for shard in sorted(self.mine):
                await self.leases.release(shard_lease(shard))

    def owner_shard(self, guild_id: int | None) -> int | None:
        """The shard whose process must deliver a game of ``guild_id``; None when it is this one's
        (not sharded across processes, no server, or a shard run here)."""
        if not self.sharded or guild_id is None or self.shard_count is None:
            return None
        shard = shard_of(guild_id, self.shard_count)
        return None if shard in self.mine else shard

    async def elsewhere(self, guild_id: int | None) -> int | None:
        """The shard to hand a game of ``guild_id`` over to: another live process runs it. None:
        deliver it here (ours, or its process is dead: the fallback)."""
        shard = self.owner_shard(guild_id)
        if shard is None:
            return None
        holder = await self.leases.holder(shard_lease(shard))
        return shard if holder is not None and holder != self.leases.owner else None

    async def hand_over(self, game_id: int, shard: int) -> None:
        """Wake the owner of ``shard`` to deliver ``game_id`` now (its rows are in the outbox)."""
        if not await self.db.signal(SIGNALS, f"{shard} {game_id}"):
            log.info("game %s handed to shard %s without a signal: its worker's poll finds it", game_id, shard)

    async def theirs(self, games: Sequence[tuple[int, int | None]]) -> set[int]:
        """Of ``games`` (game, guild), those another live process must deliver (one read)."""
        owners = {game: shard for game, guild in games if (shard := self.owner_shard(guild)) is not None}
        if not owners:
            return set()
        live = await self.leases.holders(SHARD_PREFIX)
        return {game for game, shard in owners.items() if live.get(shard_lease(shard), self.leases.owner)
                != self.leases.owner}

    def _heard(self, payload: str) -> None:
        try:
            shard, game = (int(part) for part in payload.split())
        except ValueError:
            log.warning("an unreadable hand-over signal: %r", payload)
            return
        if shard in self.mine and self._wake is not None:
            self._wake(game)


__all__ = ["RENEW_EVERY", "SHARD_TTL", "SIGNALS", "ShardOwners", "shard_lease", "shard_of"]
