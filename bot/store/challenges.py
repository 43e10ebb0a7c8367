"""Challenges: a deal many play, each in a game of their own; its games and entrants."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from bot.store.records import ChallengeRecord, GameRecord, SeatRecord
from bot.store.rows import Rows, _loads, _model


class ChallengeRows(Rows):
    """Challenges and their games."""

    async def challenge_games(self, challenge_id: int) -> list[GameRecord]:
        """The players' games of one challenge's deal."""
        return await self._games_where("challenge_id = ?", (challenge_id,))

    async def challenge_first_seats(self, challenge_id: int) -> dict[int, SeatRecord]:
        """The first seat of each game of one challenge's deal (its entrant), in one read."""
        rows = await self.db.read_all(
            "SELECT * FROM seats WHERE seat = 0 AND game_id IN (SELECT id FROM games WHERE challenge_id = ?)",
            (challenge_id,))
        seats = [_model(SeatRecord, row, f"seat of challenge {challenge_id}") for row in rows]
        return {s.game_id: s for s in seats}

    async def challenge_running(self, challenge_id: int) -> bool:
        """Whether a game of this challenge's deal is still a lobby or running (one indexed read)."""
        return await self.db.read_one(
            "SELECT 1 FROM games WHERE challenge_id = ? AND status IN ('lobby', 'active') LIMIT 1", (challenge_id,)
        ) is not None

    async def create_challenge(
        self, *, guild_id: int | None, channel_id: int, seed: int, options: Mapping[str, Any], created_by: int | None
    ) -> int:
        async with self.db.transaction() as conn:
            row = await conn.fetch_one(
                "INSERT INTO challenges (guild_id, channel_id, seed, options, created_by, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                (guild_id, channel_id, seed, json.dumps(dict(options)), created_by, self.db.now()),
            )
            assert row is not None
            return int(row[0])

    async def get_challenge(self, challenge_id: int) -> ChallengeRecord | None:
        row = await self.db.read_one("SELECT * FROM challenges WHERE id = ?", (challenge_id,))
        if row is None:
            return None
        data = dict(row)
        data["options"] = _loads(data["options"], f"options of challenge {challenge_id}")
        return _model(ChallengeRecord, data, f"challenge {challenge_id}")

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        async with self.db.transaction() as conn:
            await conn.execute("UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id))

    async def latest_challenge(self, channel_id: int) -> int | None:
        """The newest challenge opened in this channel, if any."""
        row = await self.db.read_one(
            "SELECT id FROM challenges WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        )
        return int(row[0]) if row is not None else None
