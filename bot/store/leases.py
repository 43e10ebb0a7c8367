"""Leases: which bot process does a piece of background work right now.

Several processes share one PostgreSQL database, and each runs the same background
loops (announcement delivery, AI turns, the reminder sweep). Before working on a game
a process claims that work's lease; a claim succeeds only when nobody holds it or the
holder's lease has expired, so two live processes never do the same work at once, and
the work of a process that died is taken up once its lease runs out. On SQLite, with
one process, every claim simply succeeds without a write.

Expiry is judged on the database's times (``Database.now``, ISO text that sorts as
time), so every process must keep its clock in sync (NTP), as servers do.
"""

from __future__ import annotations

import os
import secrets
import socket
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from bot.store.database import Database


def process_name() -> str:
    """This process, as a lease holder: host, pid and a random part (unique per start)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class LeaseStore:
    def __init__(self, db: Database, owner: str | None = None, *, shared: bool | None = None) -> None:
        self.db = db
        self.owner = owner if owner is not None else process_name()
        #: Whether other processes may share the database (PostgreSQL). On SQLite the
        #: bot is alone by construction (``bot.ops.running``), so claims write nothing.
        self.shared = db.dialect == "postgresql" if shared is None else shared

    async def claim(self, name: str, ttl: timedelta) -> bool:
        """Take (or extend) the lease ``name`` for ``ttl``; False while another holder's is live."""
        return name in await self.claim_all([name], ttl)

    async def claim_all(self, names: Iterable[str], ttl: timedelta) -> set[str]:
        """:meth:`claim` for each of ``names``, in one write transaction (writes are serialized:
        one turn of the write lock, not one per lease); returns the names now held."""
        wanted = list(dict.fromkeys(names))
        if not self.shared:
            return set(wanted)
        now = self.db.now()
        until = (datetime.fromisoformat(now) + ttl).astimezone(UTC).isoformat(timespec="seconds")
        held: set[str] = set()
        async with self.db.transaction() as conn:
            for name in wanted:
                if await conn.execute(
                    "INSERT INTO leases (name, owner, expires_at) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE SET"
                    " owner = excluded.owner, expires_at = excluded.expires_at"
                    " WHERE leases.owner = excluded.owner OR leases.expires_at <= ?",
                    (name, self.owner, until, now),
                ) == 1:
                    held.add(name)
        return held

    async def release(self, name: str) -> None:
        """Give the lease back (only if this process still holds it)."""
        if not self.shared:
            return
        async with self.db.transaction() as conn:
            await conn.execute("DELETE FROM leases WHERE name = ? AND owner = ?", (name, self.owner))

    async def holder(self, name: str) -> str | None:
        """Who holds a live lease ``name`` (None: nobody)."""
        row = await self.db.read_one("SELECT owner FROM leases WHERE name = ? AND expires_at > ?",
                                     (name, self.db.now()))
        return str(row[0]) if row is not None else None

    async def holders(self, prefix: str) -> dict[str, str]:
        """Live leases whose names start with ``prefix``: name → holder (one read)."""
        rows = await self.db.read_all("SELECT name, owner FROM leases WHERE name LIKE ? AND expires_at > ?",
                                      (prefix + "%", self.db.now()))
        return {str(row[0]): str(row[1]) for row in rows}

    async def live_count(self, prefix: str) -> int:
        """How many live leases have names starting with ``prefix`` (one per process, for shares)."""
        row = await self.db.read_one("SELECT COUNT(*) FROM leases WHERE name LIKE ? AND expires_at > ?",
                                     (prefix + "%", self.db.now()))
        return int(row[0]) if row is not None else 0

    async def purge_expired(self) -> int:
        """Forget leases that ran out long ago (their work is done or taken up)."""
        cutoff = (datetime.fromisoformat(self.db.now()) - timedelta(days=1)).astimezone(UTC).isoformat(
            timespec="seconds")
        async with self.db.transaction() as conn:
            return await conn.execute("DELETE FROM leases WHERE expires_at < ?", (cutoff,))
