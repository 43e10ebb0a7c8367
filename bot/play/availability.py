"""When a player's turn clock runs: time away (``/pyramid away``) and quiet hours
(``/pyramid quiet``), as pure functions of stored instants and one daily window.

Instants are UTC. A quiet window is a local time of day in an IANA zone (``22:00``
to ``07:00`` in ``Europe/Berlin``) and is turned into instants day by day with
:mod:`zoneinfo`, so a daylight-saving change moves the UTC times and never the
local ones: that window is 21:00–06:00 UTC in winter, 20:00–05:00 UTC in summer,
and on the night of a change still ends at 07:00 on the wall clock. A local time
the change skips (02:30 on the spring night) means the moment after the gap; one it
repeats (02:30 on the autumn night) means its first occurrence (``fold=0``).

The turn clock (what the reminder sweep asks, :class:`TurnTimer`):
- while the player is away, it stands still: no reminder, no timeout;
- after an away that overlapped the turn, it starts afresh at the return, so a
  player is never timed out (or reminded on the old count) the moment they are back;
- quiet hours don't count towards the timeout, and no timeout fires inside them;
- a reminder falls due ``reminder`` after the clock's start, wall time; one due in
  quiet hours waits for their end.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

DAY = timedelta(days=1)
_HHMM = re.compile(r"^\s*(\d{1,2})(?:\s*[:.h]\s*(\d{2}))?\s*$")


class AvailabilityError(ValueError):
    """A quiet-hours or away request that can't be taken; the message names the part."""


# --- time of day and zones ------------------------------------------------------

def parse_time_of_day(text: str) -> time:
    """``"22:00"``, ``"7:30"``, ``"07.30"`` or ``"22"`` as a time of day; AvailabilityError otherwise."""
    match = _HHMM.match(text or "")
    if match is None:
        raise AvailabilityError(text)
    hour, minute = int(match.group(1)), int(match.group(2) or 0)
    if hour > 23 or minute > 59:
        raise AvailabilityError(text)
    return time(hour, minute)


def format_time_of_day(value: time) -> str:
    return f"{value.hour:02d}:{value.minute:02d}"


@lru_cache(maxsize=1)
def zone_names() -> tuple[str, ...]:
    """Every IANA zone the ``tzdata`` package knows, sorted (read once)."""
    return tuple(sorted(available_timezones()))


def find_zone(text: str) -> str:
    """The zone named ``text`` (case and spaces forgiven: ``europe/berlin``,
    ``Europe/Berlin``, ``new york`` for ``America/New_York`` is not guessed);
    AvailabilityError when there is none."""
    wanted = (text or "").strip().replace(" ", "_")
    if not wanted or len(wanted) > 64:
        raise AvailabilityError(text)
    lowered = wanted.lower()
    for name in zone_names():
        if name.lower() == lowered:
            return name
    raise AvailabilityError(text)


def suggest_zones(typed: str, limit: int = 25) -> list[str]:
    """Zones for autocomplete: those starting with what was typed (or whose city
    does), then those containing it."""
    needle = (typed or "").strip().replace(" ", "_").lower()
    names = zone_names()
    if not needle:
        popular = ("UTC", "Europe/Berlin", "Europe/London", "America/New_York", "America/Los_Angeles",
                   "Asia/Tokyo", "Australia/Sydney")
        return [n for n in popular if n in names][:limit]
    first = [n for n in names if n.lower().startswith(needle) or n.lower().rsplit("/", 1)[-1].startswith(needle)]
    rest = [n for n in names if needle in n.lower() and n not in first]
    return (first + rest)[:limit]


# --- quiet hours ------------------------------------------------------------------

@dataclass(frozen=True)
class QuietWindow:
    """Every day from ``start`` to ``end`` local time in ``zone`` (crossing midnight
    when ``end`` is not after ``start``). ``start == end`` is refused: that is no window."""

    start: time
    end: time
    zone: str

    def __post_init__(self) -> None:
        if self.start == self.end:
            raise AvailabilityError("the quiet hours must start and end at different times")
        try:
            ZoneInfo(self.zone)
        except (ZoneInfoNotFoundError, ValueError):
            raise AvailabilityError(self.zone) from None

    @classmethod
    def parse(cls, start: str, end: str, zone: str) -> QuietWindow:
        return cls(parse_time_of_day(start), parse_time_of_day(end), find_zone(zone))

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.zone)

    @property
    def crosses_midnight(self) -> bool:
        return self.end <= self.start

    def describe(self) -> str:
        """``22:00–07:00 (Europe/Berlin)``: how the player set it."""
        return f"{format_time_of_day(self.start)}–{format_time_of_day(self.end)} ({self.zone})"

    def on(self, day: date) -> tuple[datetime, datetime]:
        """The window that starts on local ``day``, as UTC instants."""
        tz = self.tz
        begins = datetime.combine(day, self.start).replace(tzinfo=tz).astimezone(UTC)
        end_day = day + DAY if self.crosses_midnight else day
        ends = datetime.combine(end_day, self.end).replace(tzinfo=tz).astimezone(UTC)
        return begins, ends

    def windows(self, since: datetime, until: datetime) -> Iterator[tuple[datetime, datetime]]:
        """The windows (UTC, ``[start, end)``) that overlap ``[since, until)``, in order."""
        tz = self.tz
        day = since.astimezone(tz).date() - DAY
        last = until.astimezone(tz).date()
        while day <= last:
            begins, ends = self.on(day)
            if ends > since and begins < until and ends > begins:
                yield begins, ends
            day += DAY

    def containing(self, at: datetime) -> tuple[datetime, datetime] | None:
        """The window ``at`` falls in (start inclusive, end exclusive), if any."""
        for begins, ends in self.windows(at, at + timedelta(seconds=1)):
            if begins <= at < ends:
                return begins, ends
        return None

    def contains(self, at: datetime) -> bool:
        return self.containing(at) is not None

    def next_window(self, at: datetime) -> tuple[datetime, datetime]:
        """The window ``at`` is in, else the next one to begin."""
        current = self.containing(at)
        if current is not None:
            return current
        return next(self.windows(at, at + 2 * DAY))

    def quiet_time(self, since: datetime, until: datetime) -> timedelta:
        """How much of ``[since, until)`` is quiet."""
        total = timedelta()
        for begins, ends in self.windows(since, until):
            total += min(ends, until) - max(begins, since)
        return total


# --- time away ----------------------------------------------------------------------

@dataclass(frozen=True)
class AwaySpan:
    """One time away, ``[starts, ends)`` in UTC (``ends`` moved to the return when it ended early)."""

    starts: datetime
    ends: datetime

    def active(self, at: datetime) -> bool:
        return self.starts <= at < self.ends


@dataclass(frozen=True)
class Budget:
    """At most ``days`` away within any ``window_days`` days (a server's setting)."""

    days: int
    window_days: int

    @property
    def allowance(self) -> timedelta:
        return timedelta(days=self.days)

    @property
    def window(self) -> timedelta:
        return timedelta(days=self.window_days)


def used(spans: Iterable[AwaySpan], since: datetime, until: datetime) -> timedelta:
    """Time away within ``[since, until)``."""
    total = timedelta()
    for span in spans:
        overlap = min(span.ends, until) - max(span.starts, since)
        if overlap > timedelta():
            total += overlap
    return total


def _fits(spans: Sequence[AwaySpan], now: datetime, length: timedelta, budget: Budget) -> bool:
    """Whether an away of ``length`` from ``now`` keeps every window within budget.

    Only windows reaching past ``now`` change, and of those the one that ends where
    the new away ends holds the most (it has all of the new away and the most of the
    past), so that one is the test: past use in its first ``window - length`` plus
    ``length``."""
    if length > budget.allowance or length > budget.window:
        return False
    return used(spans, now - budget.window + length, now) + length <= budget.allowance


def room(spans: Sequence[AwaySpan], now: datetime, budget: Budget) -> timedelta:
    """The longest away that could start ``now`` (to the second)."""
    if not _fits(spans, now, timedelta(), budget):
        return timedelta()
    low, high = 0, int(min(budget.allowance, budget.window).total_seconds())
    while low < high:  # the test is monotonic in the length: longer never fits where shorter doesn't
        middle = (low + high + 1) // 2
        if _fits(spans, now, timedelta(seconds=middle), budget):
            low = middle
        else:
            high = middle - 1
    return timedelta(seconds=low)


def days_left(spans: Sequence[AwaySpan], now: datetime, budget: Budget) -> int:
    """Whole days of away time a player could take now."""
    return int(room(spans, now, budget) // DAY)


def available_at(spans: Sequence[AwaySpan], now: datetime, length: timedelta, budget: Budget) -> datetime | None:
    """The earliest moment (from ``now``, the player staying put until then) at which
    an away of ``length`` fits the budget; None when it never can (longer than the budget)."""
    if length > budget.allowance or length > budget.window:
        return None
    if _fits(spans, now, length, budget):
        return now
    # From a later moment T, the test reads past use from T - window + length on; find
    # the earliest such cut c with use from c on ≤ allowance - length, then T = c + window - length.
    spare = budget.allowance - length
    low, high = 0, int(budget.window.total_seconds())  # seconds after now - window
    base = now - budget.window
    while low < high:
        middle = (low + high) // 2
        if used(spans, base + timedelta(seconds=middle), now) <= spare:
            high = middle
        else:
            low = middle + 1
    return max(now, base + timedelta(seconds=low) + budget.window - length)


# --- the turn clock -------------------------------------------------------------------

@dataclass(frozen=True)
class TurnTimer:
    """One player's clock on one turn, as the reminder sweep sees it."""

    #: When the turn's clock first started (the game's last change).
    started: datetime
    #: When it (re)started: ``started``, or the return from an away that overlapped the turn.
    since: datetime
    #: The end of the away the player is on now (None: not away).
    away_until: datetime | None
    quiet: QuietWindow | None

    @classmethod
    def of(cls, started: datetime, now: datetime, aways: Iterable[AwaySpan], quiet: QuietWindow | None) -> TurnTimer:
        since, away_until = started, None
        for span in aways:
            if span.active(now):
                away_until = max(away_until or span.ends, span.ends)
            elif span.ends <= now and span.ends > since:
                since = span.ends  # back after the turn began: the clock starts afresh at the return
        return cls(started=started, since=since, away_until=away_until, quiet=quiet)

    @property
    def paused(self) -> bool:
        """Away right now: nothing runs."""
        return self.away_until is not None

    @property
    def restarted(self) -> bool:
        """An away interrupted this turn (the clock started again at the return)."""
        return self.since > self.started

    def quiet_now(self, now: datetime) -> bool:
        return self.quiet is not None and self.quiet.contains(now)

    def counted(self, now: datetime) -> timedelta:
        """The idle time that counts towards the timeout: since the (re)start, quiet hours left out."""
        if now <= self.since:
            return timedelta()
        quiet = self.quiet.quiet_time(self.since, now) if self.quiet is not None else timedelta()
        return now - self.since - quiet

    def reminder_due(self, after: timedelta) -> datetime:
        """When the reminder is due: ``after`` past the (re)start, or the end of the
        quiet hours it would fall in."""
        due = self.since + after
        if self.quiet is not None:
            window = self.quiet.containing(due)
            if window is not None:
                return window[1]
        return due

    def timeout_due(self, after: timedelta) -> datetime:
        """When ``after`` of counted time will have gone by (quiet hours skipped)."""
        at, left = self.since, after
        if self.quiet is None:
            return at + left
        while True:
            window = self.quiet.next_window(at)
            begins, ends = window
            if begins <= at:
                at = ends
                continue
            if at + left <= begins:
                return at + left
            left -= begins - at
            at = ends

    def may_remind(self, now: datetime, after: timedelta) -> bool:
        return not self.paused and not self.quiet_now(now) and now >= self.reminder_due(after)

    def may_time_out(self, now: datetime, after: timedelta) -> bool:
        return not self.paused and not self.quiet_now(now) and self.counted(now) >= after


def discord_time(at: datetime, style: str = "D") -> str:
    """A Discord timestamp (``<t:…:D>``): each reader sees it in their own zone and language."""
    return f"<t:{int(at.timestamp())}:{style}>"
