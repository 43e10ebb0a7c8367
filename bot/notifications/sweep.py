"""The notification sweep: the minute's batches and the daily digests, sent by one process at a time
(the ``notify`` lease, as the reminder sweep holds ``sweep``), and yesterday's log forgotten."""

from __future__ import annotations

import logging
from datetime import timedelta

from bot.core.tasks import sweep_forever
from bot.notifications.digest import Digests
from bot.notifications.gate import NotificationGate

log = logging.getLogger(__name__)

#: The lease of the notification sweep, and how long a dead sweeper keeps it.
SWEEP = "notify"
LEASE = timedelta(minutes=5)
#: Batches are due a minute after they begin: the sweep looks at least this often.
LONGEST_PAUSE = 30.0


class NotificationSweep:
    def __init__(self, gate: NotificationGate) -> None:
        self.gate = gate
        self.digests = Digests(gate)

    async def run(self) -> None:
        """Sweep until cancelled."""
        services = self.gate.services
        await sweep_forever(lambda: min(services.sweep_seconds, LONGEST_PAUSE), self.sweep, "the notification sweep")

    async def sweep(self) -> list[str]:
        """Send the batches and digests that are due; returns what went out (for logs and tests)."""
        gate = self.gate
        leases = gate.services.leases
        if not await leases.claim(SWEEP, LEASE):
            return []  # another process sweeps
        done: list[str] = []
        try:
            for user_id in await gate.store.held_players():
                try:
                    if await gate.flush(user_id):
                        done.append(f"batch:{user_id}")
                except Exception:  # one player's trouble never stops the others
                    log.exception("could not send the held notices of %s", user_id)
            done.extend(await self.digests.sweep())
            await gate.store.purge(gate.services.clock())
        finally:
            await leases.release(SWEEP)
        return done


__all__ = ["NotificationSweep"]
