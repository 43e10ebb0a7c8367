"""Games: their rows, their status, their thread, parked games, and the listings that
read them (a player's games, a thread's, the running ones)."""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping, Sequence
from typing import Any, NotRequired, TypedDict, Unpack

from bot.store.database import Tx
from bot.store.records import GameRecord, GameStatus, GameSurface
from bot.store.rows import Rows, _game
from bot.store.tallies import count_finished


class NewGame(TypedDict):
    """Where and from what a new game is played: the columns of its games row that its
    maker gives, besides its kind, status and opener."""

    guild_id: int | None
    channel_id: int
    options: Mapping[str, Any]
    seed: int
    challenge_id: NotRequired[int | None]
    #: "interactions": a game only a user install reaches (``GameRecord.surface``).
    surface: NotRequired[GameSurface]
    #: False: a game its ratings never see (``GameRecord.rated``).
    rated: NotRequired[bool]


async def _insert_game(conn: Tx, kind: str, *, status: GameStatus, created_by: int | None, now: str,
                       **game: Unpack[NewGame]) -> int:
    """The games row of a new game, inside the caller's transaction (a lobby's opener
    takes seat 0 in the same one); its number. Every game gets a fresh random salt:
    hashed with the seed, it seals the deal before the first move (``bot.records.fairness``),
    and being secret until the end, it keeps the seal from being reversed by trying seeds."""
    guild_id, channel_id, options, seed = game["guild_id"], game["channel_id"], game["options"], game["seed"]
    challenge_id = game.get("challenge_id")
    surface = game.get("surface", "channel")
    # The column is named only for a game only a user install reaches (migration 0014); the others take
    # its default, as they did before it existed.
    extra, marks = (", surface", ", ?") if surface != "channel" else ("", "")
    unrated = not game.get("rated", True)
    row = await conn.fetch_one(
        "INSERT INTO games (kind, guild_id, channel_id, options, status, seed, created_by,"
        f" challenge_id, created_at, updated_at, salt{extra}{', rated' if unrated else ''})"
        f" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?{marks}{', 0' if unrated else ''})"
        " RETURNING id",
        (kind, guild_id, channel_id, json.dumps(dict(options)), status, seed, created_by, challenge_id, now, now,
         secrets.token_hex(16), *([surface] if extra else [])),
    )
    assert row is not None
    return int(row[0])


class GameRows(Rows):
    """A game's row: created, read, listed, its status and thread set, parked."""

    async def create_game(self, kind: str, *, created_by: int | None, status: GameStatus = "lobby",
                          **game: Unpack[NewGame]) -> int:
        """A game row alone, in any status and with no seat, as tests lay out a
        database (the bot itself opens games with :meth:`open_game`)."""
        async with self.db.transaction() as conn:
            return await _insert_game(conn, kind, status=status, created_by=created_by, now=self.db.now(), **game)

    async def game_record(self, game_id: int) -> GameRecord | None:
        row = await self.db.read_one("SELECT * FROM games WHERE id = ?", (game_id,))
        return _game(row) if row else None

    async def all_games(self) -> list[GameRecord]:
        """Every game, oldest first (damaged rows left out)."""
        return await self._games_where("1 = 1")

    async def running_games(self) -> list[GameRecord]:
        """Games in play that background work (reminders, timeouts) still looks after."""
        return await self._games_where("status = 'active' AND parked IS NULL")

    async def games_in_thread(self, thread_id: int | None, statuses: Sequence[str], *,
                              newest: int | None = None) -> list[GameRecord]:
        """Games played in this thread, with one of ``statuses`` (``newest``: only that many)."""
        marks = ",".join("?" for _ in statuses)
        return await self._games_where(f"thread_id = ? AND status IN ({marks})", (thread_id, *statuses),
                                       newest=newest)

    async def games_of_user_in_channel(self, user_id: int, channel_id: int | None, statuses: Sequence[str], *,
                                       newest: int | None = None) -> list[GameRecord]:
        """Games opened in this channel that ``user_id`` has a seat in, with one of ``statuses``
        (``newest``: only that many of the newest)."""
        marks = ",".join("?" for _ in statuses)
        return await self._games_where(
            f"channel_id = ? AND status IN ({marks}) AND id IN (SELECT game_id FROM seats WHERE user_id = ?)",
            (channel_id, *statuses, user_id), newest=newest,
        )

    async def games_of_user(self, user_id: int, guild_id: int | None, statuses: Sequence[str], *,
                            newest: int | None = None) -> list[GameRecord]:
        """Games of one server (None: of every server) that ``user_id`` has a seat in
        (``newest``: only that many of the newest)."""
        marks = ",".join("?" for _ in statuses)
        return await self._games_where(
            f"status IN ({marks}) AND (guild_id = ? OR CAST(? AS BIGINT) IS NULL)"
            " AND id IN (SELECT game_id FROM seats WHERE user_id = ?)",
            (*statuses, guild_id, guild_id, user_id), newest=newest,
        )

    async def set_thread(self, game_id: int, thread_id: int | None) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE games SET thread_id = ?, updated_at = ?, revision = revision + 1 WHERE id = ?",
                (thread_id, self.db.now(), game_id),
            )

    async def set_status(
        self, game_id: int, status: GameStatus, *, result: Mapping[str, Any] | None = None, expect: str | None = None
    ) -> bool:
        """Change a game's status; with ``expect`` only from that status (returns
        False when someone else changed it first)."""
        async with self.db.transaction() as conn:
            sql = ("UPDATE games SET status = ?, result = COALESCE(?, result), updated_at = ?,"
                   " revision = revision + 1 WHERE id = ?")
            params: list[Any] = [status, json.dumps(dict(result)) if result is not None else None, self.db.now(),
                                 game_id]
            if expect is not None:
                sql += " AND status = ?"
                params.append(expect)
            if status == "finished":  # counted once: only when it turns finished (writes are serialized)
                sql += " AND status <> 'finished'"
            changed = await conn.execute(sql, params) == 1
            if changed and status == "finished":
                await count_finished(conn, game_id)
            return changed

    async def park_game(self, game_id: int, reason: str) -> bool:
        """Stop background work on a game it keeps failing on (its thread is gone,
        its move log is damaged); returns True the first time, when its players
        should be told."""
        async with self.db.transaction() as conn:
            return await conn.execute(
                "UPDATE games SET parked = ?, parked_at = ?, revision = revision + 1 WHERE id = ? AND parked IS NULL",
                (reason[:500], self.db.now(), game_id),
            ) == 1

    async def parked_reason(self, game_id: int) -> str | None:
        row = await self.db.read_one("SELECT parked FROM games WHERE id = ?", (game_id,))
        return str(row[0]) if row is not None and row[0] is not None else None
