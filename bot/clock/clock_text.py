"""The clock in words: one small function per place it shows (board, ``/pyramid
games``, the reminder), all from :func:`clock_line`, so the board's text and a card
built from it say the same. Pure: the caller hands the clock, the time and the reader's
language."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.clock.clock import TurnClock
from i18n import Lang

MINUTE = timedelta(minutes=1)


def duration(delta: timedelta, lang: Lang) -> str:
    """``1 d 4 h``, ``5 h 30 min``, ``40 min`` (rounded down to the minute; never below zero)."""
    minutes = max(int(delta // MINUTE), 0)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return lang.tr("{days} d {hours} h", days=days, hours=hours) if hours else lang.tr("{days} d", days=days)
    if hours:
        return lang.tr("{hours} h {minutes} min", hours=hours, minutes=minutes) if minutes else lang.tr(
            "{hours} h", hours=hours)
    return lang.tr("{minutes} min", minutes=minutes)


def stamp(at: datetime, style: str = "R") -> str:
    """A Discord timestamp: each reader sees it in their own zone and language."""
    return f"<t:{int(at.timestamp())}:{style}>"


def clock_line(clock: TurnClock, now: datetime, lang: Lang) -> str:
    """The seat to act's clock: ``⏱ 1 d 4 h left · runs out <t:…:R>``, or, while the
    player is away, that it stands still and until when at the latest."""
    left = duration(clock.left(now), lang)
    if clock.paused_now(now):
        return "⏸ " + lang.tr("Away: the clock stands at {left} left (it runs again {when} at the latest).",
                              left=left, when=stamp(clock.deadline - clock.left(now)))
    if clock.timed_out(now):
        return "⏱ " + lang.tr("The time bank is empty.")
    return "⏱ " + lang.tr("{left} left · runs out {when}", left=left, when=stamp(clock.deadline))
