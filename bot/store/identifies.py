"""The gateway logins of every process on the database (table ``gateway_identifies``, migration 0020).

Taking a turn is one check-then-write: "has this bucket had an IDENTIFY in the last ``spacing`` seconds? if not,
this one is it". It runs in a write transaction, which the store serializes across processes (SQLite's single
writer; PostgreSQL's advisory write lock, ``bot.store.postgres``), so two processes can never both see the bucket
free. That lock is held for the few milliseconds of the check, is released at commit or when the connection dies
(a killed process holds nothing), and needs no expiry, unlike a lease row. The turn's time is then a row, not a
lock: the next process waits out the spacing from it, whichever process it is, and a restarted process finds its
own shards' earlier starts there to slow a crash loop.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.store.database import Database

#: How long rows are kept: the day's start limit is all they are read for, and a margin.
KEEP_SECONDS = 2 * 86_400.0


class IdentifyLog:
    def __init__(self, db: Database, owner: str) -> None:
        self.db = db
        self.owner = owner

    async def take_turn(self, shard_id: int, bucket: int, now: float, spacing: float) -> float:
        """Record an IDENTIFY of ``shard_id`` at ``now`` (Unix seconds) when ``bucket``'s last one is at least
        ``spacing`` seconds old, and return 0; else record nothing and return the seconds left to wait."""
        async with self.db.transaction() as tx:
            row = await tx.fetch_one("SELECT MAX(sent_at) FROM gateway_identifies WHERE bucket = ?", (bucket,))
            last = row[0] if row is not None else None
            if last is not None and now < float(last) + spacing:
                return float(last) + spacing - now
            await tx.execute(
                "INSERT INTO gateway_identifies (shard_id, bucket, owner, sent_at) VALUES (?, ?, ?, ?)",
                (shard_id, bucket, self.owner, now),
            )
            return 0.0

    async def starts_since(self, shard_ids: Iterable[int], since: float) -> int:
        """The most IDENTIFYs any one of ``shard_ids`` has had since ``since`` (Unix seconds)."""
        ids = sorted(set(shard_ids))
        if not ids:
            return 0
        marks = ", ".join("?" for _ in ids)
        row = await self.db.read_one(
            f"SELECT MAX(n) FROM (SELECT COUNT(*) AS n FROM gateway_identifies WHERE sent_at >= ? "
            f"AND shard_id IN ({marks}) GROUP BY shard_id) AS counts", (since, *ids))
        return int(row[0]) if row is not None and row[0] is not None else 0

    async def last_sent(self, shard_id: int) -> float | None:
        row = await self.db.read_one("SELECT MAX(sent_at) FROM gateway_identifies WHERE shard_id = ?", (shard_id,))
        return float(row[0]) if row is not None and row[0] is not None else None

    async def forget_before(self, before: float) -> int:
        async with self.db.transaction() as tx:
            return await tx.execute("DELETE FROM gateway_identifies WHERE sent_at < ?", (before,))
