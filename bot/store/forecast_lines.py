"""Forecast lines (``forecasts``, migration 0019): private to their seat until one is played
(nothing here is read by records, cards or alt text)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from bot.store.database import Database
from engine.core.forecast import Line


@dataclass(frozen=True)
class Forecast:
    """A seat's lines, set after move ``after_seq``."""

    seat: int
    after_seq: int
    lines: tuple[Line, ...]


class ForecastStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def set(self, game_id: int, seat: int, after_seq: int, lines: Sequence[Line]) -> None:
        """Replace the seat's lines (none: its forecast is cleared)."""
        now = self.db.now()
        async with self.db.transaction() as conn:
            await conn.execute("DELETE FROM forecasts WHERE game_id = ? AND seat = ?", (game_id, seat))
            for number, line in enumerate(lines, start=1):
                await conn.execute(
                    "INSERT INTO forecasts (game_id, seat, line, after_seq, others, answer, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (game_id, seat, number, after_seq, json.dumps(list(line.others)), line.answer, now))

    async def of_game(self, game_id: int) -> list[Forecast]:
        """Every seat's forecast in the game (a damaged line is left out)."""
        rows = await self.db.read_all(
            "SELECT seat, line, after_seq, others, answer FROM forecasts WHERE game_id = ? ORDER BY seat, line",
            (game_id,))
        found: dict[int, tuple[int, list[Line]]] = {}
        for row in rows:
            try:
                others = json.loads(row["others"])
            except (TypeError, ValueError):
                continue
            if not isinstance(others, list) or not all(isinstance(m, str) for m in others):
                continue
            seat = int(row["seat"])
            found.setdefault(seat, (int(row["after_seq"]), []))[1].append(Line(tuple(others), str(row["answer"])))
        return [Forecast(seat, after, tuple(lines)) for seat, (after, lines) in found.items()]

    async def drop(self, game_id: int, seat: int) -> bool:
        """Clear the seat's forecast; returns whether there was one."""
        async with self.db.transaction() as conn:
            return await conn.execute("DELETE FROM forecasts WHERE game_id = ? AND seat = ?", (game_id, seat)) > 0
