"""Whether a player wants their forced moves played for them (``autoplay``, migration 0019):
for all their games (game 0) and per game, the game's choice first."""

from __future__ import annotations

from bot.store.database import Database

#: The row of a player's choice for all their games.
EVERY_GAME = 0


class AutoplayStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def wanted(self, user_id: int, game_id: int) -> bool:
        """The player's choice for this game, else for all their games, else no."""
        rows = await self.db.read_all(
            "SELECT game_id, enabled FROM autoplay WHERE user_id = ? AND game_id IN (?, ?)",
            (user_id, game_id, EVERY_GAME))
        chosen = {int(row["game_id"]): bool(row["enabled"]) for row in rows}
        return chosen.get(game_id, chosen.get(EVERY_GAME, False))

    async def choose(self, user_id: int, enabled: bool, game_id: int = EVERY_GAME) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO autoplay (user_id, game_id, enabled) VALUES (?, ?, ?)"
                " ON CONFLICT(user_id, game_id) DO UPDATE SET enabled = excluded.enabled",
                (user_id, game_id, int(enabled)))
