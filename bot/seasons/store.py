"""The seasons' statements: a month's rated games of a server (by the index the ratings order
games with), and the champion cards posted (once each, by their key)."""

from __future__ import annotations

from bot.ratings import GameOutcome
from bot.store import Database
from bot.store.database import Conflict


class SeasonStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def outcomes(self, guild_id: int, kind: str, start: str, end: str) -> list[GameOutcome]:
        rows = await self.db.read_all(
            "SELECT outcome FROM rated_games WHERE kind = ? AND finished_at >= ? AND finished_at < ?"
            " AND guild_id = ? AND rated = 1 ORDER BY finished_at, game_id", (kind, start, end, guild_id))
        return [GameOutcome.model_validate_json(row[0]) for row in rows]

    async def played(self, start: str, end: str) -> list[tuple[int, str, int]]:
        """``(guild, game, channel)`` of every server and game with rated games in the span: the channel
        of the latest of them, where its champion is announced."""
        rows = await self.db.read_all(
            "SELECT r.guild_id, r.kind, g.channel_id, r.finished_at, r.game_id FROM rated_games r"
            " JOIN games g ON g.id = r.game_id WHERE r.finished_at >= ? AND r.finished_at < ?"
            " AND r.guild_id IS NOT NULL AND r.rated = 1 ORDER BY r.finished_at, r.game_id", (start, end))
        latest: dict[tuple[int, str], int] = {}
        for row in rows:
            latest[(int(row[0]), str(row[1]))] = int(row[2])
        return [(guild, kind, channel) for (guild, kind), channel in latest.items()]

    async def claim_card(self, guild_id: int, kind: str, season: str) -> bool:
        """The champion card of this season may be posted (True once, whoever asks)."""
        try:
            async with self.db.transaction() as conn:
                await conn.execute("INSERT INTO season_cards (guild_id, kind, season, posted_at) VALUES (?, ?, ?, ?)",
                                   (guild_id, kind, season, self.db.now()))
        except Conflict:
            return False
        return True
