"""The notification gate: the one place every message that may buzz a player passes (issue #39).

What runs between clicks (boards, hand DMs, reminders, notices: ``bot/core``) asks it through
the :class:`bot.posting.pings.Pings` protocol and gets a :class:`~bot.posting.pings.Ping`
(whom the message may buzz); the notices it sends itself (the minute's batch, heads-ups, repeated
reminders, the digest) ask it too. The rule is :mod:`bot.notifications.policy`; the history it
reads (the hour's buzzes, the held notices) and the verdict it writes share one write transaction
(:class:`bot.store.notifications.NotificationStore`), so two processes never both take the last
slot of an hour, and the board and the hand DM of one turn hear one verdict.

Nothing here stops, slows or moves a clock: a muted or digest-only player's turn runs out as
every other (``bot.clock``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

import discord

from bot.cards.cards import note
from bot.cards.custom_ids import CustomId
from bot.cards.links import game_link
from bot.core.errors import PlayError
from bot.core.services import Services
from bot.core.session import Session
from bot.notifications.policy import (
    Circumstances,
    Event,
    Kind,
    Ledger,
    Settings,
    decide,
    merge,
    repeat_due,
)
from bot.posting.failures import CANNOT_DM
from bot.posting.pings import QUIET, Ping, Place
from bot.store.notifications import LogRow, NotificationStore, PlayerLog
from bot.store.records import GameRecord
from i18n import Lang

if TYPE_CHECKING:
    from bot.interactions.host import Host

log = logging.getLogger(__name__)

#: A repeated reminder's "no more pings this turn" button (``bot.notifications.button``).
STOP_ACTION = "hush"


class NotificationGate:
    """The gate (``bot.posting.pings.Pings``) and the notices it sends on its own."""

    def __init__(self, services: Services, client: discord.Client) -> None:
        self.services = services
        self.client = client
        self.store = NotificationStore(services.db)
        self._host: Host | None = None
        #: Players whose digest found their DMs closed and who were not told yet (loaded once, then kept).
        self._unreachable: set[int] | None = None

    def attach(self, host: Host) -> None:
        """The host it sends through (DM channels, quiet hours, clocks): built after the gate, which it
        was handed."""
        self._host = host

    @property
    def host(self) -> Host:
        if self._host is None:
            raise RuntimeError("the notification gate is not attached to a host")
        return self._host

    # --- settings ----------------------------------------------------------------------
    async def settings(self, user_id: int, game_id: int | None = None) -> Settings:
        """The player's settings, with ``game_id``'s override laid over them."""
        own = merge(Settings(), await self.store.settings(user_id, 0))
        if game_id is None:
            return own
        return merge(own, await self.store.settings(user_id, game_id))

    async def _places(self, settings: Settings, session: Session, user_id: int) -> tuple[Place, ...]:
        """Where a turn's notice buzzes: as the player chose, but on the board when a DM can't carry it
        (their DMs are closed, or the game has no hand DM to say it)."""
        places = settings.places()
        if "dm" in places and (await self.services.store.dm_status(user_id) == "closed"
                               or not (session.presenter.has_hand or session.record.in_place)):
            places = ("board",)
        return places

    async def _quiet(self, user_id: int, now: datetime) -> bool:
        return not await self.host.reminders.availability.pingable(user_id, now)

    async def _decide(self, user_id: int, settings: Settings, event: Event, *, stopped: bool = False,
                      kind: str | None = None) -> tuple[str, bool]:
        """The verdict on one notice (written once; the same for every later asker), and whether it is new."""
        now = self.services.clock()
        circumstances = Circumstances(quiet=await self._quiet(user_id, now), stopped=stopped)
        fresh: list[bool] = []

        def judge(history: PlayerLog) -> str:
            fresh.append(True)
            return decide(settings, event, now, history.buzzes, len(history.held), circumstances)

        verdict = await self.store.decide(user_id, event.game_id, event.version, kind or event.kind, now, judge)
        return verdict, bool(fresh)

    # --- digests that found DMs closed (said once: bot.notifications.unreachable) ---------------
    async def digest_unreachable(self, user_id: int) -> bool:
        if self._unreachable is None:
            self._unreachable = await self.store.unreachable()
        return user_id in self._unreachable

    def unreachable(self, user_id: int) -> None:
        if self._unreachable is not None:
            self._unreachable.add(user_id)

    def reached(self, user_id: int) -> None:
        if self._unreachable is not None:
            self._unreachable.discard(user_id)

    # --- the Pings protocol ----------------------------------------------------------------
    async def turn(self, session: Session, place: Place) -> Ping:
        seat_no = session.to_act
        seat = session.seat(seat_no) if seat_no is not None else None
        if (session.over or session.record.status != "active" or seat is None or seat.is_ai or seat.resigned
                or seat.user_id is None):
            return QUIET
        user_id, game_id = seat.user_id, session.record.id
        if await self.store.mover(game_id, session.version) == seat_no:
            return QUIET  # their turn goes on after their own move (Pyramido's stones): they are at it, no news
        settings = await self.settings(user_id, game_id)
        verdict, new = await self._decide(user_id, settings, Event(game_id, session.version, "turn"))
        if new:
            try:
                await self._heads_up(session)
            except discord.HTTPException as exc:  # the board goes on; the heads-up is not tried again
                log.info("could not send the heads-up of game %s: %s", game_id, exc)
        if verdict == "buzz" and place in await self._places(settings, session, user_id):
            return Ping((user_id,))
        return QUIET

    async def reminder(self, session: Session, user_id: int) -> Ping:
        settings = await self.settings(user_id, session.record.id)
        verdict, _new = await self._decide(user_id, settings, Event(session.record.id, session.version, "reminder"))
        return Ping((user_id,)) if verdict == "buzz" else QUIET

    async def notice(self, game_id: int, version: int, users: Sequence[int], what: str) -> Ping:
        granted: list[int] = []
        for user_id in dict.fromkeys(users):
            settings = await self.settings(user_id, game_id)
            verdict, _new = await self._decide(user_id, settings, Event(game_id, version, "notice"),
                                               kind=f"notice:{what}"[:60])
            if verdict == "buzz":
                granted.append(user_id)
        return Ping(tuple(granted))

    async def by_dm(self, user_id: int, game_id: int) -> bool:
        return (await self.settings(user_id, game_id)).mode == "dm" and (
            await self.services.store.dm_status(user_id) != "closed")

    # --- notices the gate sends itself ------------------------------------------------------
    async def link_for(self, record: GameRecord, user_id: int) -> str:
        """A link to the game's latest board that opens for ``user_id`` (``bot.cards.links``)."""
        shown = await self.services.store.get_message(record.id, "board")
        reader_dm = await self.host.announcer.dm_channel(user_id) if record.seat_dms else None
        return game_link(record, shown, reader_dm=reader_dm)

    async def _dm(self, user_id: int, text: str, ping: Ping,
                  view: discord.ui.LayoutView | None = None) -> bool:
        """A DM to the player (False: their DMs are closed)."""
        store = self.services.store
        if await store.dm_status(user_id) == "closed":
            return False
        announcer = self.host.announcer
        try:
            channel_id = await announcer.dm_channel(user_id)
            await self.client.get_partial_messageable(channel_id, type=discord.ChannelType.private).send(
                view=view or note(text), silent=ping.silent)
        except discord.Forbidden as exc:
            if exc.code != CANNOT_DM:
                raise
            await store.mark_dm_closed(user_id)
            return False
        return True

    async def _heads_up(self, session: Session) -> None:
        """The player after the one to act hears they are next, when they asked for it (off by default)."""
        seats = [s for s in session.seats if not s.resigned]
        numbers = [s.seat for s in seats]
        if session.to_act not in numbers or len(seats) < 3:
            return  # with two players, "you're next" is "it's your turn" one move early
        after = seats[(numbers.index(session.to_act) + 1) % len(seats)]
        if after.is_ai or after.user_id is None:
            return
        settings = await self.settings(after.user_id, session.record.id)
        if not settings.heads_up:
            return
        verdict, new = await self._decide(after.user_id, settings, Event(session.record.id, session.version,
                                                                         "heads_up"))
        if not new or verdict == "silent":
            return
        ping = Ping((after.user_id,)) if verdict == "buzz" else QUIET
        lang = await self.services.languages.for_user(after.user_id, session.record.guild_id)
        current = session.seat(session.to_act) if session.to_act is not None else None
        text = lang.tr("⏭️ You're next in game #{number}: {name} is to move. {link}", number=session.record.id,
                       name=current.plain_name if current is not None else "?",
                       link=await self.link_for(session.record, after.user_id))
        await self._dm(after.user_id, text, ping)

    async def repeat(self, session: Session, started: datetime, now: datetime) -> list[str]:
        """The player's own reminder interval: while it is their turn, a reminder every interval, up to
        their cap per turn, with a 🔕 button to stop them for this turn. On top of the clock's own
        low-bank reminder, which always comes."""
        seat = session.seat(session.to_act) if session.to_act is not None else None
        if seat is None or seat.is_ai or seat.user_id is None:
            return []
        user_id, game_id, version = seat.user_id, session.record.id, session.version
        settings = await self.settings(user_id, game_id)
        repeats, stopped = await self.store.turn(user_id, game_id, version)
        if stopped or not repeat_due(settings, started, repeats, now):
            return []
        if await self._quiet(user_id, now):
            return []  # it comes when their quiet hours end
        verdict, _new = await self._decide(user_id, settings, Event(game_id, version, "repeat"),
                                           kind=f"repeat:{repeats + 1}")
        await self.store.repeated(user_id, game_id, version)
        if verdict == "silent":
            return []
        ping = Ping((user_id,)) if verdict == "buzz" else QUIET
        lang = await self.services.languages.for_user(user_id, session.record.guild_id)
        text = lang.tr("🔔 {name}, it's still your turn in game #{number} ({count} of {cap}). {link}",
                       name=f"<@{user_id}>", number=game_id, count=repeats + 1, cap=settings.cap,
                       link=await self.link_for(session.record, user_id))
        view = stop_card(text, game_id, version, lang)
        if session.record.in_place or session.record.seat_dms or settings.mode == "dm":  # seat_dms: its DM is its place
            await self._dm(user_id, text, ping, view)
        else:
            await self.client.get_partial_messageable(session.record.play_channel_id).send(
                view=view, allowed_mentions=ping.mentions, silent=ping.silent)
        return [f"repeat:{game_id}"]

    async def stop(self, user_id: int, game_id: int, version: int) -> bool:
        """🔕 No more pings this turn (the clock's low-bank reminder still comes)."""
        return await self.store.stop(user_id, game_id, version)

    # --- the minute's batch -------------------------------------------------------------------
    async def _live(self, row: LogRow) -> bool:
        """Whether a held notice is still news: a turn's (or its reminders') while it is still theirs."""
        if row.kind.startswith("notice"):
            return True
        try:
            session = await self.services.sessions.load(row.game_id)
        except PlayError:
            return False
        if session.over or session.record.status != "active":
            return False
        if row.kind == "heads_up":
            return session.version == row.version
        seat = session.seat(session.to_act) if session.to_act is not None else None
        return session.version == row.version and seat is not None and seat.user_id == row.user_id

    async def flush(self, user_id: int) -> list[LogRow] | None:
        """Send the player's held notices as one message, when a minute has passed and the hour has room."""
        now = self.services.clock()
        held = (await self.store.player_log(user_id, now)).held
        dead = [r for r in held if not await self._live(r)]

        def choose(history: PlayerLog) -> list[LogRow] | None:
            ledger = Ledger(list(history.buzzes), [(Event(r.game_id, r.version, "turn"), r.at) for r in history.held])
            chosen = ledger.flush(now, [Event(r.game_id, r.version, "turn") for r in history.held])
            return list(history.held) if chosen else None

        batch = await self.store.batch(user_id, now, dead, choose)
        if not batch:
            return None
        lang = await self.services.languages.for_user(user_id)
        lines = [lang.gettext("🔔 While you were away from the screen:")]
        for row in batch:
            record = await self.services.store.game_record(row.game_id)
            if record is None:
                continue
            link = await self.link_for(record, user_id)
            lines.append(batch_line(row, lang, link))
        if not await self._dm(user_id, "\n".join(lines), Ping((user_id,))):
            log.info("the batch for %s found their DMs closed; their boards show the mentions", user_id)
        return batch

def batch_line(row: LogRow, lang: Lang, link: str) -> str:
    kind: Kind | str = row.kind.split(":", 1)[0]
    if kind == "turn":
        return "🎯 " + lang.tr("Your turn in game #{number}: {link}", number=row.game_id, link=link)
    if kind == "heads_up":
        return "⏭️ " + lang.tr("You're next in game #{number}: {link}", number=row.game_id, link=link)
    if kind in ("reminder", "repeat"):
        return "⏰ " + lang.tr("Still your turn in game #{number}: {link}", number=row.game_id, link=link)
    return "📣 " + lang.tr("News in game #{number}: {link}", number=row.game_id, link=link)


def stop_card(text: str, game_id: int, version: int, lang: Lang) -> discord.ui.LayoutView:
    """A repeated reminder with its 🔕 button."""
    button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
        label=lang.gettext("🔕 No more pings this turn"), style=discord.ButtonStyle.secondary,
        custom_id=CustomId(STOP_ACTION, game_id, version).encode())
    return note(text, controls=[button])


__all__ = ["NotificationGate"]
