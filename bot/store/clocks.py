"""The clock's rows: each seat's time bank (``seat_clocks``) and when the running turn
began. The bank is written with the move that changes it, in the move's transaction
(:func:`write_bank`, called by ``GameStore.append_move``), so a move and its clock
never part. A move's board, its hand DMs and the reminder sweep each ask for the same
bank and the same move's time: on SQLite both are kept in memory until a write to
their table (``Database.rows``)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.store.database import Database, Tx
from bot.store.records import CorruptRecord


async def write_bank(conn: Tx, game_id: int, seat: int, seconds: float) -> None:
    """Set a seat's bank, inside the caller's transaction."""
    await conn.execute(
        "INSERT INTO seat_clocks (game_id, seat, bank_seconds) VALUES (?, ?, ?)"
        " ON CONFLICT(game_id, seat) DO UPDATE SET bank_seconds = excluded.bank_seconds",
        (game_id, seat, float(seconds)),
    )


@dataclass(frozen=True)
class UpgradedTurn:
    """A game's turn that was running when the clock came (migration 0015): the move count
    then (``seq``), and when the old per-turn timeout began counting it (ISO text)."""

    seq: int
    started_at: str


@dataclass(frozen=True)
class OldQuiet:
    """A player's quiet hours as they stood when the clock came (local ``HH:MM``, IANA zone)."""

    starts: str
    ends: str
    zone: str


class ClockStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def bank(self, game_id: int, seat: int) -> float | None:
        """The seat's bank in seconds as its turn starts (None: never set, a full bank)."""
        row = await self.db.rows.get("seat_clocks", (game_id, seat), lambda: self.db.read_one(
            "SELECT bank_seconds FROM seat_clocks WHERE game_id = ? AND seat = ?", (game_id, seat)))
        if row is None:
            return None
        value = row[0]
        if not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
            raise CorruptRecord(f"The stored clock of seat {seat} in game {game_id} is damaged and cannot be read.")
        return float(value)

    async def set_bank(self, game_id: int, seat: int, seconds: float) -> None:
        async with self.db.transaction() as conn:
            await write_bank(conn, game_id, seat, seconds)

    async def move_time(self, game_id: int, seq: int) -> str | None:
        """When move ``seq`` was made (None: there is no such move)."""
        row = await self.db.rows.get("move_times", (game_id, seq), lambda: self.db.read_one(
            "SELECT created_at FROM moves WHERE game_id = ? AND seq = ?", (game_id, seq)))
        return str(row[0]) if row is not None else None

    async def upgraded_turn(self, game_id: int) -> UpgradedTurn | None:
        """The game's turn that ran when the clock came (None: none did; never written since)."""
        row = await self.db.rows.get("clock_upgrade", ("turn", game_id), lambda: self.db.read_one(
            "SELECT seq, started_at FROM clock_upgrade_turns WHERE game_id = ?", (game_id,)))
        if row is None:
            return None
        return UpgradedTurn(seq=int(row[0]), started_at=str(row[1]))

    async def old_quiet(self, user_id: int) -> OldQuiet | None:
        """The player's quiet hours when the clock came (None: they had none)."""
        row = await self.db.rows.get("clock_upgrade", ("quiet", user_id), lambda: self.db.read_one(
            "SELECT starts, ends, zone FROM clock_upgrade_quiet WHERE user_id = ?", (user_id,)))
        return OldQuiet(str(row[0]), str(row[1]), str(row[2])) if row is not None else None
