"""Turns that were running when the clock came: they keep the old timeout's deadline.

Before the clock (migration 0012) each turn had one timeout, counted by another rule:
``timeout_hours`` of time counted from the game's last change, where quiet hours did not
count (and no timeout fired inside them), time away stood it still, and the return from
an away started it afresh. The clock counts none of that (quiet hours never stop it, an
away pauses it within the server's grant, a return restarts nothing), so a turn running
at the upgrade given a plain full bank could fall due days earlier than its player had
been promised.

Such a turn (``clock_upgrade_turns``, written by migration 0015) starts with the bank that
makes its deadline the old rule's one, and never less than a full bank:
:func:`upgraded_bank`. The old rule is :func:`old_deadline`, over the aways from before
grants (those the old bot knew; a return after the upgrade still ends them, as it did)
and the quiet hours as they stood then (``clock_upgrade_quiet``). Anything the player does
later (an away on the clock) counts on top, as on any turn. Pure functions of instants.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.clock.clock import Span, TurnClock
from bot.clock.quiet_hours import AvailabilityError, QuietWindow, parse_time_of_day


class OldQuietWindow(QuietWindow):
    """A quiet window as the old bot took it: any length short of a day (``/pyramid quiet``
    allows 12 hours now, and the clock never stops for them)."""

    def __post_init__(self) -> None:
        if self.start == self.end:
            raise AvailabilityError("the quiet hours must start and end at different times")
        try:
            ZoneInfo(self.zone)
        except (ZoneInfoNotFoundError, ValueError):
            raise AvailabilityError(self.zone) from None

    @classmethod
    def read(cls, starts: str, ends: str, zone: str) -> OldQuietWindow | None:
        """The stored window, or None when it cannot be read (the old bot ignored it then too)."""
        try:
            return cls(parse_time_of_day(starts), parse_time_of_day(ends), zone)
        except AvailabilityError:
            return None


def counted_due(since: datetime, timeout: timedelta, quiet: QuietWindow | None) -> datetime:
    """The first moment from ``since`` at which ``timeout`` of time outside quiet hours has gone
    by and which is itself outside them (the old sweep fired no timeout inside quiet hours)."""
    at, left = since, timeout
    if quiet is None:
        return at + left
    while True:
        begins, ends = quiet.next_window(at)
        if begins <= at:  # inside a window: nothing counts until it ends
            at = ends
            continue
        if at + left < begins:
            return at + left
        left -= begins - at
        at = ends


def old_deadline(started: datetime, timeout: timedelta, aways: Iterable[Span],
                 quiet: QuietWindow | None) -> datetime:
    """When the per-turn timeout before the clock fired a turn that began at ``started``:
    ``timeout`` of counted time (:func:`counted_due`); an away stood it still, and the return
    started it afresh."""
    since = started
    for away in sorted(aways, key=lambda a: a.starts):
        if away.ends <= since:
            continue  # over before this count began
        due = counted_due(since, timeout, quiet)
        if due < away.starts:
            return due  # fired before the player left
        since = away.ends
    return counted_due(since, timeout, quiet)


def upgraded_bank(clock: TurnClock, deadline: datetime) -> timedelta:
    """The bank a turn running at the upgrade starts with: what it uses up to the old
    ``deadline`` (``clock`` paused only by the aways the old rule knew), and never less
    than the clock's own. With it, the clock runs out at ``deadline`` exactly, or later
    where the server's full bank already reaches further."""
    return max(clock.bank, clock.used(deadline))
