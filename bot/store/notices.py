"""Notices about blocked boards: given once per game and cause, claimed before they are posted."""

from __future__ import annotations

from bot.store.rows import Rows


class NoticeRows(Rows):
    """The notices told about blocked boards."""

    async def notice_given(self, game_id: int, cause: str) -> bool:
        """Whether the game's opener was told (or is being told) about ``cause``."""
        return await self.db.read_one(
            "SELECT 1 FROM blocked_notices WHERE game_id = ? AND cause = ?", (game_id, cause)
        ) is not None

    async def claim_notice(self, game_id: int, cause: str, how: str) -> bool:
        """Record that the opener is told about ``cause`` (``how``); False when someone
        recorded it first (they are telling already)."""
        async with self.db.transaction() as conn:
            return await conn.execute(
                "INSERT INTO blocked_notices (game_id, cause, told_at, told_how) VALUES (?, ?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                (game_id, cause, self.db.now(), how),
            ) == 1

    async def notice_told(self, game_id: int, cause: str, how: str) -> None:
        """The claimed notice went out, ``how`` (by DM, in which channel)."""
        async with self.db.transaction() as conn:
            await conn.execute("UPDATE blocked_notices SET told_how = ? WHERE game_id = ? AND cause = ?",
                               (how, game_id, cause))

    async def release_notice(self, game_id: int, cause: str) -> None:
        """The claimed notice reached nobody: the next refusal tries again."""
        async with self.db.transaction() as conn:
            await conn.execute("DELETE FROM blocked_notices WHERE game_id = ? AND cause = ?", (game_id, cause))
