"""The maths of time away and quiet hours: budgets over any window, daily windows in a
player's zone across daylight-saving changes, and the turn clock the sweep reads."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest

from bot.play.availability import (
    AvailabilityError,
    AwaySpan,
    Budget,
    QuietWindow,
    TurnTimer,
    available_at,
    days_left,
    discord_time,
    find_zone,
    parse_time_of_day,
    room,
    suggest_zones,
    used,
)

BERLIN_NIGHT = QuietWindow(time(22, 0), time(7, 0), "Europe/Berlin")
BUDGET = Budget(14, 90)


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, second, tzinfo=UTC)


def test_times_of_day_and_zones_are_read_forgivingly_and_refused_clearly() -> None:
    assert parse_time_of_day("22:00") == time(22, 0)
    assert parse_time_of_day(" 7:05 ") == time(7, 5)
    assert parse_time_of_day("07.30") == time(7, 30)
    assert parse_time_of_day("22") == time(22, 0)
    for bad in ("24:00", "7:60", "noon", "", "7:5", "-1:00"):
        with pytest.raises(AvailabilityError):
            parse_time_of_day(bad)
    assert find_zone("europe/berlin") == "Europe/Berlin"
    assert find_zone("America/New York") == "America/New_York"
    for bad in ("Mars/Olympus", "", "x" * 100):
        with pytest.raises(AvailabilityError):
            find_zone(bad)
    assert suggest_zones("berl")[0] == "Europe/Berlin"
    assert suggest_zones("")[:2] == ["UTC", "Europe/Berlin"]
    assert all("york" in z.lower() for z in suggest_zones("york"))
    assert len(suggest_zones("a")) == 25
    with pytest.raises(AvailabilityError):
        QuietWindow(time(7, 0), time(7, 0), "UTC")
    with pytest.raises(AvailabilityError):
        QuietWindow(time(7, 0), time(8, 0), "Nowhere/Special")


def test_a_night_window_follows_the_wall_clock_through_both_daylight_saving_changes() -> None:
    # Winter: 22:00–07:00 CET is 21:00–06:00 UTC; summer (CEST) 20:00–05:00 UTC.
    assert BERLIN_NIGHT.on(utc(2026, 1, 10).date()) == (utc(2026, 1, 10, 21), utc(2026, 1, 11, 6))
    assert BERLIN_NIGHT.on(utc(2026, 7, 10).date()) == (utc(2026, 7, 10, 20), utc(2026, 7, 11, 5))
    # The nights of the changes (2026-03-29 and 2026-10-25, at 01:00 UTC): still 22:00 to 07:00 local,
    # so the night is an hour shorter in spring and an hour longer in autumn.
    spring = BERLIN_NIGHT.on(utc(2026, 3, 28).date())
    assert spring == (utc(2026, 3, 28, 21), utc(2026, 3, 29, 5)) and spring[1] - spring[0] == timedelta(hours=8)
    autumn = BERLIN_NIGHT.on(utc(2026, 10, 24).date())
    assert autumn == (utc(2026, 10, 24, 20), utc(2026, 10, 25, 6)) and autumn[1] - autumn[0] == timedelta(hours=10)
    assert BERLIN_NIGHT.contains(utc(2026, 10, 25, 5, 30))  # 06:30 CET
    assert not BERLIN_NIGHT.contains(utc(2026, 10, 25, 6))  # 07:00 CET: the end is not quiet any more
    assert BERLIN_NIGHT.containing(utc(2026, 10, 25, 5, 59, 59)) == autumn
    assert BERLIN_NIGHT.quiet_time(utc(2026, 10, 24), utc(2026, 10, 26)) == timedelta(hours=5 + 10 + 3)
    assert BERLIN_NIGHT.next_window(utc(2026, 10, 24, 12)) == autumn


def test_windows_in_a_day_and_on_the_far_side_of_the_date_line() -> None:
    lunch = QuietWindow(time(12, 0), time(13, 30), "America/New_York")
    assert lunch.on(utc(2026, 1, 5).date()) == (utc(2026, 1, 5, 17), utc(2026, 1, 5, 18, 30))
    assert lunch.on(utc(2026, 7, 5).date()) == (utc(2026, 7, 5, 16), utc(2026, 7, 5, 17, 30))
    assert not lunch.crosses_midnight and BERLIN_NIGHT.crosses_midnight
    # Auckland's night starts on the previous UTC day.
    night = QuietWindow(time(23, 0), time(6, 0), "Pacific/Auckland")
    assert night.contains(utc(2026, 1, 5, 11)) and not night.contains(utc(2026, 1, 5, 9))
    # A start that spring's change skips (02:30 on 2026-03-29 in Berlin) means the moment after the gap.
    skipped = QuietWindow(time(2, 30), time(4, 0), "Europe/Berlin")
    assert skipped.on(utc(2026, 3, 29).date()) == (utc(2026, 3, 29, 1, 30), utc(2026, 3, 29, 2))
    assert discord_time(utc(2026, 10, 25, 6)) == "<t:1792908000:D>"


def test_the_budget_holds_in_every_window_and_says_when_days_come_back() -> None:
    now = utc(2026, 6, 1)
    assert days_left([], now, BUDGET) == 14 and room([], now, BUDGET) == timedelta(days=14)
    past = [AwaySpan(now - timedelta(days=80), now - timedelta(days=75)),  # 5 days, 80 to 75 days ago
            AwaySpan(now - timedelta(days=10), now - timedelta(days=7))]   # 3 days
    assert used(past, now - BUDGET.window, now) == timedelta(days=8)
    # 6 days keep today's window at 14; a longer away's window ends later and drops the oldest days:
    # 7 days → the window [now - 83 d, now + 7 d] holds 5 + 3 + 7 = 15 > 14, so 6 is the most.
    assert days_left(past, now, BUDGET) == 6
    assert room(past, now, BUDGET) == timedelta(days=6)
    # 9 days fit once the window ending at the return holds only 2 days of the first away: from
    # 77 days ago (2 + 3 + 9 = 14), so from now + 4 days (that window's start, + 90 - 9).
    assert available_at(past, now, timedelta(days=9), BUDGET) == now + timedelta(days=4)
    assert available_at(past, now, timedelta(days=5), BUDGET) == now
    assert available_at(past, now, timedelta(days=15), BUDGET) is None
    # Partly used days count as what they were: 2.5 days leave 11.5, that is 11 whole days.
    half = [AwaySpan(now - timedelta(days=3), now - timedelta(days=0.5))]
    assert days_left(half, now, BUDGET) == 11
    assert available_at(half, now, timedelta(days=12), BUDGET) == now - timedelta(days=2.5) + timedelta(days=78)
    # A budget lowered below what was used leaves nothing now.
    assert days_left(past, now, Budget(4, 90)) == 0
    assert days_left([], now, Budget(0, 90)) == 0


def test_the_turn_clock_stands_still_while_away_and_starts_afresh_at_the_return() -> None:
    started = utc(2026, 11, 22, 12)
    away = AwaySpan(started + timedelta(hours=30), started + timedelta(days=5))
    during = TurnTimer.of(started, started + timedelta(days=4), [away], None)
    assert during.paused and not during.may_time_out(started + timedelta(days=4), timedelta(hours=72))
    assert not during.may_remind(started + timedelta(days=4), timedelta(hours=24))
    after = TurnTimer.of(started, away.ends + timedelta(hours=1), [away], None)
    assert not after.paused and after.restarted and after.since == away.ends
    assert after.counted(away.ends + timedelta(hours=1)) == timedelta(hours=1)
    assert after.reminder_due(timedelta(hours=24)) == away.ends + timedelta(hours=24)
    assert after.timeout_due(timedelta(hours=72)) == away.ends + timedelta(hours=72)
    # An away that ended before the turn began changes nothing.
    old = AwaySpan(started - timedelta(days=3), started - timedelta(days=1))
    plain = TurnTimer.of(started, started + timedelta(hours=2), [old], None)
    assert not plain.restarted and plain.since == started


def test_quiet_hours_hold_back_reminders_to_their_end_and_do_not_count_towards_timeouts() -> None:
    # The move at 03:00 UTC on Saturday 2026-10-24; the reminder would be due at 03:00 UTC on Sunday,
    # 04:00 CET after the change (01:00 UTC): inside the night, so it waits until 07:00 CET = 06:00 UTC.
    started = utc(2026, 10, 24, 3)
    timer = TurnTimer.of(started, started, [], BERLIN_NIGHT)
    assert timer.reminder_due(timedelta(hours=24)) == utc(2026, 10, 25, 6)
    assert not timer.may_remind(utc(2026, 10, 25, 5), timedelta(hours=24))  # 07:00 in summer time, not now
    assert timer.may_remind(utc(2026, 10, 25, 6), timedelta(hours=24))
    # A reminder due outside quiet hours is not moved.
    assert timer.reminder_due(timedelta(hours=10)) == started + timedelta(hours=10)
    # Timeouts: quiet time is skipped. Saturday 05:00 UTC ends the night the move was made in (07:00 CEST),
    # then 15 h of day, a 10 h night, 15 h of Sunday, a 9 h night, ...
    assert timer.counted(utc(2026, 10, 24, 5)) == timedelta()
    assert timer.counted(utc(2026, 10, 25, 6)) == timedelta(hours=15)
    assert timer.timeout_due(timedelta(hours=20)) == utc(2026, 10, 25, 11)
    assert timer.timeout_due(timedelta(hours=72)) == utc(2026, 10, 28, 18)
    due = timer.timeout_due(timedelta(hours=72))
    assert timer.counted(due) == timedelta(hours=72) and timer.may_time_out(due, timedelta(hours=72))
    assert not timer.may_time_out(due - timedelta(seconds=1), timedelta(hours=72))
    # No timeout inside quiet hours, even when the count was reached before (a late sweep).
    assert timer.quiet_now(utc(2026, 10, 28, 22)) and not timer.may_time_out(utc(2026, 10, 28, 22),
                                                                              timedelta(hours=72))
