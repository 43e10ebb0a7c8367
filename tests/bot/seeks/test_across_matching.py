"""The queue across servers by property (``bot.seeks.matching.pairings``): each player is in at
most one pair, a pair across servers holds two players of different servers who both opted in
and is within both windows of their ratings across servers, a pair at home holds two players of
one server within both windows of their ratings there, a player who did not opt in is never
matched across, and nobody a pair could still be made of is left waiting (home first, then across)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import example, given
from hypothesis import strategies as st

from bot.seeks.matching import Seeker, Waiting, accepts, expired, pairings

NOW = datetime(2026, 11, 29, 12, tzinfo=UTC)

Entry = tuple[int, int, float, int, float | None]


def as_the_store_keeps_them(entries: list[Entry]) -> list[Entry]:
    """The queue's own rule (``bot.seeks.store``): one entry per player and server, and an entry across
    servers is its player's only one for the game. (A generated player with two entries across, one of
    them expired, once hid the live one from the property below.)"""
    across = {e[0] for e in entries if e[4] is not None}
    kept: list[Entry] = []
    for entry in entries:
        user, wide = entry[0], entry[4]
        if user in across and (wide is None or any(k[0] == user for k in kept)):
            continue  # a player across servers keeps their first entry across, and no other
        kept.append(entry)
    return kept


seekers = st.lists(st.tuples(st.integers(0, 12), st.integers(1, 3), st.floats(0, 40), st.integers(0, 130),
                             st.one_of(st.none(), st.floats(0, 40))),
                   max_size=24, unique_by=lambda e: (e[0], e[1])).map(as_the_store_keeps_them)


def queue_of(entries: list[tuple[int, int, float, int, float | None]]) -> list[Seeker]:
    return [Seeker(user, home, rating, NOW - timedelta(minutes=minutes), wide)
            for user, home, rating, minutes, wide in entries]


def home_waiting(s: Seeker) -> Waiting:
    return Waiting(s.user_id, s.rating, s.since, s.home)


def wide_waiting(s: Seeker) -> Waiting:
    assert s.wide is not None
    return Waiting(s.user_id, s.wide, s.since, s.home)


@given(seekers)
def test_pairs_are_within_both_windows_in_their_own_scope(entries: list[tuple[int, int, float, int, float | None]]
                                                          ) -> None:
    queue = queue_of(entries)
    pairs = pairings(queue, NOW)
    matched = [s.user_id for a, b, _ in pairs for s in (a, b)]
    assert len(matched) == len(set(matched)), "a player is in two pairs"
    for a, b, across in pairs:
        assert a.user_id != b.user_id and not expired(home_waiting(a), NOW) and not expired(home_waiting(b), NOW)
        if across:
            assert a.home != b.home and a.wide is not None and b.wide is not None
            assert accepts(wide_waiting(a), wide_waiting(b), NOW)
        else:
            assert a.home == b.home and accepts(home_waiting(a), home_waiting(b), NOW)


@example(as_the_store_keeps_them([(0, 3, 0.0, 0, None), (0, 2, 0.0, 0, 0.0), (1, 1, 0.0, 0, 0.0),
                                  (0, 1, 0.0, 121, 0.0)]))
@given(seekers)
def test_nobody_left_waiting_would_accept_another_left(entries: list[tuple[int, int, float, int, float | None]]
                                                       ) -> None:
    queue = queue_of(entries)
    matched = {s.user_id for a, b, _ in pairings(queue, NOW) for s in (a, b)}
    left = [s for s in queue if s.user_id not in matched and not expired(home_waiting(s), NOW)]
    for a in left:
        for b in left:
            if a.user_id == b.user_id:
                continue
            if a.home == b.home:
                assert not accepts(home_waiting(a), home_waiting(b), NOW)
            elif a.wide is not None and b.wide is not None:
                assert not accepts(wide_waiting(a), wide_waiting(b), NOW)


@given(seekers)
def test_a_player_who_did_not_opt_in_is_never_matched_across(entries: list[tuple[int, int, float, int, float | None]]
                                                             ) -> None:
    queue = queue_of(entries)
    opted = {s.user_id for s in queue if s.wide is not None}
    for a, b, across in pairings(queue, NOW):
        if across:
            assert {a.user_id, b.user_id} <= opted


def test_a_match_at_home_comes_before_one_across() -> None:
    ana = Seeker(1, home=10, rating=5.0, since=NOW - timedelta(minutes=3), wide=5.0)
    ben = Seeker(2, home=20, rating=5.0, since=NOW - timedelta(minutes=2), wide=5.0)  # across: closest, oldest
    cat = Seeker(3, home=10, rating=6.0, since=NOW, wide=None)  # at home with ana
    assert pairings([ana, ben, cat], NOW) == [(ana, cat, False)]
    dan = Seeker(4, home=30, rating=50.0, since=NOW, wide=5.5)
    assert pairings([ana, ben, cat, dan], NOW) == [(ana, cat, False), (ben, dan, True)]
