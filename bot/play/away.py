"""Time away and quiet hours between clicks: going away within the server's budget,
coming back, telling the other players, and the turn clock the reminder sweep reads.

Which budget: the server where the player runs ``/pyramid away`` (its
``away_days`` within ``away_window_days``; a DM uses the defaults, 14 in 90). The
time counted against it is the player's own, wherever they spent it: a person is
away from every server at once, so two servers can't be used to double the time.

Telling the others: going away (or coming back) writes one untold notice per running
game of the player in the same transaction; each is claimed before it is posted
(with a nonce), so it goes out once whether the command posts it or the reminder
sweep picks up one the command could not post.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import aiohttp
import discord

from bot.play.availability import (
    AvailabilityError,
    AwaySpan,
    Budget,
    QuietWindow,
    TurnTimer,
    available_at,
    days_left,
    discord_time,
    format_time_of_day,
    parse_time_of_day,
)
from bot.play.channels import Channels
from bot.play.failures import Blocked
from bot.services import Services
from bot.store import CorruptRecord, GuildSettings
from bot.store.availability import AlreadyAway, AvailabilityStore, AwayNotice, AwayRow, QuietRow

log = logging.getLogger(__name__)

__all__ = ["AlreadyAway", "Availability", "AwayDisabled", "AwayStarted", "OverBudget"]


def iso(at: datetime) -> str:
    """An instant as the store writes it (``Database.now()``'s format)."""
    return at.astimezone(UTC).isoformat(timespec="seconds")


def spans(rows: list[AwayRow]) -> list[AwaySpan]:
    return [AwaySpan(row.starts, row.ends) for row in rows]


class AwayDisabled(Exception):
    """The server allows no time away (``away_days`` is 0)."""


class OverBudget(Exception):
    """More days than the budget has left; ``left`` whole days could be taken now, and
    the days asked for fit from ``available`` on (None: never, more than the budget)."""

    def __init__(self, asked: int, left: int, available: datetime | None, budget: Budget) -> None:
        super().__init__(f"{asked} days asked, {left} left")
        self.asked = asked
        self.left = left
        self.available = available
        self.budget = budget


@dataclass(frozen=True)
class AwayStarted:
    away: AwayRow
    #: The running games the others are told of.
    games: list[int]
    #: Whole days of the budget left after this away (if it runs its course).
    left: int
    budget: Budget


class Availability:
    """``/pyramid away``, ``back`` and ``quiet`` and the sweep's questions."""

    def __init__(self, services: Services, client: discord.Client, channels: Channels) -> None:
        self.services = services
        self.client = client
        self.channels = channels
        self.store = AvailabilityStore(services.db)

    # --- budgets ------------------------------------------------------------------
    async def budget(self, guild_id: int | None) -> Budget:
        """The away budget of the server where the player asks (a DM: the defaults)."""
        settings = GuildSettings(guild_id=guild_id or 0)
        if guild_id is not None:
            try:
                settings = await self.services.store.guild_settings(guild_id)
            except CorruptRecord as exc:
                log.warning("settings of server %s unreadable, using the default away budget: %s", guild_id, exc)
        return Budget(settings.away_days, settings.away_window_days)

    async def days_left(self, user_id: int, guild_id: int | None) -> tuple[int, Budget]:
        budget = await self.budget(guild_id)
        now = self.services.clock()
        rows = await self.store.aways(user_id, iso(now - budget.window))
        return days_left(spans(rows), now, budget), budget

    # --- away and back ----------------------------------------------------------------
    async def go_away(self, user_id: int, guild_id: int | None, days: int) -> AwayStarted:
        """Start an away of ``days`` now. Raises AwayDisabled, OverBudget, AlreadyAway
        (or the store's Conflict when the player came back in this very second)."""
        budget = await self.budget(guild_id)
        if budget.days <= 0:
            raise AwayDisabled()
        now = self.services.clock()
        length = timedelta(days=days)

        def check(rows: list[AwayRow]) -> None:
            past = spans(rows)
            left = days_left(past, now, budget)
            if days > left:
                raise OverBudget(days, left, available_at(past, now, length, budget), budget)

        away, games = await self.store.start_away(user_id, guild_id, iso(now + length),
                                                  since=iso(now - budget.window), check=check)
        rows = await self.store.aways(user_id, iso(now - budget.window))
        # What is left once this away has run its course.
        left = days_left(spans(rows), now + length, budget)
        return AwayStarted(away, games, left, budget)

    async def come_back(self, user_id: int) -> AwayRow | None:
        """End the running away now (None: the player is not away)."""
        return await self.store.end_away(user_id)

    async def current_away(self, user_id: int) -> AwayRow | None:
        return await self.store.current_away(user_id)

    # --- telling the other players --------------------------------------------------------
    async def tell_others(self, user_id: int | None = None) -> list[str]:
        """Post the untold notices (of one player, or everyone's); returns what went out."""
        done: list[str] = []
        for notice in await self.store.untold(user_id):
            if await self._post(notice):
                done.append(f"{notice.kind}:{notice.game_id}:{notice.user_id}")
        return done

    async def _post(self, notice: AwayNotice) -> bool:
        if not await self.store.claim_notice(notice):
            return False  # another process (or the command) is telling them
        lang = await self.services.languages.for_guild(notice.guild_id)
        player = f"<@{notice.user_id}>"
        if notice.kind == "away":
            text = lang.tr("🏖️ {player} is away until {date}. Their turns wait for them: no reminders and no "
                           "timeouts until they are back.", player=player,
                           date=discord_time(datetime.fromisoformat(notice.ends_at), "D"))
        else:
            text = lang.tr("👋 {player} is back: the clocks of their turns run again.", player=player)
        channel_id = notice.play_channel_id
        try:
            self.channels.check_postable(channel_id)
            await self.client.get_partial_messageable(channel_id).send(
                text, allowed_mentions=discord.AllowedMentions.none(), nonce=notice_nonce(notice),
            )  # discord.py sends a nonce with enforce_nonce: a repeat returns the first message
        except (discord.NotFound, discord.Forbidden) as exc:  # the place is gone or closed to us: let it be
            log.warning("could not tell game %s that player %s is %s: %s", notice.game_id, notice.user_id,
                        notice.kind, exc)
        except (discord.HTTPException, Blocked, aiohttp.ClientError, OSError, TimeoutError) as exc:
            log.warning("telling game %s that player %s is %s waits: %s", notice.game_id, notice.user_id,
                        notice.kind, exc)
            await self.store.release_notice(notice)
            return False
        return True

    # --- quiet hours --------------------------------------------------------------------
    async def quiet(self, user_id: int) -> QuietWindow | None:
        """The player's quiet hours (a damaged row counts as none)."""
        try:
            row = await self.store.quiet(user_id)
            return window_of(row) if row is not None else None
        except (CorruptRecord, AvailabilityError) as exc:
            log.warning("quiet hours of player %s unreadable, ignored: %s", user_id, exc)
            return None

    async def set_quiet(self, user_id: int, window: QuietWindow) -> None:
        await self.store.set_quiet(user_id, format_time_of_day(window.start), format_time_of_day(window.end),
                                   window.zone)

    async def clear_quiet(self, user_id: int) -> bool:
        return await self.store.clear_quiet(user_id)

    # --- the sweep's questions ------------------------------------------------------------
    async def timer(self, user_id: int, started: datetime, now: datetime) -> TurnTimer:
        """The clock of the player's turn that began at ``started``: paused while they
        are away, afresh after their return, quiet hours left out."""
        try:
            rows = await self.store.aways(user_id, iso(started))
        except CorruptRecord as exc:
            log.warning("time away of player %s unreadable, ignored: %s", user_id, exc)
            rows = []
        return TurnTimer.of(started, now, spans(rows), await self.quiet(user_id))

    async def pingable(self, user_id: int, now: datetime | None = None) -> bool:
        """Whether a ping may go out to the player now: not inside their quiet hours. For
        whatever mentions players from background work (board posts, DMs)."""
        quiet = await self.quiet(user_id)
        return quiet is None or not quiet.contains(now or self.services.clock())

    async def reminded_since(self, game_id: int, seq: int, since: datetime) -> bool:
        """Whether the player to act at ``seq`` was reminded at ``since`` or later."""
        at = await self.store.reminded_at(game_id, seq)
        return at is not None and at >= iso(since)


def window_of(row: QuietRow) -> QuietWindow:
    return QuietWindow(parse_time_of_day(row.starts), parse_time_of_day(row.ends), row.zone)


def notice_nonce(notice: AwayNotice) -> str:
    """The same nonce every time this notice is posted (Discord drops a repeat)."""
    text = f"{notice.user_id}:{notice.starts_at}:{notice.game_id}:{notice.kind}"
    return "pw" + hashlib.blake2b(text.encode(), digest_size=11).hexdigest()
