"""The move log and its snapshots.

The move log is the source of truth. ``append_move`` relies on the (game, seq)
primary key: two clicks racing to write the same move number cannot both win, so a
move is never applied twice."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from bot.store.clocks import write_bank
from bot.store.database import Conflict
from bot.store.outbox import Announcement, insert_announcements
from bot.store.records import CorruptRecord, GameStatus, MoveRecord
from bot.store.rows import Rows, _loads, _model
from bot.store.tallies import count_finished
from bot.store.undos import keep_before, note_move


class DuplicateMove(Exception):
    """Move number N was already written: someone else's click got there first."""


class MoveRows(Rows):
    """The move log: each move written with its snapshot, its outbox rows and the mover's bank, in one transaction."""

    async def moves(self, game_id: int) -> list[MoveRecord]:
        rows = await self.db.read_all("SELECT * FROM moves WHERE game_id = ? ORDER BY seq", (game_id,))
        records = [_model(MoveRecord, row, f"move log of game {game_id}") for row in rows]
        if [m.seq for m in records] != list(range(1, len(records) + 1)):
            raise CorruptRecord(f"The move log of game {game_id} has gaps and cannot be replayed.")
        return records

    async def revision(self, game_id: int) -> int | None:
        """How many times the game has changed (moves, seats, status): a process that
        keeps it in memory compares this to notice another process's writes. None: no such game."""
        row = await self.db.read_one("SELECT revision FROM games WHERE id = ?", (game_id,))
        return int(row[0]) if row is not None else None

    async def move_count(self, game_id: int) -> int:
        row = await self.db.read_one("SELECT COALESCE(MAX(seq), 0) FROM moves WHERE game_id = ?", (game_id,))
        return int(row[0]) if row else 0

    async def append_move(
        self,
        game_id: int,
        seq: int,
        seat: int,
        move: str,
        *,
        actor_id: int | None,
        snapshot: Mapping[str, Any] | None = None,
        status: GameStatus | None = None,
        result: Mapping[str, Any] | None = None,
        announcements: Sequence[Announcement] = (),
        bank: tuple[int, float] | None = None,
        note: str | None = None,
        undos: int | None = None,
    ) -> str:
        """Write move ``seq`` (and, atomically with it, the snapshot, any status
        change it causes, the outbox rows that announce it and ``bank``, the mover's
        new time bank as (seat, seconds): a move is never committed without them);
        returns the time written as the game's ``updated_at``.
        Raises :class:`DuplicateMove` if ``seq`` is taken, or (``undos``: the game's count of moves
        taken back when the position was read) if a move was taken back since: the log can shrink
        (``bot.store.undos``), so a free ``seq`` alone does not prove the position current."""
        now = self.db.now()
        async with self.db.transaction() as conn:
            try:
                await conn.execute(
                    "INSERT INTO moves (game_id, seq, seat, move, actor_id, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, seq, seat, move, actor_id, now),
                )
            except Conflict as exc:
                raise DuplicateMove(f"Move {seq} of game {game_id} has already been made.") from exc
            # what this move changes, as it stood: an undo puts it back (bot/store/undos.py)
            await keep_before(conn, game_id, seq, seat if bank is None else bank[0], banked=bank is not None)
            if snapshot is not None:
                await conn.execute(
                    "INSERT INTO snapshots (game_id, seq, position) VALUES (?, ?, ?)"
                    " ON CONFLICT(game_id) DO UPDATE SET seq = excluded.seq, position = excluded.position",
                    (game_id, seq, json.dumps(dict(snapshot))),
                )
            if await conn.execute(
                "UPDATE games SET updated_at = ?, status = COALESCE(?, status), result = COALESCE(?, result),"
                " revision = revision + 1 WHERE id = ? AND (CAST(? AS INTEGER) IS NULL OR undos = ?)",
                (now, status, json.dumps(dict(result)) if result is not None else None, game_id, undos, undos),
            ) != 1:  # a move was taken back since the mover's position was read (another process): stale
                raise DuplicateMove(f"Game {game_id} changed under move {seq}: a move was taken back.")
            await insert_announcements(conn, game_id, announcements, now)
            if status == "finished":  # the final move: its number is written once, so the game counts once
                await count_finished(conn, game_id)
            if note is not None:  # the bot made it for the player: 'auto' or 'forecast' (bot/store/undos.py)
                await note_move(conn, game_id, seq, note)
            if bank is not None:
                await write_bank(conn, game_id, *bank)
        return now

    async def snapshot(self, game_id: int) -> tuple[int, dict[str, Any]] | None:
        row = await self.db.read_one("SELECT seq, position FROM snapshots WHERE game_id = ?", (game_id,))
        if row is None:
            return None
        position = _loads(row["position"], f"snapshot of game {game_id}")
        if not isinstance(position, dict):
            raise CorruptRecord(f"The stored snapshot of game {game_id} is damaged.")
        return int(row["seq"]), position
