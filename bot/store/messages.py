"""Messages the bot keeps editing: a game's board and hands, by role and seat."""

from __future__ import annotations

from bot.store.records import MessageRef
from bot.store.rows import Rows, _model


class MessageRows(Rows):
    """The messages of a game the bot edits later."""

    async def set_message(
        self, game_id: int, role: str, channel_id: int, message_id: int, *, seat: int = -1, version: int = 0
    ) -> MessageRef | None:
        """Record the current message for a role; returns the one it supersedes."""
        async with self.db.transaction() as conn:
            old = await conn.fetch_one(
                "SELECT * FROM messages WHERE game_id = ? AND role = ? AND seat = ?", (game_id, role, seat))
            await conn.execute(
                "INSERT INTO messages (game_id, role, seat, channel_id, message_id, version) VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT(game_id, role, seat) DO UPDATE SET channel_id = excluded.channel_id,"
                " message_id = excluded.message_id, version = excluded.version",
                (game_id, role, seat, channel_id, message_id, version),
            )
        return _model(MessageRef, old, f"message of game {game_id}") if old else None

    async def get_message(self, game_id: int, role: str, seat: int = -1) -> MessageRef | None:
        row = await self.db.read_one(
            "SELECT * FROM messages WHERE game_id = ? AND role = ? AND seat = ?", (game_id, role, seat)
        )
        return _model(MessageRef, row, f"message of game {game_id}") if row else None
