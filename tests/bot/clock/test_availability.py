"""The maths of quiet hours: daily windows in a player's zone across daylight-saving
changes, at most 12 hours long. Time away and the turn clock: tests/bot/clock/test_clock.py."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest

from bot.clock.quiet_hours import (
    AvailabilityError,
    QuietWindow,
    discord_time,
    find_zone,
    parse_time_of_day,
    suggest_zones,
)

BERLIN_NIGHT = QuietWindow(time(22, 0), time(7, 0), "Europe/Berlin")


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


def test_a_quiet_window_is_at_most_twelve_hours_on_the_wall_clock() -> None:
    assert QuietWindow(time(20, 0), time(8, 0), "UTC").length == timedelta(hours=12)
    assert QuietWindow(time(13, 0), time(1, 0), "Europe/Berlin").length == timedelta(hours=12)
    for start, end in ((time(0, 0), time(23, 59)), (time(20, 0), time(8, 1)), (time(8, 0), time(7, 0))):
        with pytest.raises(AvailabilityError):
            QuietWindow(start, end, "UTC")
    # On the autumn night a 12-hour window lasts 13 hours of real time: the wall clock is what is limited.
    autumn = QuietWindow(time(19, 0), time(7, 0), "Europe/Berlin").on(utc(2026, 10, 24).date())
    assert autumn[1] - autumn[0] == timedelta(hours=13)
