"""Season months: their spans tile time without gaps or overlaps, across year ends."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.seasons.season import bounds_of, previous, season_of, span


@given(st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC)))
def test_every_instant_is_in_its_season_and_the_previous_one_ends_where_it_starts(at: datetime) -> None:
    season = season_of(at)
    start, end = span(season)
    assert start <= at.isoformat(timespec="seconds") < end
    assert span(previous(season))[1] == start
    assert season_of(datetime.fromisoformat(end)) != season
    assert season_of(datetime.fromisoformat(start) - timedelta(seconds=1)) == previous(season)


@pytest.mark.parametrize("text", ["2026-13", "2026-00", "26-11", "2026/11", "2026-1"])
def test_what_is_not_a_month_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        bounds_of(text)
