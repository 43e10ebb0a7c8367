"""The daily deal's pure parts: the day's seed, streaks, and what a results message says."""

from __future__ import annotations

from datetime import UTC, date, datetime

from bot.core.announcements import MAX_NONCE
from bot.daily.deals import (
    MAX_LINES,
    daily_seed,
    post_nonce,
    results_text,
    streak,
    streak_on,
    until_next,
    utc_day,
)
from bot.daily.store import DailyResult

SECRET = bytes(range(32))


def test_the_days_seed_needs_the_secret() -> None:
    day = date(2026, 11, 22)
    seed = daily_seed(SECRET, day)
    assert seed == daily_seed(SECRET, day)  # every process agrees
    assert 0 <= seed < 2**63
    assert seed != daily_seed(SECRET, date(2026, 11, 23))
    assert seed != daily_seed(bytes(32), day)  # another bot's secret, another deal
    assert len({daily_seed(SECRET, date(2026, 1, d)) for d in range(1, 32)}) == 31


def test_the_day_is_the_utc_date() -> None:
    assert utc_day(datetime(2026, 11, 22, 23, 59, tzinfo=UTC)) == date(2026, 11, 22)
    late_in_new_york = datetime.fromisoformat("2026-11-22T20:30:00-05:00")
    assert utc_day(late_in_new_york) == date(2026, 11, 23)
    assert until_next(datetime(2026, 11, 22, 18, 48, tzinfo=UTC)) == "5 h 12 min"
    assert until_next(datetime(2026, 11, 22, 23, 59, 30, tzinfo=UTC)) == "1 min"


def test_streaks() -> None:
    days = ["2026-11-01", "2026-11-02", "2026-11-03", "2026-11-10", "2026-11-20", "2026-11-21"]
    assert streak_on(days, date(2026, 11, 3)) == 3
    assert streak_on(days, date(2026, 11, 4)) == 0
    assert streak(days, date(2026, 11, 21)) == streak(days, date(2026, 11, 22))  # today may still be played
    assert streak(days, date(2026, 11, 22)).current == 2
    assert streak(days, date(2026, 11, 23)).current == 0
    assert streak(days, date(2026, 11, 23)).best == 3
    assert streak([], date(2026, 11, 23)).best == 0


def result(user: int, name: str, tiles: int | None, *, undos: int = 0, at: str = "2026-11-22T10:00:00+00:00",
           won: bool = False) -> DailyResult:
    return DailyResult(day="2026-11-22", user_id=user, game_id=user, guild_id=1, channel_id=2, name=name,
                       tiles=tiles, won=won if tiles is not None else None, undos=undos if tiles is not None else None,
                       started_at="2026-11-22T09:00:00+00:00", finished_at=at if tiles is not None else None)


def test_a_results_message_ranks_scores_and_names_nothing_else() -> None:
    results = [result(1, "ana", 97, undos=2), result(2, "ben_*x*", 144, won=True), result(3, "cy", 97, undos=1),
               result(4, "dee", None)]
    text = results_text("2026-11-22", results, {1: 3, 2: 1}, "🀄 Continuous Pyramid")
    lines = text.splitlines()
    assert lines[0].startswith("📅 **Daily deal 2026-11-22**")
    assert lines[1] == "1. ben\\_\\*x\\* — 144/144 ✅ · 0 undos (🔥 1-day streak)"
    assert lines[2] == "2. cy — 97/144 · 1 undo"
    assert lines[3] == "3. ana — 97/144 · 2 undos (🔥 3-day streak)"
    assert lines[4] == "🎲 1 still playing."
    crowd = [result(n, f"player{n}", n) for n in range(1, 200)]
    long = results_text("2026-11-22", crowd, {n: 1000 for n in range(200)}, "🀄 Continuous Pyramid")
    assert len(long) <= 2000 and f"… and {199 - MAX_LINES} more." in long
    assert "No results yet." in results_text("2026-11-22", [], {}, "🀄 Continuous Pyramid")


def test_nonces_fit_discord() -> None:
    nonce = post_nonce("2026-11-22", 2**63 - 1, 2**63 - 1)
    assert len(nonce) <= MAX_NONCE and not nonce.startswith("pb")
    assert nonce != post_nonce("2026-11-22", 2**63 - 1)
