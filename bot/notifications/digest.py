"""The daily digest (issue #39): at most one DM a day, at the local hour the player picked.

It lists every game where it is their turn, in every server and DM, with the time their bank
has left, one line of what changed since their last move and a jump link; games whose bank is
below a day come first (the list is ordered by time left). Each game is shown only as the one
visibility rule admits it to the player by DM (:func:`bot.core.visibility.admit`): another's
game never appears, nor a shared deal's game that is not theirs. A muted game is left out.

When: from the picked hour of the player's local day on (their zone: the one set with
``/pyramid notify timezone:``, else their quiet hours' zone, else UTC), once that day, and
not inside their quiet hours (it then comes when they end). DMs closed: the day is counted,
and the player is told once where they next use the bot (``bot.client.client.on_interaction``).

Costs: a digest is one rate-limited request (and one more to open a DM channel the process has
not opened yet). The sweep spends at most :data:`SHARE` of the process's share of Discord's
global limit on them, each request spaced by :class:`bot.posting.rest_budget.GlobalLimit`,
so boards and hands keep the rest; 10,000 digests due in one hour (20,000 requests on the first
day) go out in 20,000 / (SHARE × 45) s = 37 min (``python -m tools.bench.notifications``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.cards.since import display_names, since_your_turn
from bot.clock.clock_text import duration, stamp
from bot.core.errors import PlayError
from bot.core.visibility import Viewer, admit
from bot.notifications.policy import CAP_PER_HOUR, Settings, buzzes_in_hour, merge
from bot.posting.pings import QUIET, Ping
from bot.posting.rest_budget import GlobalLimit
from bot.store.notifications import PlayerLog
from i18n import Lang

if TYPE_CHECKING:
    from bot.notifications.gate import NotificationGate

log = logging.getLogger(__name__)

#: The part of the process's share of Discord's global limit the digests may use.
SHARE = 0.2
#: How long one sweep pass may spend sending digests (at two requests each, at most).
PASS_SECONDS = 25.0
DAY = timedelta(days=1)


@dataclass(frozen=True)
class Entry:
    """One game of a digest."""

    game_id: int
    left: timedelta
    line: str


def zone_of(name: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def due_day(settings: Settings, zone: ZoneInfo, now: datetime, last_day: str | None) -> str | None:
    """The local day whose digest is due at ``now`` (None: not yet, or sent already)."""
    hour = settings.digest_at
    if hour is None:
        return None
    local = now.astimezone(zone)
    day = local.date().isoformat()
    if local.hour < hour or (last_day is not None and last_day >= day):
        return None
    return day


class Digests:
    def __init__(self, gate: NotificationGate, *, limit: GlobalLimit | None = None,
                 send: Callable[[int, str, Ping], Awaitable[bool]] | None = None) -> None:
        self.gate = gate
        self.services = gate.services
        self.store = gate.store
        per_second = max(0.1, SHARE * float(getattr(self.services.settings, "rest_per_second", 50.0)))
        #: The digests' own pace (every request also waits for the process's global limit as it is sent).
        self.limit = limit or GlobalLimit(per_second)
        self.send = send or gate._dm

    async def sweep(self) -> list[str]:
        """Send the digests that are due, as many as fit in one pass at the digests' pace (the rest at the next
        pass, a minute later: the batches, swept first, never wait long); never raises for one player."""
        done: list[str] = []
        now = self.services.clock()
        budget = max(1, int(self.limit.per_second * PASS_SECONDS / 2))
        # A day ahead of UTC at most (UTC+14): a player whose last digest is from that day is done already.
        ahead = (now + timedelta(hours=14)).date().isoformat()
        for user_id, own, last_day in await self.store.digest_players(ahead):
            if len(done) >= budget:
                break
            try:
                if await self.one(user_id, merge(Settings(), own), own.get("zone"), now, last_day):
                    done.append(f"digest:{user_id}")
            except Exception:
                log.exception("the digest of %s failed", user_id)
        return done

    async def zone(self, user_id: int, chosen: str | None) -> ZoneInfo:
        if chosen:
            return zone_of(chosen)
        quiet = await self.gate.host.reminders.availability.quiet(user_id)
        return zone_of(quiet.zone if quiet is not None else None)

    async def one(self, user_id: int, settings: Settings, zone_name: str | None, now: datetime,
                  last_day: str | None = None) -> bool:
        day = due_day(settings, await self.zone(user_id, zone_name), now, last_day)
        if day is None:
            return False
        if not await self.gate.host.reminders.availability.pingable(user_id, now):
            return False  # inside their quiet hours: it comes when they end
        lang = await self.services.languages.for_user(user_id)
        entries = await self.entries(user_id, lang, now)
        if not await self.store.digest_sent(user_id, day, now):
            return False  # another pass (another process) has it
        if not entries:
            return False
        ping = await self._ping(user_id, now)
        await self.limit.acquire()  # the post
        if not self.gate.host.announcer.knows_dm_channel(user_id):
            await self.limit.acquire()  # and opening the DM channel first
        sent = await self.send(user_id, digest_text(entries, lang), ping)
        if not sent:
            await self.store.digest_blocked(user_id)
            self.gate.unreachable(user_id)
        return sent

    async def _ping(self, user_id: int, now: datetime) -> Ping:
        """The digest buzzes when the hour has room (it never waits: it is the day's list, sent silently
        otherwise)."""
        def judge(history: PlayerLog) -> str:
            recent = any(now - timedelta(minutes=1) < at <= now for at in history.buzzes)
            return "silent" if recent or buzzes_in_hour(history.buzzes, now) >= CAP_PER_HOUR else "buzz"

        verdict = await self.store.decide(user_id, 0, int(now.timestamp()) // 86400, "digest", now, judge)
        return Ping((user_id,)) if verdict == "buzz" else QUIET

    async def entries(self, user_id: int, lang: Lang, now: datetime) -> list[Entry]:
        """Every game where it is the player's turn, as the visibility rule lets them see it by DM."""
        services = self.services
        found: list[Entry] = []
        for record in await services.store.games_of_user(user_id, None, ("active",)):
            try:
                session = await services.sessions.load(record.id)
            except PlayError:
                continue
            seat = session.seat(session.to_act) if session.to_act is not None else None
            if seat is None or seat.user_id != user_id or seat.is_ai or seat.resigned:
                continue
            if (await self.gate.settings(user_id, record.id)).muted:
                continue
            try:
                await admit(services.store, record, Viewer(user_id, None, None), now)  # by DM: the one rule
            except PlayError:
                continue
            clock = await self.gate.host.reminders.clocks.turn(session)
            left = clock.left(now) if clock is not None else DAY * 365
            since = await since_your_turn(services.store, services.sessions, session, seat.seat)
            changed = since.summary(display_names(session), lang) if since is not None and since.moves else \
                lang.gettext("Nothing new since your last move.")
            link = await self.gate.link_for(record, user_id)
            p = session.presenter
            time_left = (lang.tr("{left} left, runs out {when}", left=duration(left, lang), when=stamp(clock.deadline))
                         if clock is not None else lang.gettext("no clock"))
            line = f"{p.emoji} **{p.title}** #{record.id} · {time_left}\n{changed} {link}"
            found.append(Entry(record.id, left, line))
        return sorted(found, key=lambda e: (e.left, e.game_id))


def digest_text(entries: list[Entry], lang: Lang) -> str:
    urgent = sum(1 for e in entries if e.left < DAY)
    head = lang.trn("📬 Your daily digest: it's your turn in {n} game.",
                    "📬 Your daily digest: it's your turn in {n} games.", len(entries), n=len(entries))
    if urgent:
        head += " " + lang.trn("{n} of them has less than a day left.", "{n} of them have less than a day left.",
                               urgent, n=urgent)
    return "\n\n".join([head, *(e.line for e in entries)])


__all__ = ["SHARE", "Digests", "digest_text", "due_day"]
