"""The minimum of play before anyone is rated against a seat (issue #37).

A losing seat whose person made fewer moves of their own than the game's measured
minimum (``bot.ratings.rules.idle_seats``) is nobody's opponent: the game counts for
everyone else exactly as if that seat had not been there, and for a person who then has
nobody to be ranked against it counts for nothing. Every way a game is counted goes
through ``bot.ratings.outcome.count_game``, which reads the moves from the log.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.catalogue import Catalogue
from bot.ratings import Ledger, Standing, count_game, outcome_of
from bot.ratings.fit import fewest_rated_moves
from bot.ratings.model import PAIRINGS
from bot.ratings.rules import FEWEST_MOVES_UNMEASURED, fewest_moves
from bot.store.departures import Departure
from bot.store.records import GameRecord, SeatRecord
from engine.core import Result, get_game
from tests.bot.ratings.test_leavers import tables
from tests.paths import REPO

T0 = "2025-01-01T00:00:00+00:00"
#: Rated games (and their rated options); "pebble-pyramid" stands for a game nobody measured.
KINDS: dict[str, dict[str, object]] = {"flaming-pyramids": {}, "pyrinoes": {}, "pyramido": {"mode": "competitive"},
                                       "pebble-pyramid": {}}

#: What each shipped game's presenter declares it measured (``bot.games.<game>``).
FEWEST_LOSER_MOVES = {p.kind: p.rating.fewest_loser_moves for p in Catalogue.default() if p.rating.fewest_loser_moves}
FEWEST_LOSER_MOVES_AT = {p.kind: p.rating.fewest_loser_moves_at for p in Catalogue.default()
                         if p.rating.fewest_loser_moves_at}


def record(kind: str) -> GameRecord:
    return GameRecord(id=1, kind=kind, guild_id=7, channel_id=2, thread_id=None, options=KINDS[kind],
                      status="finished", seed=5, created_by=100, challenge_id=None, result=None, created_at=T0,
                      updated_at=T0)


def test_every_rated_game_has_a_measured_minimum() -> None:
    assert set(FEWEST_LOSER_MOVES) == set(PAIRINGS)
    for kind, rows in FEWEST_LOSER_MOVES.items():
        assert fewest_moves(kind, 2) == fewest_rated_moves([f for _, _, f, _ in rows]) > 1
        assert fewest_moves(kind, 2) <= min(f for _, _, f, _ in rows) / 2  # a real game's quickest loss is rated
        most = get_game(kind).player_range(get_game(kind).parse_options(KINDS[kind]))[1]
        for seats in range(3, most + 1):  # every table the game allows was measured, and its losers are rated
            fewest = FEWEST_LOSER_MOVES_AT[kind][seats]
            assert 1 <= fewest_moves(kind, seats) <= fewest / 2 or fewest_moves(kind, seats) == 1
            assert fewest_moves(kind, seats) <= fewest_moves(kind, seats - 1)
    assert fewest_moves("pebble-pyramid", 2) == FEWEST_MOVES_UNMEASURED == 1


@settings(max_examples=300, deadline=None)
@given(table=tables(), kind=st.sampled_from(sorted(KINDS)), data=st.data())
def test_an_idle_seat_changes_nobody_elses_numbers(table: tuple[list[SeatRecord], list[Departure], Result,
                                                                int | None], kind: str, data: st.DataObject) -> None:
    """Any table, any ending (people gone at any move, handed to an AI or ending the game),
    any number of moves each person made, from any standings."""
    seats, departures, result, ender = table
    least = fewest_moves(kind, len(seats))
    played = {s.seat: data.draw(st.integers(0, 2 * least), label=f"moves of seat {s.seat}")
              for s in seats if s.user_id is not None}
    out = outcome_of(record(kind), seats, result, T0, played=played, departures=departures, ender=ender)
    assert out is not None and out.rated
    for s in out.seats:  # the rule
        assert s.idle == (s.user_id is not None and not s.won and played[s.seat] < least)
    start = [Standing(7, kind, s.user_id, data.draw(st.floats(0, 50), label="mu"),
                      data.draw(st.floats(1, 8.4), label="sigma"), games=3)
             for s in out.people]
    full = Ledger(start)
    full.apply(out)
    without = Ledger(start)
    without.apply(out.model_copy(update={"seats": tuple(s for s in out.seats if not s.idle)}))
    before = {s.user_id: s for s in start}
    for seat in out.people:
        assert seat.user_id is not None
        after = full.standing(7, kind, seat.user_id)
        if not seat.idle:  # as if the idle seats had never sat down
            assert after == without.standing(7, kind, seat.user_id)
            others = [s for s in out.seats if s.seat != seat.seat and not s.idle]
            if not others and not out.stand_ins and not seat.left:
                assert after == before[seat.user_id], "nobody to be ranked against: counts for nothing"
        elif seat.left:  # leaving at once still loses: it dodges nothing
            assert after.mu <= before[seat.user_id].mu and after.losses == 1 and after.wins == 0
        else:
            assert after == before[seat.user_id]


def _calls(name: str) -> list[tuple[str, str]]:
    """(file, enclosing function) of every call of ``name`` in bot/ and tools/."""
    found: list[tuple[str, str]] = []
    for folder in ("bot", "tools"):
        for path in sorted((REPO / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(), str(path))
            for func in ast.walk(tree):
                if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                for node in ast.walk(func):
                    if isinstance(node, ast.Call):
                        callee = node.func
                        called = callee.attr if isinstance(callee, ast.Attribute) else getattr(callee, "id", None)
                        if called == name:
                            found.append((str(Path(path).relative_to(REPO)), func.name))
    return sorted(set(found))


def test_every_way_a_game_is_counted_asks_the_minimum_of_play() -> None:
    """A game's outcome is made in one place, from the move log, and every path that
    counts a game (its end, whatever ended it: the engine, a resignation, a timeout, a
    forfeit; and the rebuild) goes through it. A new path that counts games would show
    here, and could not leave the moves out."""
    assert _calls("GameOutcome") == [("bot/ratings/outcome.py", "outcome_of")]
    assert _calls("SeatOutcome") == [("bot/ratings/outcome.py", "outcome_of")]
    assert _calls("outcome_of") == [("bot/ratings/outcome.py", "count_game")]
    assert _calls("idle_seats") == [("bot/ratings/outcome.py", "outcome_of")]
    # Every game's end runs Ratings.game_finished from its finish row (the engine's last move,
    # resignations, timeouts and forfeits alike: bot.resignations.resignations enqueues it); the rebuild
    # works every finished game out again.
    # A tournament reads its games' finishing places from the same count (it writes no rating).
    assert _calls("count_game") == [("bot/ops/rebuild_ratings.py", "work_out"),
                                    ("bot/stats/ratings.py", "outcome"), ("bot/tournaments/runner.py", "places")]
    # What is written: the rating store's two ways in both keep out a game made not to count.
    assert _calls("written") == [("bot/ops/rebuild_ratings.py", "rebuild_ratings"),
                                 ("bot/ratings/store.py", "apply"), ("bot/ratings/store.py", "replace_all")]
    assert {f for f, _ in _calls("replace_all")} == {"bot/ops/rebuild_ratings.py"}
    assert inspect.signature(count_game).parameters["moves"].default is inspect.Parameter.empty
    assert inspect.signature(outcome_of).parameters["played"].default is inspect.Parameter.empty
