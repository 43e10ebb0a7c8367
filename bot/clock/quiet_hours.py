"""Quiet hours (``/pyramid quiet``) as pure functions of instants and one daily window,
and the time-of-day and zone parsing behind the command.

Instants are UTC. A quiet window is a local time of day in an IANA zone (``22:00``
to ``07:00`` in ``Europe/Berlin``) and is turned into instants day by day with
:mod:`zoneinfo`, so a daylight-saving change moves the UTC times and never the
local ones: that window is 21:00–06:00 UTC in winter, 20:00–05:00 UTC in summer,
and on the night of a change still ends at 07:00 on the wall clock. A local time
the change skips (02:30 on the spring night) means the moment after the gap; one it
repeats (02:30 on the autumn night) means its first occurrence (``fold=0``).

Quiet hours only keep the bot from pinging the player (a reminder due in them waits
for their end); they never stop the turn clock (:mod:`bot.clock.clock`), and a window
is at most :data:`LONGEST_QUIET` on the wall clock, so a night is quiet, a day is not.
Time away and its budget are in :mod:`bot.clock.clock` too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

DAY = timedelta(days=1)
#: The longest quiet window, on the wall clock.
LONGEST_QUIET = timedelta(hours=12)
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
    when ``end`` is not after ``start``). ``start == end`` is refused (that is no
    window), and so is a window longer than :data:`LONGEST_QUIET`."""

    start: time
    end: time
    zone: str

    def __post_init__(self) -> None:
        if self.start == self.end:
            raise AvailabilityError("the quiet hours must start and end at different times")
        if self.length > LONGEST_QUIET:
            raise AvailabilityError("quiet hours are at most 12 hours long")
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

    @staticmethod
    def span(start: time, end: time) -> timedelta:
        """How long a window from ``start`` to ``end`` is on the wall clock."""
        minutes = (end.hour * 60 + end.minute) - (start.hour * 60 + start.minute)
        return timedelta(minutes=minutes % (24 * 60))

    @property
    def length(self) -> timedelta:
        """How long the window is on the wall clock (a daylight-saving night may differ by an hour)."""
        return self.span(self.start, self.end)

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


def discord_time(at: datetime, style: str = "D") -> str:
    """A Discord timestamp (``<t:…:D>``): each reader sees it in their own zone and language."""
    return f"<t:{int(at.timestamp())}:{style}>"
