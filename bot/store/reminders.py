"""Which turn of a game was reminded already (one reminder a turn)."""

from __future__ import annotations

from bot.store.rows import Rows


class ReminderRows(Rows):
    """The reminders sent, one a turn."""

    async def reminded(self, game_id: int, seq: int) -> bool:
        return await self.db.read_one(
            "SELECT 1 FROM reminders WHERE game_id = ? AND seq = ? AND reminded_at IS NOT NULL", (game_id, seq)
        ) is not None

    async def mark_reminded(self, game_id: int, seq: int) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO reminders (game_id, seq, reminded_at) VALUES (?, ?, ?) ON CONFLICT(game_id)"
                " DO UPDATE SET seq = excluded.seq, reminded_at = excluded.reminded_at",
                (game_id, seq, self.db.now()),
            )
