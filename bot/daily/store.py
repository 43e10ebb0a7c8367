"""The daily deal's rows: the bot's secret, each day's deal, each player's daily game
and score, the channels that show the results, and the results message of each day.

What must happen once is decided here, in one write each, so two clicks or two bot
processes agree: a secret is made once (insert-if-absent), a day gets one deal, a
player gets one daily game a day (its row is written with the game), a score is
recorded once (a game's end may be followed more than once).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable, Mapping
from datetime import date, timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from bot.store.database import Database, Row, Tx
from bot.store.lobbies import insert_lobby
from bot.store.records import CorruptRecord

#: Bytes of a secret the bot makes for itself.
SECRET_BYTES = 32
#: Channel a day's challenge row names: none (the deal is played in DMs, from every server).
NO_CHANNEL = 0


class DailyResult(BaseModel):
    """A player's daily game of one day; the score fields stay None until it is over."""

    model_config = ConfigDict(frozen=True)

    day: str
    user_id: int
    game_id: int
    guild_id: int | None
    channel_id: int | None
    name: str = ""
    tiles: int | None = None
    won: bool | None = None
    undos: int | None = None
    timed_out: bool = False
    started_at: str
    finished_at: str | None = None

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


class Score(BaseModel):
    """How a daily game ended, as recorded: only numbers, never a move (spoiler-safe)."""

    model_config = ConfigDict(frozen=True)

    tiles: int
    won: bool
    undos: int
    timed_out: bool = False


class AlreadyPlayed(Exception):
    """The player already has today's daily game (running or over)."""

    def __init__(self, result: DailyResult) -> None:
        super().__init__(f"You already have the daily deal of {result.day} (game #{result.game_id}).")
        self.result = result


def _result(row: Row) -> DailyResult:
    try:
        return DailyResult.model_validate(dict(row))
    except ValidationError as exc:
        raise CorruptRecord(f"The stored daily result of {dict(row).get('day')} is damaged.") from exc


class Run(BaseModel):
    """A player's daily streaks, kept as their daily games finish (migration 0016): the
    longest run of consecutive days, and the latest run, which ends on ``last_day``."""

    model_config = ConfigDict(frozen=True)

    user_id: int
    best: int
    run: int
    last_day: str
    #: The name they had where it is listed (the streak board).
    name: str = ""

    def current(self, today: date) -> int:
        """The run that is still going: it ends today or yesterday (else 0)."""
        return self.run if self.last_day >= (today - timedelta(days=1)).isoformat() else 0


def runs_of(days: Iterable[str]) -> tuple[int, int, str] | None:
    """(longest run, latest run, latest day) of ISO days (None: no day)."""
    best, run, last = 0, 0, None
    for text in sorted(set(days)):
        day = date.fromisoformat(text)
        run = run + 1 if last is not None and day - last == timedelta(days=1) else 1
        best, last = max(best, run), day
    return None if last is None else (best, run, last.isoformat())


async def _count_streak(conn: Tx, user_id: int) -> None:
    """Work a player's streaks out again from their finished days, in the transaction
    that recorded one more (once a game; the streak board then reads one row each)."""
    rows = await conn.fetch_all("SELECT day FROM daily_results WHERE user_id = ? AND finished_at IS NOT NULL",
                                (user_id,))
    runs = runs_of(str(r["day"]) for r in rows)
    if runs is None:
        return
    await conn.execute(
        "INSERT INTO daily_streaks (user_id, best, run, last_day) VALUES (?, ?, ?, ?) ON CONFLICT(user_id)"
        " DO UPDATE SET best = excluded.best, run = excluded.run, last_day = excluded.last_day",
        (user_id, *runs))


def _run(row: Row) -> Run:
    try:
        return Run.model_validate(dict(row))
    except ValidationError as exc:
        raise CorruptRecord("A stored daily streak is damaged.") from exc


class DailyStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    # --- the bot's secrets ------------------------------------------------------------
    async def secret(self, name: str) -> bytes:
        """The bot's secret ``name``, made on first use. Every process on the database
        gets the same one: the first write wins and the others read it."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO bot_secrets (name, value, created_at) VALUES (?, ?, ?) ON CONFLICT(name) DO NOTHING",
                (name, secrets.token_hex(SECRET_BYTES), self.db.now()),
            )
            row = await conn.fetch_one("SELECT value FROM bot_secrets WHERE name = ?", (name,))
        assert row is not None
        try:
            return bytes.fromhex(str(row[0]))
        except ValueError as exc:
            raise CorruptRecord(f"The bot's stored secret {name!r} is damaged.") from exc

    # --- the deal of each day ----------------------------------------------------------
    async def deal(self, day: str) -> int | None:
        """The challenge holding ``day``'s deal, if it was made."""
        row = await self.db.read_one("SELECT challenge_id FROM daily_deals WHERE day = ?", (day,))
        return int(row[0]) if row is not None else None

    async def ensure_deal(self, day: str, *, seed: int, options: Mapping[str, Any]) -> int:
        """The challenge of ``day``'s deal, made with ``seed`` and ``options`` unless it
        exists: checked and written in one transaction, so a day has one deal."""
        async with self.db.transaction() as conn:
            row = await conn.fetch_one("SELECT challenge_id FROM daily_deals WHERE day = ?", (day,))
            if row is not None:
                return int(row[0])
            now = self.db.now()
            made = await conn.fetch_one(
                "INSERT INTO challenges (guild_id, channel_id, seed, options, created_by, created_at)"
                " VALUES (NULL, ?, ?, ?, NULL, ?) RETURNING id",
                (NO_CHANNEL, seed, json.dumps(dict(options)), now),
            )
            assert made is not None
            await conn.execute("INSERT INTO daily_deals (day, challenge_id, created_at) VALUES (?, ?, ?)",
                               (day, int(made[0]), now))
            return int(made[0])

    # --- players' daily games ----------------------------------------------------------------
    async def open_game(self, day: str, kind: str, *, user_id: int, name: str, challenge_id: int, seed: int,
                        options: Mapping[str, Any], play_channel_id: int, guild_id: int | None,
                        channel_id: int | None) -> int:
        """The player's daily game of ``day``: a lobby with them in seat 0, played in
        ``play_channel_id`` (their DMs), and its daily row, all in one transaction that
        first checks they have none yet today (raises :class:`AlreadyPlayed`).
        ``guild_id``/``channel_id``: where they asked for it."""
        now = self.db.now()
        async with self.db.transaction() as conn:
            existing = await conn.fetch_one("SELECT * FROM daily_results WHERE day = ? AND user_id = ?",
                                            (day, user_id))
            if existing is not None:
                raise AlreadyPlayed(_result(existing))
            game_id = await insert_lobby(conn, kind, created_by=user_id, name=name, now=now, guild_id=None,
                                         channel_id=play_channel_id, options=options, seed=seed,
                                         challenge_id=challenge_id)
            await conn.execute(
                "INSERT INTO daily_results (day, user_id, game_id, guild_id, channel_id, name, started_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (day, user_id, game_id, guild_id, channel_id, name, now),
            )
            if guild_id is not None:  # a player of this server's streak board, under the name they have now
                await conn.execute(
                    "INSERT INTO daily_players (guild_id, user_id, name, last_day, last_started) VALUES (?, ?, ?, ?, ?)"
                    " ON CONFLICT(guild_id, user_id) DO UPDATE SET name = excluded.name,"
                    " last_day = excluded.last_day, last_started = excluded.last_started",
                    (guild_id, user_id, name, day, now))
            return game_id

    async def result(self, day: str, user_id: int) -> DailyResult | None:
        row = await self.db.read_one("SELECT * FROM daily_results WHERE day = ? AND user_id = ?", (day, user_id))
        return _result(row) if row is not None else None

    async def result_of_game(self, game_id: int) -> DailyResult | None:
        """The daily row of a game; None for every game that is not a daily one."""
        row = await self.db.read_one("SELECT * FROM daily_results WHERE game_id = ?", (game_id,))
        return _result(row) if row is not None else None

    async def record_score(self, game_id: int, score: Score) -> DailyResult | None:
        """Record how a daily game ended, once: a second call (the game's end followed
        again) changes nothing. Returns the row as recorded (None: not a daily game)."""
        async with self.db.transaction() as conn:
            recorded = await conn.execute(
                "UPDATE daily_results SET tiles = ?, won = ?, undos = ?, timed_out = ?, finished_at = ?"
                " WHERE game_id = ? AND finished_at IS NULL",
                (score.tiles, int(score.won), score.undos, int(score.timed_out), self.db.now(), game_id),
            )
            row = await conn.fetch_one("SELECT * FROM daily_results WHERE game_id = ?", (game_id,))
            if recorded == 1 and row is not None:
                await _count_streak(conn, int(row["user_id"]))
        return _result(row) if row is not None else None

    async def results_of_day(self, day: str, guild_id: int) -> list[DailyResult]:
        """Everyone who took ``day``'s deal from this server, in the order they started."""
        rows = await self.db.read_all(
            "SELECT * FROM daily_results WHERE day = ? AND guild_id = ? ORDER BY started_at, user_id",
            (day, guild_id))
        return [_result(r) for r in rows]

    async def finished_days(self, user_ids: Iterable[int]) -> dict[int, list[str]]:
        """The days each of ``user_ids`` finished a daily game, oldest first (for streaks)."""
        wanted = sorted(set(user_ids))
        days: dict[int, list[str]] = {u: [] for u in wanted}
        if not wanted:
            return days
        marks = ",".join("?" for _ in wanted)
        rows = await self.db.read_all(
            f"SELECT user_id, day FROM daily_results WHERE finished_at IS NOT NULL AND user_id IN ({marks})"
            " ORDER BY user_id, day", wanted)
        for row in rows:
            days[int(row["user_id"])].append(str(row["day"]))
        return days

    async def streaks(self, user_ids: Iterable[int]) -> dict[int, Run]:
        """The kept streaks of ``user_ids`` (one row each; none: no finished daily game)."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return {}
        rows = await self.db.read_all(
            f"SELECT * FROM daily_streaks WHERE user_id IN ({','.join('?' for _ in wanted)})", wanted)
        return {int(r["user_id"]): _run(r) for r in rows}

    async def streak_board(self, guild_id: int, today: date, limit: int) -> list[Run]:
        """The ``limit`` players of this server (whoever took a daily deal from it) with the
        longest running streak, then the longest ever, then by id; never played: left out.
        Reads one row per player of the server, never their days."""
        yesterday = (today - timedelta(days=1)).isoformat()
        rows = await self.db.read_all(
            "SELECT s.*, p.name FROM daily_players p JOIN daily_streaks s ON s.user_id = p.user_id"
            " WHERE p.guild_id = ? AND s.best > 0"
            " ORDER BY CASE WHEN s.last_day >= ? THEN s.run ELSE 0 END DESC, s.best DESC, p.user_id LIMIT ?",
            (guild_id, yesterday, limit))
        return [_run(r) for r in rows]

    async def server_players(self, guild_id: int) -> dict[int, str]:
        """Who has ever taken a daily deal from this server (the bot may not see member
        lists), with the name they had there last."""
        rows = await self.db.read_all(
            "SELECT user_id, name FROM daily_results WHERE guild_id = ? ORDER BY day, started_at", (guild_id,))
        return {int(r["user_id"]): str(r["name"]) for r in rows}

    # --- where results are shown -----------------------------------------------------------
    async def set_channel(self, guild_id: int, channel_id: int, enabled: bool, *, by: int | None) -> bool:
        """Show the daily results in a channel of a server (or stop); whether anything changed."""
        async with self.db.transaction() as conn:
            if not enabled:
                return await conn.execute("DELETE FROM daily_channels WHERE channel_id = ? AND guild_id = ?",
                                          (channel_id, guild_id)) == 1
            return await conn.execute(
                "INSERT INTO daily_channels (channel_id, guild_id, enabled_by, enabled_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT(channel_id) DO NOTHING", (channel_id, guild_id, by, self.db.now())) == 1

    async def channels(self, guild_id: int) -> list[int]:
        rows = await self.db.read_all("SELECT channel_id FROM daily_channels WHERE guild_id = ? ORDER BY channel_id",
                                      (guild_id,))
        return [int(r[0]) for r in rows]

    async def post(self, day: str, channel_id: int) -> int | None:
        """The results message of ``day`` in a channel, if one was posted."""
        row = await self.db.read_one("SELECT message_id FROM daily_posts WHERE day = ? AND channel_id = ?",
                                     (day, channel_id))
        return int(row[0]) if row is not None else None

    async def record_post(self, day: str, channel_id: int, message_id: int) -> int:
        """Remember the results message of ``day`` in a channel, unless one is known
        already; returns the one that is."""
        async with self.db.transaction() as conn:
            await conn.execute("INSERT INTO daily_posts (day, channel_id, message_id) VALUES (?, ?, ?)"
                               " ON CONFLICT(day, channel_id) DO NOTHING", (day, channel_id, message_id))
            row = await conn.fetch_one("SELECT message_id FROM daily_posts WHERE day = ? AND channel_id = ?",
                                       (day, channel_id))
        assert row is not None
        return int(row[0])

    async def forget_post(self, day: str, channel_id: int, message_id: int) -> None:
        """The results message was deleted: the next result posts a new one."""
        async with self.db.transaction() as conn:
            await conn.execute("DELETE FROM daily_posts WHERE day = ? AND channel_id = ? AND message_id = ?",
                               (day, channel_id, message_id))
