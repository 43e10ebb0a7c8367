"""Time away and quiet hours between clicks: going away within each server's budget,
coming back, and telling the other players.

Which budget: for each game, that game's own server's (its ``away_days`` within any
``away_window_days``; a DM game: the defaults), whatever server or DM the player asks
in. Going away asks each server where the player has a running game (and the server
where they ask) how many of the days it grants (``away_grants``); a game pauses only
for those. Asked in a server, an away longer than that server has left is refused.
A return early refunds only the whole days not begun (:class:`bot.clock.clock.Charge`).

Telling the others: going away (or coming back) writes one untold notice per running
game it pauses, at most one a day per game and player, in the same transaction; each
is claimed before it is posted (with a nonce), so it goes out once whether the
command posts it or the reminder sweep picks up one the command could not post.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import aiohttp
import discord

from bot.cards.cards import note
from bot.clock.clock import Budget, available_at, days_left, grant
from bot.clock.clocks import Clocks, charges_for, guild_key
from bot.clock.quiet_hours import (
    LONGEST_QUIET,
    AvailabilityError,
    QuietWindow,
    discord_time,
    format_time_of_day,
    parse_time_of_day,
)
from bot.core.services import Services
from bot.posting.channels import Channels
from bot.posting.failures import Blocked
from bot.posting.seat_dms import SeatDms
from bot.store import CorruptRecord
from bot.store.availability import AlreadyAway, AvailabilityStore, AwayNotice, AwayRow, QuietRow

log = logging.getLogger(__name__)

__all__ = ["AlreadyAway", "Availability", "AwayDisabled", "AwayStarted", "OverBudget"]


def iso(at: datetime) -> str:
    """An instant as the store writes it (``Database.now()``'s format)."""
    return at.astimezone(UTC).isoformat(timespec="seconds")


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
    #: The running games it pauses (their other players are told, once a day at most).
    games: list[int]
    #: Game → the days it pauses that game (its server's grant).
    days: dict[int, int]
    #: Whole days of the asking server's budget left after this away (None: asked in a DM).
    left: int | None
    budget: Budget | None


class Availability:
    """``/pyramid away``, ``back`` and ``quiet`` and the sweep's questions."""

    def __init__(self, services: Services, client: discord.Client, channels: Channels) -> None:
        self.services = services
        self.client = client
        self.channels = channels
        self.store = AvailabilityStore(services.db)
        self.clocks = Clocks(services)
        #: Games played in their seats' DMs (the announcer's): a notice goes to the other seats' DMs.
        self.seat_dms: SeatDms | None = None

    # --- budgets ------------------------------------------------------------------
    async def budget(self, guild_id: int | None) -> Budget:
        """The away budget of a server (None, a DM game: the defaults)."""
        return await self.clocks.budget(guild_id)

    async def days_left(self, user_id: int, guild_id: int | None) -> tuple[int, Budget]:
        """Whole days server ``guild_id`` would still grant now."""
        budget = await self.budget(guild_id)
        now = self.services.clock()
        rows = await self.store.aways(user_id, iso(now - budget.window))
        return days_left(charges_for(rows, guild_key(guild_id)), now, budget), budget

    # --- away and back ----------------------------------------------------------------
    async def go_away(self, user_id: int, guild_id: int | None, days: int) -> AwayStarted:
        """Start an away of ``days`` now: each game pauses for what its own server
        grants. Raises AwayDisabled or OverBudget (asked in a server, for that server),
        AlreadyAway (or the store's Conflict when the player came back in this very second)."""
        asked = await self.budget(guild_id) if guild_id is not None else None
        if asked is not None and asked.days <= 0:
            raise AwayDisabled()
        now = self.services.clock()
        keys = {guild_key(g) for g in (await self.store.game_guilds(user_id)).values()}
        if guild_id is not None:
            keys.add(guild_key(guild_id))
        budgets = {key: await self.budget(key or None) for key in keys}
        default = await self.budget(None)
        reach = max([b.window for b in budgets.values()] + [default.window])

        def decide(rows: list[AwayRow], servers: set[int]) -> dict[int, int]:
            if guild_id is not None and asked is not None:
                charges = charges_for(rows, guild_key(guild_id))
                left = days_left(charges, now, asked)
                if days > left:
                    raise OverBudget(days, left, available_at(charges, now, asked, days), asked)
            wanted = servers | ({guild_key(guild_id)} if guild_id is not None else set())
            return {key: grant(charges_for(rows, key), now, budgets.get(key, default), days) for key in wanted}

        away, games = await self.store.start_away(user_id, guild_id, iso(now + timedelta(days=days)),
                                                  since=iso(now - reach), decide=decide)
        guilds = await self.store.game_guilds(user_id)
        per_game = {game: away.grants.get(guild_key(guilds.get(game)), 0) for game in games}
        left = None
        if guild_id is not None and asked is not None:
            rows = await self.store.aways(user_id, iso(now - asked.window))
            left = days_left(charges_for(rows, guild_key(guild_id)), now, asked)
        return AwayStarted(away, games, per_game, left, asked)

    async def come_back(self, user_id: int) -> AwayRow | None:
        """End the running away now (None: the player is not away). The clocks run on
        from where they stood; nothing restarts."""
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
            text = lang.tr("🏖️ {player} is away until {date}: their clock in this game stands still until then "
                           "(within this server's budget for time away).", player=player,
                           date=discord_time(notice.pause_ends, "D"))
        else:
            text = lang.tr("👋 {player} is back: their clock in this game runs again.", player=player)
        try:
            for channel_id in await self._places(notice):
                self.channels.check_postable(channel_id)
                await self.client.get_partial_messageable(channel_id).send(  # news, nobody to ping
                    view=note(text), allowed_mentions=discord.AllowedMentions.none(), nonce=notice_nonce(notice),
                    silent=True,
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

    async def _places(self, notice: AwayNotice) -> list[int]:
        """Where a notice about ``notice.user_id`` is told: the game's channel, or in a game played in its
        seats' DMs (``bot.posting.seat_dms``), the other players' DMs."""
        record = await self.services.store.game_record(notice.game_id) if self.seat_dms is not None else None
        if record is None or self.seat_dms is None or not record.seat_dms:
            return [notice.play_channel_id]
        seats = await self.services.store.seats(record.id)
        return [c for u, c in await self.seat_dms.places(record, seats) if u != notice.user_id]

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
    """The stored window; one set before windows were limited is cut to its first 12 hours."""
    start, end = parse_time_of_day(row.starts), parse_time_of_day(row.ends)
    longest = datetime.combine(datetime.min.date(), start) + LONGEST_QUIET
    if QuietWindow.span(start, end) > LONGEST_QUIET:
        end = longest.time()
    return QuietWindow(start, end, row.zone)


def notice_nonce(notice: AwayNotice) -> str:
    """The same nonce every time this notice is posted (Discord drops a repeat)."""
    text = f"{notice.user_id}:{notice.starts_at}:{notice.game_id}:{notice.kind}"
    return "pw" + hashlib.blake2b(text.encode(), digest_size=11).hexdigest()
