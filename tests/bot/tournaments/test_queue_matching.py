"""The queue's matching by property: nobody is matched twice or with themselves, every
pair is within both windows, and once the oldest players stop finding a match nobody
left in the queue would accept anyone else left (no match is missed)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from bot.seeks.matching import MOST_WAIT, WIDTH, Waiting, accepts, expired, matches, window

NOW = datetime(2026, 11, 29, 12, tzinfo=UTC)


@given(st.lists(st.tuples(st.floats(0, 50), st.integers(0, 120)), max_size=30))
def test_matching_pairs_within_both_windows_and_misses_nobody(entries: list[tuple[float, int]]) -> None:
    queue = [Waiting(i, rating, NOW - timedelta(minutes=minutes)) for i, (rating, minutes) in enumerate(entries)]
    pairs = matches(queue, NOW)
    matched = [w.user_id for pair in pairs for w in pair]
    assert len(matched) == len(set(matched))
    assert all(a.user_id != b.user_id and accepts(a, b, NOW) for a, b in pairs)
    left = [w for w in queue if w.user_id not in set(matched)]
    assert not any(accepts(a, b, NOW) for a in left for b in left if a.user_id != b.user_id)


def test_the_window_widens_with_waiting() -> None:
    a = Waiting(1, 10.0, NOW)
    far = Waiting(2, 20.0, NOW)
    assert window(a, NOW) == WIDTH and not accepts(a, far, NOW)
    later = NOW + timedelta(minutes=8)
    assert accepts(a, far, later) and matches([a, far], later) == [(a, far)]


@given(st.lists(st.tuples(st.floats(0, 50), st.integers(0, 240)), max_size=30))
def test_an_expired_entry_is_matched_with_nobody(entries: list[tuple[float, int]]) -> None:
    """Over waits on both sides of ``MOST_WAIT``: no pair holds an entry past it, and among the
    entries within it nobody left would accept anyone else left."""
    queue = [Waiting(i, rating, NOW - timedelta(minutes=minutes)) for i, (rating, minutes) in enumerate(entries)]
    pairs = matches(queue, NOW)
    assert not any(expired(w, NOW) for pair in pairs for w in pair)
    matched = {w.user_id for pair in pairs for w in pair}
    left = [w for w in queue if w.user_id not in matched and not expired(w, NOW)]
    assert not any(accepts(a, b, NOW) for a in left for b in left if a.user_id != b.user_id)


def test_an_entry_expires_just_after_the_limit() -> None:
    a = Waiting(1, 10.0, NOW)
    assert not expired(a, NOW + MOST_WAIT) and expired(a, NOW + MOST_WAIT + timedelta(seconds=1))
    assert matches([a, Waiting(2, 10.0, NOW + MOST_WAIT)], NOW + MOST_WAIT + timedelta(seconds=1)) == []
