"""Automatic backups: one every ``PYRAMID_BACKUP_HOURS``, the newest ``PYRAMID_BACKUP_KEEP`` kept.

The schedule reads the time only from the injected clock and remembers nothing but
the files themselves (their names carry when they were taken), so a restart does
not take an extra backup, a bot that was down for a week takes one as it starts,
and tests move the clock instead of waiting a day.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from datetime import datetime, timedelta
from pathlib import Path

from bot.ops.backup import BackupError, backup_name, list_backups, prune, take_backup
from bot.store import Clock

log = logging.getLogger(__name__)

#: After a failed backup, wait this long before trying again (not every poll).
RETRY_AFTER = timedelta(hours=1)


class BackupSchedule:
    def __init__(self, database: Path, folder: Path, *, every: timedelta, keep: int, clock: Clock,
                 poll_seconds: float = 60.0) -> None:
        self.database = database
        self.folder = folder
        self.every = every
        self.keep = keep
        self.clock = clock
        self.poll_seconds = poll_seconds
        self._failed_at: datetime | None = None
        #: When the newest backup of this database was taken (None: there is none yet).
        self.last_success: datetime | None = self._newest()

    def _newest(self) -> datetime | None:
        backups = list_backups(self.database, self.folder)
        return backups[-1][0] if backups else None

    def due(self) -> bool:
        now = self.clock()
        if self._failed_at is not None and now - self._failed_at < RETRY_AFTER:
            return False
        last = self._newest()
        return last is None or now - last >= self.every

    async def tick(self) -> Path | None:
        """Take a backup if one is due, then prune; returns the new backup, if any."""
        if not self.due():
            return None
        now = self.clock()
        target = self.folder / backup_name(self.database, now)
        try:
            taken = await asyncio.to_thread(take_backup, self.database, target)
            gone = await asyncio.to_thread(prune, self.database, self.folder, self.keep)
        except (BackupError, OSError, sqlite3.Error) as exc:
            self._failed_at = now
            log.error("automatic backup to %s failed (retrying in %s): %s", target, RETRY_AFTER, exc)
            return None
        self._failed_at = None
        self.last_success = now
        log.info("backed up %s to %s (%d games); %d old backups removed", self.database, taken.path, taken.games,
                 len(gone))
        return taken.path

    async def run(self) -> None:
        """Forever: a backup whenever one is due (checked every ``poll_seconds``)."""
        while True:
            await self.tick()
            await asyncio.sleep(self.poll_seconds)
