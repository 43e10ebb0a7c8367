"""Nudging idle players, and handing over their seats when their time bank runs out.

The clock is :mod:`bot.clock.clocks` (each seat's bank, within the game's own server's
settings). The reminder comes once a turn, when the bank runs low; inside the
player's quiet hours it waits for their end, unless the bank would run out first:
then it goes out at once without a ping. Quiet hours never stop the clock."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

import aiohttp
import discord

from bot.cards.cards import note
from bot.cards.links import game_link
from bot.clock.clock import TurnClock
from bot.clock.clock_text import clock_line
from bot.core.errors import PlayError
from bot.core.services import Services
from bot.core.session import Session
from bot.core.tasks import sweep_forever
from bot.core.visibility import private_place
from bot.games.presenter import ENGLISH
from bot.posting.away import Availability
from bot.posting.channels import Channels
from bot.posting.delivery import Delivery
from bot.posting.failures import CANNOT_DM, Blocked, classify
from bot.posting.pings import Ping, Pings
from bot.resignations.resignations import Resignations
from bot.store import CorruptRecord, GameRecord, GuildSettings
from bot.store.departures import TIMEOUT_AI
from bot.store.leaving import leave_seat
from i18n import N_, Lang

log = logging.getLogger(__name__)

UNKNOWN_CHANNEL = 10003


#: The lease of the reminder and timeout sweep (see :meth:`Reminders.sweep`).
SWEEP = "sweep"


def sweep_lease(sweep_seconds: float) -> timedelta:
    """How long a sweeper's lease lasts unless renewed: two sweep intervals, at least 30 s."""
    return timedelta(seconds=max(30.0, 2 * sweep_seconds))


class Reminders:
    """Nudges idle players and hands over seats after the timeout.

    The sweep reads time from the injected clock, so tests move time forward and
    call :meth:`sweep` instead of waiting hours. Each game is swept on its own: one
    game failing (its thread deleted, its move log damaged) never stops the others;
    a game that would fail at every pass is parked and its players are told."""

    def __init__(self, services: Services, client: discord.Client, channels: Channels, resignations: Resignations,
                 delivery: Delivery, pings: Pings) -> None:
        self.services = services
        #: The notification gate (``bot.posting.pings``): whom a reminder may buzz.
        self.pings = pings
        self.client = client
        self.channels = channels
        self.resignations = resignations
        self.delivery = delivery
        #: Time away and quiet hours (``bot.posting.away``), and each seat's clock.
        self.availability = Availability(services, client, channels)
        self.availability.seat_dms = delivery.announcer.seat_dms  # a game in DMs: told in the other seats' DMs
        self.clocks = self.availability.clocks
        #: Plays a forced move for a player who asked (``bot.forecasts.autoplay``, set by ``Host.build``).
        self.autoplay: Callable[[GameRecord, datetime], Awaitable[bool]] | None = None

    async def run(self) -> None:
        await sweep_forever(lambda: self.services.sweep_seconds, self.sweep, "reminder sweep")

    async def sweep(self) -> list[str]:
        """One pass over running games; returns what it did (for logs and tests).

        One bot process sweeps at a time: the others find the sweep's lease taken and
        look again at their next sweep. The sweeper renews the lease whenever a third of
        it has gone by, so only a dead sweeper's lease runs out, and another process takes
        the sweep over within ``sweep_lease`` of the death."""
        now = self.services.clock()
        done: list[str] = []
        leases = self.services.leases
        ttl = sweep_lease(self.services.sweep_seconds)
        loop = asyncio.get_running_loop()
        if not await leases.claim(SWEEP, ttl):
            return done
        claimed = loop.time()
        try:
            done.extend(await self.tell_about_aways())
            for record in await self.services.store.running_games():
                if loop.time() - claimed > ttl.total_seconds() / 3:
                    if not await leases.claim(SWEEP, ttl):
                        break  # stalled past the lease, and another process took over: the rest is theirs
                    claimed = loop.time()
                try:
                    done.extend(await self.sweep_game(record, now))
                except Exception as exc:  # noqa: BLE001 - this game only (trouble() logs it by kind); the pass goes on
                    await self.trouble(record, exc)
        finally:
            await leases.release(SWEEP)
        return done

    async def sweep_game(self, record: GameRecord, now: datetime) -> list[str]:
        services = self.services
        try:
            session = await services.sessions.load(record.id)
        except PlayError:
            return []
        seat_no = session.to_act
        seat = session.seat(seat_no) if seat_no is not None else None
        if seat is None or seat.is_ai or seat.user_id is None:
            return []
        if self.autoplay is not None and await self.autoplay(record, now):
            return [f"auto:{record.id}"]
        expired = await self.clocks.out_of_time(session, now)  # the question every move asks too
        if expired is not None:
            return await self.time_out(record, session, expired, now)
        clock = await self.clocks.turn(session)
        if clock is None:
            return []
        channel_id = record.play_channel_id
        if record.seat_dms:  # a game played in its seats' DMs: the reminder goes to the DM of the player to act
            channel_id = await self.delivery.announcer.dm_channel(seat.user_id)
        channel = self.client.get_partial_messageable(channel_id)
        # The player's own reminder interval (off by default), on top of the clock's reminder below.
        done = [] if clock.paused_now(now) else await self.pings.repeat(session, clock.started, now)
        if clock.paused_now(now) or now < clock.reminder_due:
            return done
        if await services.store.reminded(record.id, session.version):
            return done
        quiet = await self.availability.quiet(seat.user_id)
        window = quiet.containing(now) if quiet is not None else None
        if window is not None and window[1] < clock.deadline:
            return done  # it comes when their quiet hours end
        # Inside quiet hours the bank runs out first: tell them now, without buzzing them. Otherwise the gate
        # decides (a muted game, the hourly cap: it goes out silently, and a held notice comes with the batch).
        ping = Ping() if window is not None else await self.pings.reminder(session, seat.user_id)
        lang = await services.languages.for_user(seat.user_id, record.guild_id)  # a ping: the player's language
        if record.in_place or await self.pings.by_dm(seat.user_id, record.id):
            await self.remind_by_dm(record, seat.user_id, reminder_text(seat.display, record.id, clock, now, lang),
                                    ping=ping)
            await services.store.mark_reminded(record.id, session.version)
            return [*done, f"reminder:{record.id}"]
        self.channels.check_postable(channel_id)
        await channel.send(
            view=note(reminder_text(seat.display, record.id, clock, now, lang)),
            allowed_mentions=ping.mentions, silent=ping.silent,
        )
        await services.store.mark_reminded(record.id, session.version)
        return [*done, f"reminder:{record.id}"]

    async def run_out(self, game_id: int) -> str | None:
        """A move found its mover's bank empty (``SessionService.make_move`` refused it): apply the
        timeout now, exactly as the sweep would, whether or not a sweep has looked yet. Returns what
        was done ("ai", "forfeit"), or None when there was nothing (left) to do."""
        now = self.services.clock()
        try:
            session = await self.services.sessions.load(game_id)
        except PlayError:
            return None
        expired = await self.clocks.out_of_time(session, now)
        if expired is None:
            return None
        done = await self.time_out(session.record, session, expired, now)
        return done[0].rsplit(":", 1)[1] if done else None

    async def time_out(self, record: GameRecord, session: Session, clock: TurnClock, now: datetime) -> list[str]:
        """The seat to act ran out of time (``clock``, empty at ``now``): an AI takes it, or the player
        forfeits, as the game's server chose; the channel is told. Applied once: whoever comes second
        (the sweep after a refused move, or the other way round) finds the seat handed over and does
        nothing."""
        services = self.services
        seat = session.seat(session.to_act) if session.to_act is not None else None
        if seat is None or seat.user_id is None:
            return []
        guild = await self.guild_settings(record.guild_id)
        action = guild.timeout_action if guild else "ai"
        if action == "forfeit":
            try:
                await self.resignations.resign(record.id, seat.user_id, reason="timed out and forfeits")
            except PlayError:  # gone already: applied first by a move or another pass
                return []
            return [f"timeout:{record.id}:{action}"]
        if not await self.hand_to_ai(session, seat.seat):
            return []
        await self.delivery.schedule_ai(await services.sessions.load(record.id))
        if record.in_place:  # no channel post there: the card shows the AI in the seat at the next click
            return [f"timeout:{record.id}:{action}"]
        try:
            lang = await services.languages.for_game(record)  # told to the channel (each seat's DM, in a DM game)
            for _user, channel_id in await self.delivery.announcer.seat_dms.places(record, session.seats):
                self.channels.check_postable(channel_id)
                await self.client.get_partial_messageable(channel_id).send(
                    view=note(lang.tr("⌛ {name}'s time bank ran out ({idle} into this turn); a normal AI takes "
                                      "their seat.", name=seat.display, idle=hours(now - clock.started, lang))),
                    allowed_mentions=discord.AllowedMentions.none(), silent=True,
                )
        except (discord.HTTPException, Blocked) as exc:  # the seat changed hands all the same
            log.warning("could not tell game %s that an AI took a seat: %s", record.id, exc)
        return [f"timeout:{record.id}:{action}"]

    async def hand_to_ai(self, session: Session, seat_no: int) -> bool:
        """Give the timed-out seat to a normal AI, under the game's lock and only if the game still
        waits for that person at that move (False: someone got there first)."""
        services, game_id = self.services, session.record.id
        async with services.sessions.lock(game_id):
            fresh = await services.sessions.load(game_id, fresh=True)
            seat = fresh.seat(seat_no)
            if (fresh.record.status != "active" or fresh.version != session.version or fresh.to_act != seat_no
                    or seat is None or seat.is_ai or seat.resigned):
                return False
            # The game's revision decides between processes (each holds its own lock): bot.store.leaving.
            handed = await leave_seat(services.store.db, game_id, seat_no, revision=fresh.record.revision,
                                      how="timed out", after_move=fresh.version, ai_level=TIMEOUT_AI,
                                      resigned=False)
            services.sessions.forget(game_id)
        return handed

    async def remind_by_dm(self, record: GameRecord, user_id: int, text: str, *, ping: Ping) -> None:
        """The reminder of a game the bot is not in (``bot.posting.in_place``): by DM, where the bot may
        write to the player; where it may not, nobody is told, and the clock runs on all the same (the
        card shows it)."""
        store = self.services.store
        if await store.dm_status(user_id) == "closed":
            return
        shown = await store.get_message(record.id, "board")
        announcer = self.delivery.announcer
        try:
            channel_id = await announcer.dm_channel(user_id)
            link = game_link(record, shown, reader_dm=channel_id)
            await self.client.get_partial_messageable(channel_id, type=discord.ChannelType.private).send(
                f"{text}\n{link}", silent=ping.silent)
        except discord.Forbidden as exc:
            if exc.code != CANNOT_DM:
                raise
            await store.mark_dm_closed(user_id)

    async def tell_about_aways(self) -> list[str]:
        """Post the away and back notices the commands could not (each goes out once)."""
        try:
            return await self.availability.tell_others()
        except Exception:  # the games' sweep goes on; the notices wait for the next pass
            log.exception("telling players about time away failed")
            return []

    async def guild_settings(self, guild_id: int | None) -> GuildSettings | None:
        """The server's overrides; a damaged row counts as none (the bot's own
        periods apply) rather than stopping the server's games."""
        if guild_id is None:
            return None
        try:
            return await self.services.store.guild_settings(guild_id)
        except CorruptRecord as exc:
            log.warning("settings of server %s unreadable, using the defaults: %s", guild_id, exc)
            return None

    async def trouble(self, record: GameRecord, exc: Exception) -> None:
        """A game's sweep failed. Passing trouble (Discord busy, a refusal an admin
        can fix) waits for the next pass; what would fail at every pass (a deleted
        thread, a damaged move log, a bug) parks the game, and its players hear it."""
        if isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_CHANNEL:
            await self.park(record, N_("its thread or channel was deleted"), f"channel gone: {exc}", gone=True)
            return
        if isinstance(exc, CorruptRecord):
            log.error("game %s parked: %s", record.id, exc)
            await self.park(record, N_("its saved moves are damaged"), str(exc))
            return
        if isinstance(exc, (discord.HTTPException, Blocked, aiohttp.ClientError, OSError, asyncio.TimeoutError)):
            log.warning("game %s skipped this sweep: %s", record.id, classify(exc, 0).reason)
            return
        log.exception("game %s parked after an error in the sweep", record.id, exc_info=exc)
        await self.park(record, N_("something went wrong on my side"), f"error: {exc!r}")

    async def park(self, record: GameRecord, why: str, detail: str, *, gone: bool = False) -> None:
        """Park the game and tell its players in its channel. ``why`` is a msgid (said
        in the channel's language), ``detail`` what is stored and logged."""
        store = self.services.store
        if not await store.park_game(record.id, detail):
            return
        if record.in_place:  # the bot is not in that channel: nothing can be posted there (the log has it)
            log.warning("game %s parked (%s); its players are not told: only a user install reaches its channel",
                        record.id, detail)
            return
        seats = await store.seats(record.id)
        users = [s.user_id for s in seats if s.user_id is not None and not s.resigned]
        channel_id = record.channel_id if gone else record.play_channel_id
        try:
            ping = await self.pings.notice(record.id, 0, users, "parked")
            lang = await self.services.languages.for_game(record)
            text = lang.tr("⚠️ Game #{number} is paused: {why}. Its moves so far are kept, but I can't carry on "
                           "with it by myself; a server admin can look at the bot's logs. {mentions}",
                           number=record.id, why=lang.gettext(why), mentions=" ".join(f"<@{u}>" for u in users))
            # never said where others read (bot.core.visibility); a game in DMs: in each seat's DM
            if (gone and private_place(record)) or record.seat_dms:
                for user_id in users:
                    dm = await self.delivery.announcer.dm_channel(user_id)
                    await self.client.get_partial_messageable(dm, type=discord.ChannelType.private).send(
                        view=note(text.strip()), allowed_mentions=discord.AllowedMentions(users=False),
                        silent=user_id not in ping.users)
                return
            self.channels.check_postable(channel_id)
            await self.client.get_partial_messageable(channel_id).send(
                view=note(text.strip()), allowed_mentions=ping.mentions, silent=ping.silent,
            )
        except (discord.HTTPException, Blocked) as exc:
            log.warning("could not tell the players of parked game %s: %s", record.id, exc)


def hours(delta: timedelta, lang: Lang | None = None) -> str:
    """How long a player has been idle: "5 hours", "40 minutes"."""
    total = delta.total_seconds() / 3600
    lang = lang or ENGLISH
    if total >= 2:
        return lang.tr("{count} hours", count=f"{total:.0f}")
    return lang.tr("{count} minutes", count=f"{delta.total_seconds() / 60:.0f}")


def reminder_text(name: str, game_id: int, clock: TurnClock, now: datetime, lang: Lang) -> str:
    """The ping of a player whose bank runs low (in their language), with what is left."""
    return lang.tr("⏰ {name}, it's your turn in game #{number}.", name=name, number=game_id) + " " + clock_line(
        clock, now, lang)
