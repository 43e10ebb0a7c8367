"""Time away and quiet hours: the rows behind ``/pyramid away``, ``back`` and ``quiet``.

Instants are the store's ISO-8601 UTC text (``Database.now()``), which sorts as time.
Going away works out what each server grants (``away_grants``: the days it pauses
that server's games) and writes the away in one write transaction, so two
``/pyramid away`` at once can't both spend the same days. The notices to the other
players are rows written with the away (or the return), at most one per game and
player a day, and claimed one by one by whoever posts them: the command at once, the
reminder sweep for any left over.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from bot.store.database import Database
from bot.store.rows import _model

NoticeKind = Literal["away", "back"]

#: The games a player's away may pause, with their server (0: a DM game): running, not
#: parked, and the player still in a seat of their own (not resigned, not handed to an AI).
_PLAYERS_GAMES = (
    "SELECT DISTINCT g.id, COALESCE(g.guild_id, 0) AS guild_key FROM games g JOIN seats s ON s.game_id = g.id"
    " WHERE s.user_id = ? AND s.ai_level IS NULL AND s.resigned = 0"
    " AND g.status = 'active' AND g.parked IS NULL"
)
#: A game hears of one player's away or return at most once in this long.
NOTICE_GAP = timedelta(days=1)
#: No notice to this player's game (``g.id``) written since the given time.
_NOT_NOTED_SINCE = (
    " NOT EXISTS (SELECT 1 FROM away_notices o WHERE o.user_id = ? AND o.game_id = g.id"
    " AND COALESCE(o.noted_at, o.told_at, o.starts_at) > ?)"
)
_HISTORY = (
    "SELECT p.user_id, p.starts_at, p.ends_at, p.guild_id, p.granted, gr.guild_id AS grant_guild, gr.days"
    " FROM away_periods p LEFT JOIN away_grants gr ON gr.user_id = p.user_id AND gr.starts_at = p.starts_at"
    " WHERE p.user_id = ? AND (p.ends_at > ? OR p.starts_at > ?) ORDER BY p.starts_at, gr.guild_id"
)


class _Row(BaseModel):
    model_config = ConfigDict(frozen=True)


class AwayRow(_Row):
    user_id: int
    starts_at: str
    ends_at: str
    #: Where it was asked (NULL: a DM).
    guild_id: int | None = None
    #: True: it pauses each server's games by that server's grant (``grants``); False: an
    #: away from before grants, which pauses every game and counts where it was asked.
    granted: bool = False
    #: Server (0: DM games) → the days that server granted.
    grants: dict[int, int] = {}

    @property
    def starts(self) -> datetime:
        return datetime.fromisoformat(self.starts_at)

    @property
    def ends(self) -> datetime:
        return datetime.fromisoformat(self.ends_at)


class QuietRow(_Row):
    user_id: int
    #: Local times of day, ``HH:MM``, in ``zone`` (an IANA name).
    starts: str
    ends: str
    zone: str


class AwayNotice(_Row):
    """One game's players to tell that ``user_id`` is away (until ``ends_at``) or back."""

    user_id: int
    starts_at: str
    ends_at: str
    game_id: int
    kind: NoticeKind
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    granted: bool = False
    #: The days this game's server granted (None: none, or an away from before grants).
    days: int | None = None

    @property
    def play_channel_id(self) -> int:
        return self.thread_id or self.channel_id

    @property
    def pause_ends(self) -> datetime:
        """When this game's clock runs again at the latest: the planned return, or
        the end of the days its server granted."""
        ends = datetime.fromisoformat(self.ends_at)
        if not self.granted:
            return ends
        return min(ends, datetime.fromisoformat(self.starts_at) + timedelta(days=self.days or 0))


class AlreadyAway(Exception):
    """The player is away already (``away`` says until when)."""

    def __init__(self, away: AwayRow) -> None:
        super().__init__(f"already away until {away.ends_at}")
        self.away = away


class AvailabilityStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    # --- time away ------------------------------------------------------------------
    async def aways(self, user_id: int, since: str) -> list[AwayRow]:
        """The player's times away that end, or begin, after ``since``, oldest first,
        with what each server granted."""
        rows = await self.db.rows.get("aways", (user_id, since),
                                      lambda: self.db.read_all(_HISTORY, (user_id, since, since)))
        return _aways(user_id, rows)

    async def game_guilds(self, user_id: int) -> dict[int, int | None]:
        """The player's running games (that an away could pause) → their server (None: a DM game)."""
        rows = await self.db.read_all(
            "SELECT DISTINCT g.id, g.guild_id FROM games g JOIN seats s ON s.game_id = g.id"
            " WHERE s.user_id = ? AND s.ai_level IS NULL AND s.resigned = 0"
            " AND g.status = 'active' AND g.parked IS NULL", (user_id,))
        return {int(row[0]): (int(row[1]) if row[1] is not None else None) for row in rows}

    async def current_away(self, user_id: int) -> AwayRow | None:
        now = self.db.now()
        for away in await self.aways(user_id, now):
            if away.starts_at <= now:
                return away
        return None

    async def start_away(self, user_id: int, guild_id: int | None, ends_at: str, *, since: str,
                         decide: Callable[[list[AwayRow], set[int]], dict[int, int]]
                         ) -> tuple[AwayRow, list[int]]:
        """Write an away from now to ``ends_at``, what each server grants, and the
        notices; returns the away and the games to tell. ``decide`` sees the player's
        aways ending or beginning after ``since`` (the budgets' reach) and the servers
        of their running games (0: DMs), and returns each server's grant in days, or
        raises to refuse. AlreadyAway when one is running. Raises ``Conflict`` when the
        player came back in this very second (try again)."""
        now = self.db.now()
        async with self.db.transaction() as conn:
            aways = _aways(user_id, await conn.fetch_all(_HISTORY, (user_id, min(since, now), min(since, now))))
            for away in aways:
                if away.starts_at <= now < away.ends_at:
                    raise AlreadyAway(away)
            games = {int(row[0]): int(row[1]) for row in await conn.fetch_all(_PLAYERS_GAMES, (user_id,))}
            grants = decide(aways, set(games.values()))
            await conn.execute(
                "INSERT INTO away_periods (user_id, starts_at, ends_at, guild_id, created_at, granted)"
                " VALUES (?, ?, ?, ?, ?, 1)",
                (user_id, now, ends_at, guild_id, now),
            )
            await conn.execute_many(
                "INSERT INTO away_grants (user_id, starts_at, guild_id, days) VALUES (?, ?, ?, ?)",
                [(user_id, now, key, days) for key, days in sorted(grants.items())],
            )
            paused = [game_id for game_id, key in sorted(games.items()) if grants.get(key, 0) > 0]
            noted_since = _iso_before(now, NOTICE_GAP)
            told: list[int] = []
            for game_id in paused:
                fresh = await conn.fetch_one("SELECT 1 FROM games g WHERE g.id = ? AND" + _NOT_NOTED_SINCE,
                                             (game_id, user_id, noted_since))
                if fresh is not None:
                    told.append(game_id)
            await conn.execute_many(
                "INSERT INTO away_notices (user_id, starts_at, game_id, kind, noted_at) VALUES (?, ?, ?, 'away', ?)"
                " ON CONFLICT DO NOTHING",
                [(user_id, now, game_id, now) for game_id in told],
            )
        away = AwayRow(user_id=user_id, starts_at=now, ends_at=ends_at, guild_id=guild_id, granted=True,
                       grants=dict(grants))
        return away, paused

    async def end_away(self, user_id: int) -> AwayRow | None:
        """End the running away now (None: not away). Notices not yet posted are
        dropped; the games told of the away are to be told of the return, unless they
        heard of this player in the last day."""
        now = self.db.now()
        async with self.db.transaction() as conn:
            row = await conn.fetch_one(
                "UPDATE away_periods SET ends_at = ? WHERE user_id = ? AND starts_at <= ? AND ends_at > ?"
                " RETURNING user_id, starts_at, ends_at, guild_id, granted", (now, user_id, now, now),
            )
            if row is None:
                return None
            away = _model(AwayRow, row, f"time away of player {user_id}")
            grants = await conn.fetch_all("SELECT guild_id, days FROM away_grants WHERE user_id = ? AND starts_at = ?",
                                          (user_id, away.starts_at))
            away = away.model_copy(update={"grants": {int(g[0]): int(g[1]) for g in grants}})
            await conn.execute(
                "DELETE FROM away_notices WHERE user_id = ? AND starts_at = ? AND kind = 'away' AND told_at IS NULL",
                (user_id, away.starts_at),
            )
            await conn.execute(
                "INSERT INTO away_notices (user_id, starts_at, game_id, kind, noted_at)"
                " SELECT n.user_id, n.starts_at, n.game_id, 'back', ? FROM away_notices n"
                " JOIN games g ON g.id = n.game_id"
                " WHERE n.user_id = ? AND n.starts_at = ? AND n.kind = 'away'"
                " AND g.status = 'active' AND g.parked IS NULL AND" + _NOT_NOTED_SINCE +
                " ON CONFLICT DO NOTHING",
                (now, user_id, away.starts_at, user_id, _iso_before(now, NOTICE_GAP)),
            )
        return away

    # --- notices to the other players --------------------------------------------------
    async def untold(self, user_id: int | None = None) -> list[AwayNotice]:
        """Notices still to post (of one player, or everyone's), in running games; an
        away notice whose away is over is no news any more and is left out."""
        now = self.db.now()
        rows = await self.db.read_all(
            "SELECT n.user_id, n.starts_at, p.ends_at, n.game_id, n.kind, g.guild_id, g.channel_id, g.thread_id,"
            " p.granted, gr.days"
            " FROM away_notices n"
            " JOIN away_periods p ON p.user_id = n.user_id AND p.starts_at = n.starts_at"
            " JOIN games g ON g.id = n.game_id"
            " LEFT JOIN away_grants gr ON gr.user_id = n.user_id AND gr.starts_at = n.starts_at"
            " AND gr.guild_id = COALESCE(g.guild_id, 0)"
            " WHERE n.told_at IS NULL AND g.status = 'active' AND g.parked IS NULL"
            " AND g.surface = 'channel'"  # the bot is not where an in-place game is: its card shows the clock
            " AND (n.user_id = ? OR CAST(? AS BIGINT) IS NULL)"
            " AND (n.kind = 'back' OR p.ends_at > ?)"
            " ORDER BY n.starts_at, n.game_id, n.kind",
            (user_id, user_id, now),
        )
        return [_model(AwayNotice, row, "notice of time away") for row in rows]

    async def claim_notice(self, notice: AwayNotice) -> bool:
        """Take the notice to post it; False when someone else took it first."""
        async with self.db.transaction() as conn:
            return await conn.execute(
                "UPDATE away_notices SET told_at = ? WHERE user_id = ? AND starts_at = ? AND game_id = ?"
                " AND kind = ? AND told_at IS NULL",
                (self.db.now(), notice.user_id, notice.starts_at, notice.game_id, notice.kind),
            ) == 1

    async def release_notice(self, notice: AwayNotice) -> None:
        """The claimed notice could not be posted: the next sweep tries again."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE away_notices SET told_at = NULL WHERE user_id = ? AND starts_at = ? AND game_id = ?"
                " AND kind = ?",
                (notice.user_id, notice.starts_at, notice.game_id, notice.kind),
            )

    # --- quiet hours ----------------------------------------------------------------
    async def quiet(self, user_id: int) -> QuietRow | None:
        row = await self.db.rows.get("quiet_hours", user_id, lambda: self.db.read_one(
            "SELECT user_id, starts, ends, zone FROM quiet_hours WHERE user_id = ?", (user_id,)))
        return _model(QuietRow, row, f"quiet hours of player {user_id}") if row is not None else None

    async def set_quiet(self, user_id: int, starts: str, ends: str, zone: str) -> QuietRow:
        quiet = QuietRow(user_id=user_id, starts=starts, ends=ends, zone=zone)
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO quiet_hours (user_id, starts, ends, zone, updated_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT(user_id) DO UPDATE SET starts = excluded.starts, ends = excluded.ends,"
                " zone = excluded.zone, updated_at = excluded.updated_at",
                (user_id, starts, ends, zone, self.db.now()),
            )
        return quiet

    async def clear_quiet(self, user_id: int) -> bool:
        """Remove the player's quiet hours; False when they had none."""
        async with self.db.transaction() as conn:
            return await conn.execute("DELETE FROM quiet_hours WHERE user_id = ?", (user_id,)) == 1

    # --- what the reminder sweep reads ------------------------------------------------
    async def reminded_at(self, game_id: int, seq: int) -> str | None:
        """When the player to act at move ``seq`` was reminded (None: not yet)."""
        row = await self.db.read_one("SELECT reminded_at FROM reminders WHERE game_id = ? AND seq = ?",
                                     (game_id, seq))
        return str(row[0]) if row is not None and row[0] is not None else None


def _iso_before(now: str, gap: timedelta) -> str:
    """The store's instant ``gap`` before ``now`` (same text format, so it sorts as time)."""
    return (datetime.fromisoformat(now) - gap).isoformat(timespec="seconds")


def _aways(user_id: int, rows: list[Any]) -> list[AwayRow]:
    """History rows (one per away and grant) folded into one row per away."""
    found: dict[str, AwayRow] = {}
    for row in rows:
        data = dict(row)
        grant_guild, days = data.pop("grant_guild", None), data.pop("days", None)
        away = found.get(str(data["starts_at"]))
        if away is None:
            away = _model(AwayRow, data, f"time away of player {user_id}")
        if grant_guild is not None and days is not None:
            away = away.model_copy(update={"grants": {**away.grants, int(grant_guild): int(days)}})
        found[away.starts_at] = away
    return sorted(found.values(), key=lambda a: a.starts_at)
