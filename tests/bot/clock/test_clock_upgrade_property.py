"""By property (issue #37): for any turn start, quiet hours (any length short of a day, in
zones with and without daylight saving) and times away from before the clock (ended,
running, longer than the server's per-turn cap), the clock of a turn running at the
upgrade runs out exactly when the old per-turn timeout would have fired, and so never
earlier. The oracle is the old bot's own rule (``TurnTimer``, as it was before migration
0012, kept here unchanged in substance), asked at every moment the old sweep could first
have fired; the clock side is what ``Clocks.kept_from_before`` builds."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.clock.clock import ClockRules, Span, TurnClock
from bot.clock.clocks import pauses_for
from bot.clock.upgrade import OldQuietWindow, old_deadline, upgraded_bank
from bot.store.availability import AwayRow

H = timedelta(hours=1)
SECOND = timedelta(seconds=1)
ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "America/St_Johns"]


@dataclass(frozen=True)
class OldTimer:
    """The old bot's turn timer (``bot/core/availability.py`` before the clock), as the oracle."""

    since: datetime
    away_until: datetime | None
    quiet: OldQuietWindow | None

    @classmethod
    def of(cls, started: datetime, now: datetime, aways: Iterable[Span], quiet: OldQuietWindow | None) -> OldTimer:
        since, away_until = started, None
        for span in aways:
            if span.active(now):
                away_until = max(away_until or span.ends, span.ends)
            elif span.ends <= now and span.ends > since:
                since = span.ends
        return cls(since, away_until, quiet)

    def counted(self, now: datetime) -> timedelta:
        if now <= self.since:
            return timedelta()
        quiet = self.quiet.quiet_time(self.since, now) if self.quiet is not None else timedelta()
        return now - self.since - quiet

    def timeout_due(self, after: timedelta) -> datetime:
        at, left = self.since, after
        if self.quiet is None:
            return at + left
        while True:
            begins, ends = self.quiet.next_window(at)
            if begins <= at:
                at = ends
                continue
            if at + left <= begins:
                return at + left
            left -= begins - at
            at = ends

    def may_time_out(self, now: datetime, after: timedelta) -> bool:
        quiet_now = self.quiet is not None and self.quiet.contains(now)
        return self.away_until is None and not quiet_now and self.counted(now) >= after


def first_old_timeout(started: datetime, timeout: timedelta, aways: list[Span],
                      quiet: OldQuietWindow | None) -> datetime:
    """The first moment the old sweep would have fired: the old timer can only begin to fire where
    its count reaches the timeout, where quiet hours end, or where an away ends; try them all."""
    horizon = max([started, *(a.ends for a in aways)]) + 12 * timeout + timedelta(days=3)  # 2 h a day count
    candidates = {OldTimer(s, None, quiet).timeout_due(timeout) for s in [started, *(a.ends for a in aways)]}
    candidates |= {a.ends for a in aways}
    if quiet is not None:
        candidates |= {ends for _, ends in quiet.windows(started, horizon)}
    firing = [t for t in sorted(candidates) if t >= started
              and OldTimer.of(started, t, aways, quiet).may_time_out(t, timeout)]
    assert firing, "the old timer never fired"
    return firing[0]


@st.composite
def turns(draw: st.DrawFn) -> tuple[datetime, timedelta, list[Span], OldQuietWindow | None, ClockRules]:
    started = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=draw(st.integers(0, 365 * 24 * 60)))
    timeout = timedelta(hours=draw(st.integers(1, 240)))
    rules = ClockRules(bank=timeout, increment=timedelta(), reminder=timeout / 2,
                       pause_cap=timedelta(days=draw(st.integers(0, 14))))
    quiet = None
    if draw(st.booleans()):
        start = draw(st.integers(0, 24 * 60 - 1))
        length = draw(st.integers(1, 22 * 60))  # the old bot took any window: up to 22 h here
        end = (start + length) % (24 * 60)
        quiet = OldQuietWindow(time(start // 60, start % 60), time(end // 60, end % 60), draw(st.sampled_from(ZONES)))
    aways: list[Span] = []
    at = started - timedelta(hours=draw(st.integers(0, 96)))
    for _ in range(draw(st.integers(0, 3))):  # one at a time, as the old bot allowed
        at += timedelta(minutes=draw(st.integers(0, 5 * 24 * 60)))
        length = timedelta(minutes=draw(st.integers(1, 20 * 24 * 60)))
        aways.append(Span(at, at + length))
        at += length
    return started, timeout, aways, quiet, rules


@settings(max_examples=300, deadline=None)
@given(turns())
def test_a_turn_running_at_the_upgrade_runs_out_exactly_when_the_old_timeout_fired(
    turn: tuple[datetime, timedelta, list[Span], OldQuietWindow | None, ClockRules],
) -> None:
    started, timeout, aways, quiet, rules = turn
    old = first_old_timeout(started, timeout, aways, quiet)
    assert old_deadline(started, timeout, aways, quiet) == old
    # What Clocks builds: a full bank from the turn's start, paused by the aways from before grants.
    rows = [AwayRow(user_id=1, starts_at=a.starts.isoformat(), ends_at=a.ends.isoformat(), guild_id=None)
            for a in aways]
    plain = TurnClock(started=started, bank=rules.bank, pauses=tuple(pauses_for(rows, 0)), rules=rules)
    kept = dataclasses.replace(plain, bank=upgraded_bank(plain, old))
    assert kept.deadline >= old and kept.deadline >= plain.deadline  # never earlier: the promise
    assert kept.deadline == old  # and exactly then (a plain bank never reaches past the old deadline)
    assert kept.timed_out(old) and not kept.timed_out(old - SECOND)
