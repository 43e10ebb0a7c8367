"""The digest's pure parts: when it is due (the local hour, once a local day) and its order (a bank
below a day first, then by time left)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from bot.games.presenter import ENGLISH
from bot.notifications.digest import Entry, digest_text, due_day
from bot.notifications.policy import Settings

BERLIN = ZoneInfo("Europe/Berlin")


def test_due_from_the_local_hour_once_a_local_day() -> None:
    settings = Settings(digest_hour=8)
    before = datetime(2027, 3, 1, 6, 59, tzinfo=UTC)  # 07:59 in Berlin
    assert due_day(settings, BERLIN, before, None) is None
    at = datetime(2027, 3, 1, 7, 0, tzinfo=UTC)
    assert due_day(settings, BERLIN, at, None) == "2027-03-01"
    assert due_day(settings, BERLIN, at + timedelta(hours=5), "2027-03-01") is None  # sent today
    late = datetime(2027, 3, 1, 23, 30, tzinfo=UTC)  # 00:30 on the 2nd in Berlin: before the hour
    assert due_day(settings, BERLIN, late, "2027-03-01") is None
    assert due_day(Settings(), BERLIN, at, None) is None  # no digest asked for
    assert due_day(Settings(mode="digest"), BERLIN, datetime(2027, 3, 1, 8, tzinfo=UTC), None) == "2027-03-01"


def test_games_below_a_day_first_and_counted() -> None:
    entries = sorted([Entry(1, timedelta(days=2), "slow"), Entry(2, timedelta(hours=3), "urgent"),
                      Entry(3, timedelta(hours=20), "soon")], key=lambda e: (e.left, e.game_id))
    text = digest_text(entries, ENGLISH)
    assert text.index("urgent") < text.index("soon") < text.index("slow")
    assert "your turn in 3 games" in text and "2 of them have less than a day left" in text
