"""Every statement of the seeks and the queue (migrations 0018, 0021: the queue across servers)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.store import Database
from bot.store.database import Conflict, Tx
from bot.store.lobbies import insert_lobby

#: A match across servers still a lobby after this was left by a stopped bot: the sweep starts it.
UNSTARTED_AFTER = timedelta(minutes=1)


@dataclass(frozen=True)
class Seek:
    game_id: int
    guild_id: int
    user_id: int
    players: int
    ai_level: str | None
    fill_at: datetime | None


@dataclass(frozen=True)
class Entry:
    guild_id: int
    kind: str
    user_id: int
    name: str
    channel_id: int
    rating: float
    joined_at: datetime
    #: Opted in to be matched with players of other servers (``/pyramid queue across_servers:True``).
    across: bool = False
    #: The player's rating across servers (mu - 3 sigma; 0 for a newcomer); None unless ``across``.
    wide_rating: float | None = None


class SeekStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    # --- seeks --------------------------------------------------------------------
    async def add_seek(self, game_id: int, guild_id: int, user_id: int, players: int, ai_level: str | None,
                       fill_at: datetime | None) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO seeks (game_id, guild_id, user_id, players, ai_level, fill_at, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, guild_id, user_id, players, ai_level,
                 fill_at.isoformat(timespec="seconds") if fill_at else None, self.db.now()))

    async def open_seek_of(self, guild_id: int, user_id: int) -> int | None:
        """The game of the user's open seek in this server (one at a time)."""
        row = await self.db.read_one(
            "SELECT s.game_id FROM seeks s JOIN games g ON g.id = s.game_id WHERE s.guild_id = ? AND s.user_id = ?"
            " AND s.status = 'open' AND g.status = 'lobby'", (guild_id, user_id))
        return int(row[0]) if row is not None else None

    async def open_seeks(self) -> list[Seek]:
        rows = await self.db.read_all("SELECT * FROM seeks WHERE status = 'open' ORDER BY game_id")
        return [Seek(int(r["game_id"]), int(r["guild_id"]), int(r["user_id"]), int(r["players"]), r["ai_level"],
                     datetime.fromisoformat(r["fill_at"]) if r["fill_at"] else None) for r in rows]

    async def close_seek(self, game_id: int, status: str) -> bool:
        async with self.db.transaction() as conn:
            return await conn.execute("UPDATE seeks SET status = ? WHERE game_id = ? AND status = 'open'",
                                      (status, game_id)) == 1

    # --- the queue -------------------------------------------------------------------
    async def enter(self, entry: Entry) -> bool:
        """Into the queue; False when already in it: one entry per game and server, and an entry
        across servers is the player's only one for that game (checked in the writing transaction)."""
        try:
            async with self.db.transaction() as conn:
                clash = await conn.fetch_one(
                    "SELECT 1 FROM queue_entries WHERE kind = ? AND user_id = ? AND (across = 1 OR ? = 1)",
                    (entry.kind, entry.user_id, int(entry.across)))
                if clash is not None:
                    return False
                await _insert_entry(conn, entry)
        except Conflict:
            return False
        return True

    async def leave(self, guild_id: int, kind: str, user_id: int) -> bool:
        """Out of the queue for ``kind`` in this server, or across servers from any of them."""
        async with self.db.transaction() as conn:
            return await conn.execute(
                "DELETE FROM queue_entries WHERE kind = ? AND user_id = ? AND (guild_id = ? OR across = 1)",
                (kind, user_id, guild_id)) >= 1

    async def waiting(self) -> list[Entry]:
        rows = await self.db.read_all("SELECT * FROM queue_entries ORDER BY joined_at, user_id")
        return [Entry(int(r["guild_id"]), str(r["kind"]), int(r["user_id"]), str(r["name"]), int(r["channel_id"]),
                      float(r["rating"]), datetime.fromisoformat(r["joined_at"]), bool(r["across"]),
                      float(r["wide_rating"]) if r["wide_rating"] is not None else None) for r in rows]

    async def put_back(self, entry: Entry) -> bool:
        """``entry`` into the queue again as it was (its place by ``joined_at`` kept): a match
        across servers that could not reach the other player's DMs made no game."""
        return await self.enter(entry)

    async def match(self, first: Entry, second: Entry, options: dict[str, object], seed: int) -> int | None:
        """Both out of the queue and their game (a lobby with both seated) in one transaction; None
        when either had left (or was matched by another process) meanwhile: nothing is written."""
        try:
            return await self._match(first, second, options, seed)
        except _NotBoth:
            return None

    async def _match(self, first: Entry, second: Entry, options: dict[str, object], seed: int,
                     dms: tuple[int, int] | None = None) -> int:
        now = self.db.now()
        async with self.db.transaction() as conn:
            gone = 0
            for entry in (first, second):
                gone += await conn.execute(
                    "DELETE FROM queue_entries WHERE guild_id = ? AND kind = ? AND user_id = ?",
                    (entry.guild_id, entry.kind, entry.user_id))
            if gone != 2:
                raise _NotBoth
            if dms is None:
                game_id = await insert_lobby(conn, first.kind, created_by=first.user_id, name=first.name, now=now,
                                             guild_id=first.guild_id, channel_id=first.channel_id, options=options,
                                             seed=seed)
            else:  # across servers: no server, played in both players' DMs (the first's is its channel)
                game_id = await insert_lobby(conn, first.kind, created_by=first.user_id, name=first.name, now=now,
                                             guild_id=None, channel_id=dms[0], options=options, seed=seed)
                await conn.execute("UPDATE games SET seat_dms = 1 WHERE id = ?", (game_id,))
            await conn.execute("INSERT INTO seats (game_id, seat, user_id, ai_level, name, joined_at)"
                               " VALUES (?, 1, ?, NULL, ?, ?)", (game_id, second.user_id, second.name, now))
            return game_id

    async def match_across(self, first: Entry, second: Entry, options: dict[str, object], seed: int,
                           dms: tuple[int, int]) -> int | None:
        """As :meth:`match`, for two players of different servers: their game has no server and is
        played in their DMs (``dms``: each one's DM channel with the bot, in seat order)."""
        try:
            return await self._match(first, second, options, seed, dms)
        except _NotBoth:
            return None

    async def unstarted_dm_games(self) -> list[int]:
        """Matches across servers written but never started (the bot stopped in between): those a minute
        old, so a match still telling its players (whose DMs decide whether it starts at all) is left to it."""
        before = (self.db.clock() - UNSTARTED_AFTER).astimezone(UTC).isoformat(timespec="seconds")
        rows = await self.db.read_all("SELECT id FROM games WHERE seat_dms = 1 AND status = 'lobby' AND created_at < ?"
                                      " ORDER BY id", (before,))
        return [int(r[0]) for r in rows]

    async def open_dm_games(self, user_id: int) -> int:
        """How many games across servers ``user_id`` plays (lobbies and running ones)."""
        row = await self.db.read_one(
            "SELECT COUNT(*) FROM games g JOIN seats s ON s.game_id = g.id WHERE g.seat_dms = 1"
            " AND g.status IN ('lobby', 'active') AND s.user_id = ?", (user_id,))
        return int(row[0]) if row is not None else 0


async def _insert_entry(conn: Tx, entry: Entry) -> None:
    await conn.execute(
        "INSERT INTO queue_entries (guild_id, kind, user_id, name, channel_id, rating, joined_at, across,"
        " wide_rating) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (entry.guild_id, entry.kind, entry.user_id, entry.name, entry.channel_id, entry.rating,
         entry.joined_at.isoformat(timespec="seconds"), int(entry.across), entry.wide_rating))


class _NotBoth(Exception):
    """Rolls a match back: one of the two is no longer waiting."""
