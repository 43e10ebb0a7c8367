"""Each seat's clock between clicks: the one place the rest of the bot asks how much
time a seat has (:meth:`Clocks.turn`, :meth:`Clocks.line`), and the bank a move leaves
(:meth:`Clocks.after_move`, written in the move's transaction).

The maths is :mod:`bot.clock.clock`; this module reads what it needs: the game's own
server's settings (its clock and its away budget, never those of where a command was
asked), the seat's stored bank (none stored: a full bank), when the turn began (its
last move; the game's start for the first), and the pauses that server granted.
"""

from __future__ import annotations

import dataclasses
import logging
import math
from collections.abc import Iterable
from datetime import datetime, timedelta

from bot.clock.clock import Budget, Charge, ClockRules, Span, TurnClock
from bot.clock.clock_text import clock_line
from bot.clock.rules import clock_rules
from bot.clock.upgrade import OldQuietWindow, old_deadline, upgraded_bank
from bot.core.services import Services
from bot.core.session import Session
from bot.store import CorruptRecord, GuildSettings
from bot.store.availability import AvailabilityStore, AwayRow
from bot.store.clocks import ClockStore, UpgradedTurn
from i18n import Lang

log = logging.getLogger(__name__)
DAY = timedelta(days=1)


def guild_key(guild_id: int | None) -> int:
    """How grants name a server: its id, 0 for games in DMs."""
    return guild_id or 0


def charges_for(aways: Iterable[AwayRow], key: int) -> list[Charge]:
    """The aways as server ``key``'s budget counts them: each by the days it granted;
    an away from before grants counts, whole days begun, where it was asked."""
    charges = []
    for away in aways:
        if away.granted:
            charges.append(Charge(away.starts, away.ends, away.grants.get(key, 0)))
        elif guild_key(away.guild_id) == key:
            charges.append(Charge(away.starts, away.ends, max(1, math.ceil((away.ends - away.starts) / DAY))))
    return charges


def pauses_for(aways: Iterable[AwayRow], key: int) -> list[Span]:
    """What the aways pause in server ``key``'s games: what it granted (an away from
    before grants: all of it, still capped per turn by the clock)."""
    spans = []
    for away in aways:
        if not away.granted:
            spans.append(Span(away.starts, away.ends))
        elif away.grants.get(key, 0) > 0:
            spans.append(Charge(away.starts, away.ends, away.grants[key]).pause)
    return spans


class Clocks:
    def __init__(self, services: Services) -> None:
        self.services = services
        self.store = ClockStore(services.db)
        self.aways = AvailabilityStore(services.db)

    async def settings(self, guild_id: int | None) -> GuildSettings:
        """The game's own server's settings (a DM game, or a damaged row: the defaults)."""
        if guild_id is None:
            return GuildSettings(guild_id=0)
        try:
            return await self.services.store.guild_settings(guild_id)
        except CorruptRecord as exc:
            log.warning("settings of server %s unreadable, using the defaults: %s", guild_id, exc)
            return GuildSettings(guild_id=guild_id)

    async def rules(self, guild_id: int | None) -> ClockRules:
        return clock_rules(await self.settings(guild_id), self.services.settings)

    async def budget(self, guild_id: int | None) -> Budget:
        settings = await self.settings(guild_id)
        return Budget(settings.away_days, settings.away_window_days)

    async def pauses(self, user_id: int, guild_id: int | None, since: datetime) -> list[Span]:
        try:
            rows = await self.aways.aways(user_id, since.isoformat(timespec="seconds"))
        except CorruptRecord as exc:
            log.warning("time away of player %s unreadable, ignored: %s", user_id, exc)
            return []
        return pauses_for(rows, guild_key(guild_id))

    async def started(self, session: Session) -> datetime:
        """When the running turn began: the last move, else the game's start."""
        at = await self.store.move_time(session.record.id, session.version) if session.version > 0 else None
        return datetime.fromisoformat(at or session.record.updated_at)

    async def seat_turn(self, session: Session, seat_no: int) -> TurnClock | None:
        """``seat_no``'s clock, taken as running since the turn began (None: an AI's seat)."""
        seat = session.seat(seat_no)
        if seat is None or seat.is_ai or seat.user_id is None:
            return None
        rules = await self.rules(session.record.guild_id)
        try:
            stored = await self.store.bank(session.record.id, seat_no)
        except CorruptRecord as exc:
            log.warning("%s; a full bank instead", exc)
            stored = None
        bank = rules.bank if stored is None else min(timedelta(seconds=stored), rules.bank)
        started = await self.started(session)
        pauses = await self.pauses(seat.user_id, session.record.guild_id, started)
        clock = TurnClock(started=started, bank=bank, pauses=tuple(pauses), rules=rules)
        upgraded = await self.store.upgraded_turn(session.record.id)
        if upgraded is not None and upgraded.seq == session.version:
            clock = await self.kept_from_before(clock, seat.user_id, session.record.guild_id, upgraded)
        return clock

    async def kept_from_before(self, clock: TurnClock, user_id: int, guild_id: int | None,
                               upgraded: UpgradedTurn) -> TurnClock:
        """A turn that was running when the clock came: its bank reaches the old timeout's
        deadline (:mod:`bot.clock.upgrade`), whatever has happened since."""
        try:
            rows = await self.aways.aways(user_id, "")
        except CorruptRecord as exc:
            log.warning("time away of player %s unreadable, ignored: %s", user_id, exc)
            rows = []
        before = [row for row in rows if not row.granted]  # the aways the old bot knew
        quiet_row = await self.store.old_quiet(user_id)
        quiet = OldQuietWindow.read(quiet_row.starts, quiet_row.ends, quiet_row.zone) if quiet_row else None
        deadline = old_deadline(datetime.fromisoformat(upgraded.started_at), clock.rules.bank,
                                [Span(row.starts, row.ends) for row in before], quiet)
        old = dataclasses.replace(clock, pauses=tuple(pauses_for(before, guild_key(guild_id))))
        return dataclasses.replace(clock, bank=upgraded_bank(old, deadline))

    async def turn(self, session: Session) -> TurnClock | None:
        """The clock of the seat to act in a running game (None: over, or an AI to act).
        This is what the rest of the bot asks for a seat's bank and deadline."""
        if session.over or session.record.status != "active" or session.to_act is None:
            return None
        return await self.seat_turn(session, session.to_act)

    def now(self) -> datetime:
        return self.services.clock()

    async def out_of_time(self, session: Session, now: datetime | None = None) -> TurnClock | None:
        """The running turn's clock when its bank is empty at ``now`` (None: time left,
        or no clock runs). The one question the sweep and every move ask, so that they
        can never disagree on whether a seat ran out of time."""
        clock = await self.turn(session)
        return clock if clock is not None and clock.timed_out(now or self.now()) else None

    async def line(self, session: Session, lang: Lang, now: datetime | None = None) -> str | None:
        """The clock in words for the seat to act (``⏱ 1 d 4 h left · runs out <t:…:R>``), or None."""
        clock = await self.turn(session)
        return clock_line(clock, now or self.services.clock(), lang) if clock is not None else None

    async def after_move(self, before: Session, seat: int, after: Session,
                         now: datetime | None = None) -> tuple[int, float] | None:
        """The bank ``seat`` keeps after its move from ``before`` to ``after`` at ``now``:
        what is left, plus the increment when the turn passes on. None: no clock to keep
        (an AI's seat, or a seat moving out of turn, such as a public decision)."""
        if before.to_act != seat:
            return None
        clock = await self.seat_turn(before, seat)
        if clock is None:
            return None
        kept = clock.after_move(now or self.now(), passes=after.to_act != seat)
        return seat, kept.total_seconds()
