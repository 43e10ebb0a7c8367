"""Time away and quiet hours: the rows behind ``/pyramid away``, ``back`` and ``quiet``.

Instants are the store's ISO-8601 UTC text (``Database.now()``), which sorts as time.
Going away checks the budget and writes the away in one write transaction, so two
``/pyramid away`` at once can't both spend the same days. The notices to the other
players are rows written with the away (or the return) and claimed one by one by
whoever posts them: the command at once, the reminder sweep for any left over.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict

from bot.store.database import Database
from bot.store.game_store import _model

NoticeKind = Literal["away", "back"]

#: The games a player's away pauses, as the notices go to them: running, not parked,
#: and the player still in a seat of their own (not resigned, not handed to an AI).
_PLAYERS_GAMES = (
    "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id"
    " WHERE s.user_id = ? AND s.ai_level IS NULL AND s.resigned = 0"
    " AND g.status = 'active' AND g.parked IS NULL"
)


class _Row(BaseModel):
    model_config = ConfigDict(frozen=True)


class AwayRow(_Row):
    user_id: int
    starts_at: str
    ends_at: str
    guild_id: int | None = None

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

    @property
    def play_channel_id(self) -> int:
        return self.thread_id or self.channel_id


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
        """The player's times away that end after ``since``, oldest first."""
        rows = await self.db.read_all(
            "SELECT user_id, starts_at, ends_at, guild_id FROM away_periods WHERE user_id = ? AND ends_at > ?"
            " ORDER BY starts_at", (user_id, since),
        )
        return [_model(AwayRow, row, f"time away of player {user_id}") for row in rows]

    async def current_away(self, user_id: int) -> AwayRow | None:
        now = self.db.now()
        for away in await self.aways(user_id, now):
            if away.starts_at <= now:
                return away
        return None

    async def start_away(self, user_id: int, guild_id: int | None, ends_at: str, *, since: str,
                         check: Callable[[list[AwayRow]], None]) -> tuple[AwayRow, list[int]]:
        """Write an away from now to ``ends_at`` and its notices; returns it and the
        games to tell. ``check`` sees the player's aways ending after ``since`` (the
        budget's reach) and raises to refuse; AlreadyAway when one is running. Raises
        ``Conflict`` when the player came back in this very second (try again)."""
        now = self.db.now()
        async with self.db.transaction() as conn:
            rows = await conn.fetch_all(
                "SELECT user_id, starts_at, ends_at, guild_id FROM away_periods WHERE user_id = ? AND ends_at > ?"
                " ORDER BY starts_at", (user_id, min(since, now)),
            )
            aways = [_model(AwayRow, row, f"time away of player {user_id}") for row in rows]
            for away in aways:
                if away.starts_at <= now < away.ends_at:
                    raise AlreadyAway(away)
            check(aways)
            await conn.execute(
                "INSERT INTO away_periods (user_id, starts_at, ends_at, guild_id, created_at) VALUES (?, ?, ?, ?, ?)",
                (user_id, now, ends_at, guild_id, now),
            )
            games = [int(row[0]) for row in await conn.fetch_all(_PLAYERS_GAMES + " ORDER BY g.id", (user_id,))]
            await conn.execute_many(
                "INSERT INTO away_notices (user_id, starts_at, game_id, kind) VALUES (?, ?, ?, 'away')"
                " ON CONFLICT DO NOTHING",
                [(user_id, now, game_id) for game_id in games],
            )
        return AwayRow(user_id=user_id, starts_at=now, ends_at=ends_at, guild_id=guild_id), games

    async def end_away(self, user_id: int) -> AwayRow | None:
        """End the running away now (None: not away). Notices not yet posted are
        dropped; the games told of the away are to be told of the return."""
        now = self.db.now()
        async with self.db.transaction() as conn:
            row = await conn.fetch_one(
                "UPDATE away_periods SET ends_at = ? WHERE user_id = ? AND starts_at <= ? AND ends_at > ?"
                " RETURNING user_id, starts_at, ends_at, guild_id", (now, user_id, now, now),
            )
            if row is None:
                return None
            away = _model(AwayRow, row, f"time away of player {user_id}")
            await conn.execute(
                "DELETE FROM away_notices WHERE user_id = ? AND starts_at = ? AND kind = 'away' AND told_at IS NULL",
                (user_id, away.starts_at),
            )
            await conn.execute(
                "INSERT INTO away_notices (user_id, starts_at, game_id, kind)"
                " SELECT n.user_id, n.starts_at, n.game_id, 'back' FROM away_notices n"
                " JOIN games g ON g.id = n.game_id"
                " WHERE n.user_id = ? AND n.starts_at = ? AND n.kind = 'away'"
                " AND g.status = 'active' AND g.parked IS NULL"
                " ON CONFLICT DO NOTHING",
                (user_id, away.starts_at),
            )
        return away

    # --- notices to the other players --------------------------------------------------
    async def untold(self, user_id: int | None = None) -> list[AwayNotice]:
        """Notices still to post (of one player, or everyone's), in running games; an
        away notice whose away is over is no news any more and is left out."""
        now = self.db.now()
        rows = await self.db.read_all(
            "SELECT n.user_id, n.starts_at, p.ends_at, n.game_id, n.kind, g.guild_id, g.channel_id, g.thread_id"
            " FROM away_notices n"
            " JOIN away_periods p ON p.user_id = n.user_id AND p.starts_at = n.starts_at"
            " JOIN games g ON g.id = n.game_id"
            " WHERE n.told_at IS NULL AND g.status = 'active' AND g.parked IS NULL"
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
        row = await self.db.read_one("SELECT user_id, starts, ends, zone FROM quiet_hours WHERE user_id = ?",
                                     (user_id,))
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
