"""Pairing and standings by property: over random results and histories, Swiss never
pairs two players twice while a legal pairing exists, nobody gets a second bye, a round
robin plays every pair exactly once, tables stay within the game's sizes and standings
are a total order."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.pairing import (
    NoBye,
    Pair,
    maximum_matching,
    round_robin,
    swiss_order,
    swiss_round,
    table_sizes,
    tables_round,
)
from bot.tournaments.standings import Bye, Finished, standings


def legal_exists(players: list[int], met: set[Pair], had_bye: set[int]) -> bool:
    """Brute force: is there a complete pairing with no repeat and the bye to a player without one?"""
    def pairable(left: list[int]) -> bool:
        if not left:
            return True
        first, rest = left[0], left[1:]
        return any(frozenset((first, other)) not in met and pairable(rest[:i] + rest[i + 1:])
                   for i, other in enumerate(rest))
    if len(players) % 2:
        return any(p not in had_bye and pairable([q for q in players if q != p]) for p in players)
    return pairable(players)


def check_round(players: list[int], met: set[Pair], had_bye: set[int]) -> None:
    try:
        paired = swiss_round(players, met, had_bye)
    except NoBye:
        assert len(players) % 2 and set(players) <= had_bye
        return
    seen = [p for pair in paired.pairs for p in pair] + ([paired.bye] if paired.bye is not None else [])
    assert sorted(seen) == sorted(players)
    assert (paired.bye is not None) == (len(players) % 2 == 1)
    assert paired.bye not in had_bye
    repeats = [pair for pair in paired.pairs if frozenset(pair) in met]
    if legal_exists(players, met, had_bye):
        assert not repeats, (players, met, had_bye, paired)


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 10), st.data())
def test_swiss_never_repeats_while_a_legal_pairing_exists(count: int, data: st.DataObject) -> None:
    """Any history at all (random pairs met, random byes), not only one Swiss could produce."""
    players = data.draw(st.permutations(list(range(1, count + 1))))
    every = [frozenset(pair) for pair in itertools.combinations(players, 2)]
    met = set(data.draw(st.lists(st.sampled_from(every), max_size=len(every))))
    had_bye = set(data.draw(st.lists(st.sampled_from(players), max_size=count)))
    check_round(list(players), met, had_bye)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 11), st.integers(1, 11), st.randoms(use_true_random=False))
def test_a_whole_swiss_over_random_results(count: int, rounds: int, rnd: random.Random) -> None:
    """Rounds played one after the other with random results: each round is checked as above,
    and the standings stay a total order."""
    ratings = {p: float(rnd.randint(1000, 2000)) for p in range(1, count + 1)}
    games: list[Finished] = []
    byes: list[Bye] = []
    met: set[Pair] = set()
    for _ in range(rounds):
        lines = standings(ratings, games, byes)
        order = swiss_order(ratings, {line.player: line.points for line in lines}, ratings)
        had_bye = {bye.player for bye in byes}
        check_round(order, met, had_bye)
        try:
            paired = swiss_round(order, met, had_bye)
        except NoBye:
            break
        for a, b in paired.pairs:
            met.add(frozenset((a, b)))
            games.append(Finished({a: 1, b: rnd.choice((1, 2, 2))}))
        if paired.bye is not None:
            byes.append(Bye(paired.bye, 1.0))
    assert_total_order(ratings, games, byes)
    assert len([bye.player for bye in byes]) == len({bye.player for bye in byes})


def assert_total_order(ratings: dict[int, float], games: list[Finished], byes: list[Bye]) -> None:
    lines = standings(ratings, games, byes)
    assert sorted(line.player for line in lines) == sorted(ratings)
    keys = [line.key() for line in lines]
    assert all(a < b for a, b in itertools.pairwise(keys))
    shuffled = list(games)
    random.Random(len(games)).shuffle(shuffled)
    assert standings(ratings, shuffled, list(reversed(byes))) == lines
    for better, worse in itertools.pairwise(lines):
        assert (better.points, better.buchholz, better.sonneborn_berger) >= (worse.points, worse.buchholz,
                                                                            worse.sonneborn_berger)


@given(st.lists(st.integers(1, 10_000), min_size=1, max_size=16, unique=True))
def test_round_robin_plays_every_pair_exactly_once(players: list[int]) -> None:
    rounds = round_robin(players)
    count = len(players)
    assert len(rounds) == (count - 1 if count % 2 == 0 else count)
    pairs = [frozenset(g) for r in rounds for g in r if g[1] is not None]
    assert sorted(map(sorted, pairs)) == sorted(map(sorted, (frozenset(p) for p in itertools.combinations(players, 2))))
    for games in rounds:
        in_round = [p for g in games for p in g if p is not None]
        assert len(in_round) == len(set(in_round)) == count
    sat_out = [g[0] for r in rounds for g in r if g[1] is None]
    assert len(sat_out) == len(set(sat_out)) == (count if count % 2 else 0)


@given(st.integers(0, 40), st.integers(2, 6), st.integers(2, 6), st.randoms(use_true_random=False))
def test_tables_seat_everyone_within_the_sizes(count: int, low: int, high: int, rnd: random.Random) -> None:
    if high < low:
        low, high = high, low
    sizes = table_sizes(count, low, high)
    assert all(low <= s <= high for s in sizes)
    assert max(sizes, default=0) - min(sizes, default=0) <= 1
    assert count - sum(sizes) < low  # too few left over for another table
    order = list(range(1, count + 1))
    sat = {p: rnd.randint(0, 2) for p in order}
    drawn = tables_round(order, low, high, sat)
    seated = [p for t in drawn.tables for p in t]
    assert sorted(seated + list(drawn.sitting_out)) == order
    if drawn.sitting_out:
        # Nobody sits out while someone who sat out more often is seated.
        assert max(sat[p] for p in drawn.sitting_out) <= min((sat[p] for p in seated), default=99)
    # The standings order is kept: the first table holds the best seated players.
    assert seated == sorted(seated)


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 7), st.integers(3, 6), st.integers(1, 6), st.randoms(use_true_random=False))
def test_multi_player_standings_are_a_total_order(count: int, size: int, rounds: int, rnd: random.Random) -> None:
    ratings = {p: float(rnd.choice((1500, 1600))) for p in range(1, count + 1)}
    games: list[Finished] = []
    byes: list[Bye] = []
    for _ in range(rounds):
        order = [line.player for line in standings(ratings, games, byes)]
        drawn = tables_round(order, 3, size)
        for table in drawn.tables:
            games.append(Finished({p: rnd.randint(1, len(table)) for p in table}))
        byes.extend(Bye(p, 1.0) for p in drawn.sitting_out)
    assert_total_order(ratings, games, byes)


def test_points_by_place_and_the_tie_breaks() -> None:
    """A worked example of the documented rules."""
    ratings = {1: 1500.0, 2: 1500.0, 3: 1500.0, 4: 1500.0}
    games = [Finished({1: 1, 2: 2}), Finished({3: 1, 4: 1}), Finished({1: 1, 3: 2}), Finished({2: 1, 4: 2})]
    lines = {line.player: line for line in standings(ratings, games)}
    assert [lines[p].points for p in (1, 2, 3, 4)] == [2.0, 1.0, 0.5, 0.5]
    assert lines[3].buchholz == 2.5 and lines[4].buchholz == 1.5
    assert lines[3].sonneborn_berger == 0.25 and lines[4].sonneborn_berger == 0.25
    assert [line.player for line in standings(ratings, games)] == [1, 2, 3, 4]
    table = Finished({1: 2, 2: 1, 3: 3, 4: 2})
    assert [table.points(p) for p in (1, 2, 3, 4)] == [1.5, 3.0, 0.0, 1.5]


def test_one_entrant_and_none() -> None:
    assert swiss_round([7], set(), set()) == swiss_round([7], set(), set())
    assert swiss_round([7], set(), set()).bye == 7
    with pytest.raises(NoBye):
        swiss_round([7], set(), {7})
    assert swiss_round([], set(), set()).pairs == ()


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 12), st.data())
def test_blossom_finds_a_maximum_matching(count: int, data: st.DataObject) -> None:
    edges = set(data.draw(st.lists(st.tuples(st.integers(0, count - 1), st.integers(0, count - 1)))))
    adjacent: dict[int, set[int]] = {v: set() for v in range(count)}
    for a, b in edges:
        if a != b:
            adjacent[a].add(b)
            adjacent[b].add(a)
    match = maximum_matching(count, lambda v: sorted(adjacent[v]), [-1] * count)
    for v, u in enumerate(match):
        if u != -1:
            assert match[u] == v and u in adjacent[v]
    size = sum(1 for m in match if m != -1) // 2

    def best(left: frozenset[int]) -> int:
        if not left:
            return 0
        v = min(left)
        rest = left - {v}
        return max([best(rest)] + [1 + best(rest - {u}) for u in adjacent[v] if u in rest])
    assert size == best(frozenset(range(count)))
