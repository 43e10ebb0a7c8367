"""Players' direct messages: found closed, and tried again a day later or when they use the bot."""

from __future__ import annotations

from datetime import UTC, timedelta
from typing import Literal

from bot.store.rows import Rows

#: How long closed DMs are left alone before the bot tries them again.
DM_RETRY = timedelta(hours=24)


class DmRows(Rows):
    """Whose DMs are closed, and when to try them again."""

    async def dm_status(self, user_id: int) -> Literal["open", "closed", "retry"]:
        """'open' (nothing recorded), 'closed' (found closed, not yet time to try
        again) or 'retry' (found closed, but worth trying again now)."""
        row = await self.db.rows.get("dm_closed", user_id, lambda: self.db.read_one(
            "SELECT * FROM dm_closed WHERE user_id = ?", (user_id,)))
        if row is None:
            return "open"
        return "closed" if row["retry_at"] is not None and str(row["retry_at"]) > self.db.now() else "retry"

    async def mark_dm_closed(self, user_id: int, closed: bool = True, *, retry_after: timedelta = DM_RETRY) -> bool:
        """Record closed DMs, to be tried again after ``retry_after`` (or clear the
        record when a DM went through). Returns True when this is news: the first
        time since the DMs were last open, when the player should be told once."""
        async with self.db.transaction() as conn:
            if not closed:
                await conn.execute("DELETE FROM dm_closed WHERE user_id = ?", (user_id,))
                return False
            known = await conn.fetch_one("SELECT 1 FROM dm_closed WHERE user_id = ?", (user_id,)) is not None
            retry_at = (self.db.clock() + retry_after).astimezone(UTC).isoformat(timespec="seconds")
            await conn.execute(
                "INSERT INTO dm_closed (user_id, noticed_at, retry_at) VALUES (?, ?, ?)"
                " ON CONFLICT(user_id) DO UPDATE SET retry_at = excluded.retry_at",
                (user_id, self.db.now(), retry_at),
            )
            return not known

    async def closed_dm_users(self) -> set[int]:
        return {int(row[0]) for row in await self.db.read_all("SELECT user_id FROM dm_closed")}

    async def retry_dms(self, user_id: int) -> bool:
        """The player did something with the bot: if their DMs were marked closed,
        try them again on the next DM (they may have opened them). Returns whether
        there was a record to refresh."""
        if await self.db.read_one(
            "SELECT 1 FROM dm_closed WHERE user_id = ? AND retry_at > ?", (user_id, self.db.now())
        ) is None:
            return False  # nothing recorded (the usual case): no write
        async with self.db.transaction() as conn:
            return await conn.execute(
                "UPDATE dm_closed SET retry_at = ? WHERE user_id = ?", (self.db.now(), user_id)
            ) == 1
