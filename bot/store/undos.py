"""Taking a move back, in one transaction (issue #41; the rule is ``engine.core.undo``, the
checks ``bot.forecasts.undo``).

The move leaves the log (records, ratings, replays and rebuilds read the log, so none of
them ever sees it), the snapshot goes back to the position before it, the mover's time
bank and the game's ``updated_at`` to what they were (kept by :func:`keep_before` in the
move's own transaction), and
the announcements change with it: the undone move's rows go (delivered or not, so the
move made again is announced afresh), the cards that showed it lose their buttons, and a
fresh board card and the hands of the mover and the next player are queued, all in the
same transaction. A crash before the commit leaves the move as it was; after it, the
outbox delivers the rest, once (``bot.core.announcements.nonce`` names each post
with the game's count of undos).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from bot.store.clocks import write_bank
from bot.store.database import Conflict, Database, Tx
from bot.store.outbox import Announcement, insert_announcements

UndoMode = Literal["off", "casual", "all"]
#: A server without a row: moves may be taken back in games neither rated nor a shared deal's.
DEFAULT_MODE: UndoMode = "casual"


class UndoRaced(Exception):
    """The move is no longer the last one (someone moved, or took it back, first)."""


async def keep_before(conn: Tx, game_id: int, seq: int, seat: int, *, banked: bool) -> None:
    """Note what stands before move ``seq`` (by ``seat``) changes it, inside the move's transaction
    and before its other writes: the game's ``updated_at`` and, when the move rewrites the seat's
    bank (``banked``), that bank (NULL: no row, a full bank)."""
    await conn.execute(
        "INSERT INTO before_moves (game_id, seq, seat, updated_before, banked, bank_seconds) VALUES (?, ?, ?,"
        " (SELECT updated_at FROM games WHERE id = ?), ?,"
        " (SELECT bank_seconds FROM seat_clocks WHERE game_id = ? AND seat = ?))"
        " ON CONFLICT(game_id, seq) DO UPDATE SET seat = excluded.seat, updated_before = excluded.updated_before,"
        " banked = excluded.banked, bank_seconds = excluded.bank_seconds",
        (game_id, seq, seat, game_id, int(banked), game_id, seat),
    )


async def note_move(conn: Tx, game_id: int, seq: int, note: str) -> None:
    """Note how the bot made move ``seq`` for its player ('auto', 'forecast'), in the move's transaction."""
    await conn.execute("INSERT INTO move_notes (game_id, seq, note) VALUES (?, ?, ?)"
                       " ON CONFLICT(game_id, seq) DO UPDATE SET note = excluded.note", (game_id, seq, note))


async def move_notes(db: Database, game_id: int) -> dict[int, str]:
    """How the bot made the moves it made for their players, by move number."""
    rows = await db.read_all("SELECT seq, note FROM move_notes WHERE game_id = ?", (game_id,))
    return {int(row["seq"]): str(row["note"]) for row in rows}


class UndoStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def mode(self, guild_id: int | None) -> UndoMode:
        """The server's setting (games outside a server: the default)."""
        if guild_id is None:
            return DEFAULT_MODE
        row = await self.db.read_one("SELECT mode FROM undo_settings WHERE guild_id = ?", (guild_id,))
        value = str(row[0]) if row is not None else DEFAULT_MODE
        return value if value in ("off", "casual", "all") else DEFAULT_MODE  # type: ignore[return-value]

    async def set_mode(self, guild_id: int, mode: UndoMode) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO undo_settings (guild_id, mode) VALUES (?, ?)"
                " ON CONFLICT(guild_id) DO UPDATE SET mode = excluded.mode", (guild_id, mode))

    async def undone_since(self, game_id: int, seat: int, seq: int) -> bool:
        """Whether ``seat`` took a move numbered ``seq`` or later back (``seq``: where its turn began:
        one undo per turn)."""
        return await self.db.read_one("SELECT 1 FROM undos WHERE game_id = ? AND seat = ? AND seq >= ? LIMIT 1",
                                      (game_id, seat, seq)) is not None

    async def undone_after(self, game_id: int, version: int, discord_id: int) -> bool:
        """Whether a move numbered ``version`` or lower was taken back by an interaction later than
        the Discord id ``discord_id`` (a message's: it was shown before that undo)."""
        return await self.db.read_one(
            "SELECT 1 FROM undos WHERE game_id = ? AND seq <= ? AND discord_id > ? LIMIT 1",
            (game_id, version, discord_id)) is not None

    async def take_back(self, game_id: int, *, seq: int, seat: int, user_id: int | None, move: str,
                        snapshot: Mapping[str, Any], hands: Sequence[int], channel_id: int | None,
                        strip: bool = True, discord_id: int | None = None) -> int:
        """Take move ``seq`` (``seat``'s ``move``, the last of the log) back; returns the game's
        count of undos now. ``snapshot``: the position before it; ``hands``: the seats whose
        hand DMs must be sent again; ``strip``: take the buttons off the cards that showed the move
        (not where the bot cannot edit: a game played only through a user install); ``discord_id``:
        the interaction that asked (clicks on messages older than it are stale). Raises
        :class:`UndoRaced` if it is not the last move any more or was taken back already."""
        now = self.db.now()
        back = seq - 1
        async with self.db.transaction() as conn:
            try:
                await conn.execute(
                    "INSERT INTO undos (game_id, seq, seat, user_id, move, undone_at, discord_id)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)", (game_id, seq, seat, user_id, move, now, discord_id))
            except Conflict as exc:
                raise UndoRaced(f"Move {seq} of game {game_id} was taken back already.") from exc
            deleted = await conn.execute(
                "DELETE FROM moves WHERE game_id = ? AND seq = ? AND seat = ? AND move = ?"
                " AND NOT EXISTS (SELECT 1 FROM moves later WHERE later.game_id = ? AND later.seq > ?)"
                " AND EXISTS (SELECT 1 FROM games g WHERE g.id = ? AND g.status = 'active')",
                (game_id, seq, seat, move, game_id, seq, game_id))
            if deleted != 1:
                raise UndoRaced(f"Move {seq} of game {game_id} is no longer the last one.")
            await conn.execute(
                "INSERT INTO snapshots (game_id, seq, position) VALUES (?, ?, ?)"
                " ON CONFLICT(game_id) DO UPDATE SET seq = excluded.seq, position = excluded.position",
                (game_id, back, json.dumps(dict(snapshot))))
            updated = await self._back_as_before(conn, game_id, seq)
            await conn.execute("DELETE FROM move_notes WHERE game_id = ? AND seq = ?", (game_id, seq))
            # a forecast set after the move counted the others' moves from it: gone with it
            await conn.execute("DELETE FROM forecasts WHERE game_id = ? AND after_seq >= ?", (game_id, seq))
            await conn.execute("UPDATE games SET revision = revision + 1, undos = undos + 1, updated_at = ?"
                               " WHERE id = ?", (updated or now, game_id))
            row = await conn.fetch_one("SELECT undos FROM games WHERE id = ?", (game_id,))
            take = int(row["undos"]) if row is not None else 1
            await self._announce(conn, game_id, seq, seat, hands, channel_id, now, strip)
            return take

    @staticmethod
    async def _back_as_before(conn: Tx, game_id: int, seq: int) -> str | None:
        """Put the mover's bank back as it stood before move ``seq``; returns the game's
        ``updated_at`` then (None: not noted, a move from before migration 0019)."""
        row = await conn.fetch_one(
            "SELECT seat, updated_before, banked, bank_seconds FROM before_moves WHERE game_id = ? AND seq = ?",
            (game_id, seq))
        if row is None:
            return None
        if row["banked"] and row["bank_seconds"] is None:
            await conn.execute("DELETE FROM seat_clocks WHERE game_id = ? AND seat = ?", (game_id, row["seat"]))
        elif row["banked"]:
            await write_bank(conn, game_id, int(row["seat"]), float(row["bank_seconds"]))
        await conn.execute("DELETE FROM before_moves WHERE game_id = ? AND seq = ?", (game_id, seq))
        return str(row["updated_before"])

    @staticmethod
    async def _announce(conn: Tx, game_id: int, seq: int, seat: int, hands: Sequence[int],
                        channel_id: int | None, now: str, strip: bool) -> None:
        """The outbox and message records as the undo leaves them (see the module)."""
        back = seq - 1
        shown = await conn.fetch_all(
            "SELECT role, seat, channel_id, message_id FROM messages WHERE game_id = ? AND version >= ?",
            (game_id, seq))
        await conn.execute("DELETE FROM outbox WHERE game_id = ? AND version >= ?", (game_id, seq))
        # The cards of the move taken back lose their buttons (a click there would act on a position
        # that never was); the next cards are recorded over them, so they count as older.
        strips = [Announcement(kind="strip", version=seq, seat=int(r["seat"]) if r["role"] == "hand" else -1,
                               channel_id=int(r["channel_id"]),
                               payload={"channel_id": int(r["channel_id"]), "message_id": int(r["message_id"])})
                  for r in shown if strip and r["role"] in ("board", "hand")]
        await insert_announcements(conn, game_id, strips, now)
        await conn.execute("UPDATE messages SET version = ? WHERE game_id = ? AND version >= ?",
                           (back - 1, game_id, back))
        old = await conn.fetch_one(
            "SELECT payload FROM outbox WHERE game_id = ? AND version = ? AND kind = 'board' AND seat = -1",
            (game_id, back))
        payload: dict[str, Any] = {}
        if old is not None:
            try:
                kept = json.loads(old["payload"] or "{}")
            except (TypeError, ValueError):
                kept = {}
            if isinstance(kept, dict) and isinstance(kept.get("events"), list):
                payload["events"] = kept["events"]  # that move's story, for later boards' stories
        payload["undone"] = {"seat": seat}
        rows = [Announcement(kind="board", version=back, channel_id=channel_id, payload=payload),
                *(Announcement(kind="hand", version=back, seat=s) for s in dict.fromkeys(hands))]
        for item in rows:
            await conn.execute(
                "INSERT INTO outbox (game_id, version, kind, seat, payload, channel_id, created_at, due_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(game_id, version, kind, seat) DO UPDATE SET"
                " payload = excluded.payload, done_at = NULL, outcome = NULL, due_at = excluded.due_at,"
                " blocked = NULL, attempts = 0, uncertain = 0, last_error = NULL",
                (game_id, item.version, item.kind, item.seat, json.dumps(item.payload), item.channel_id, now, now))
