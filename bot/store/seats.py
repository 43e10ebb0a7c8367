"""Seats: who sits where in a game, joining and leaving a lobby, an AI taking a seat over."""

from __future__ import annotations

from bot.store.lobbies import LobbyError
from bot.store.records import AiLevel, SeatRecord
from bot.store.rows import Rows, _model
from engine.core.text import N_


class SeatRows(Rows):
    """A game's seats."""

    async def seats(self, game_id: int) -> list[SeatRecord]:
        rows = await self.db.read_all("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        return [_model(SeatRecord, row, f"seat of game {game_id}") for row in rows]

    async def add_seat(
        self, game_id: int, *, user_id: int | None = None, ai_level: AiLevel | None = None, limit: int,
        name: str = "",
    ) -> int:
        """Seat a player in a lobby; returns the seat number."""
        async with self.db.transaction() as conn:
            row = await conn.fetch_one("SELECT status FROM games WHERE id = ?", (game_id,))
            if row is None or row["status"] != "lobby":
                raise LobbyError(N_("This game is no longer taking players."))
            counts = await conn.fetch_one(
                "SELECT COUNT(*) AS n, MAX(seat) AS top,"
                " COUNT(CASE WHEN user_id = ? THEN 1 END) AS mine FROM seats WHERE game_id = ?",
                (user_id, game_id),
            )
            assert counts is not None
            if user_id is not None and counts["mine"]:
                raise LobbyError(N_("You are already in this game: wait for others to join or add an AI player, "
                                    "then press Start."))
            if counts["n"] >= limit:
                raise LobbyError(N_("This game is full ({limit} players)."), limit=limit)
            seat = 0 if counts["top"] is None else int(counts["top"]) + 1
            await conn.execute(
                "INSERT INTO seats (game_id, seat, user_id, ai_level, name, joined_at) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seat, user_id, ai_level, name, self.db.now()),
            )
            await conn.execute("UPDATE games SET updated_at = ?, revision = revision + 1 WHERE id = ?",
                               (self.db.now(), game_id))
            return seat

    async def remove_seat(self, game_id: int, seat: int) -> None:
        """Leave a lobby; later seats move up so seat numbers stay 0..n-1."""
        async with self.db.transaction() as conn:
            row = await conn.fetch_one("SELECT status FROM games WHERE id = ?", (game_id,))
            if row is None or row["status"] != "lobby":
                raise LobbyError(N_("The game has started; use /pyramid resign instead."))
            if await conn.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat)) == 0:
                raise LobbyError(N_("That seat is empty."))
            later = [int(r["seat"]) for r in await conn.fetch_all(
                "SELECT seat FROM seats WHERE game_id = ? AND seat > ? ORDER BY seat", (game_id, seat))]
            for old in later:
                await conn.execute("UPDATE seats SET seat = ? WHERE game_id = ? AND seat = ?", (old - 1, game_id, old))
            await conn.execute("UPDATE games SET revision = revision + 1 WHERE id = ?", (game_id,))

    async def set_seat_ai(self, game_id: int, seat: int, ai_level: AiLevel | None, *, resigned: bool = False) -> None:
        """Hand a seat to an AI (timeout, resignation) or back to its human."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE seats SET ai_level = ?, resigned = ? WHERE game_id = ? AND seat = ?",
                (ai_level, int(resigned), game_id, seat),
            )
            await conn.execute("UPDATE games SET revision = revision + 1 WHERE id = ?", (game_id,))
