"""People who leave a rated game (issue #25), for any table and any order of leaving.

The invariant: a person who resigned or timed out ranks below everyone who stayed,
never wins, never ties with another leaver who left at another moment (so nobody
draws because everyone left), and their rating never rises from the game; a leaver's
rating moves only by their losses to those still playing when they left.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ratings import START_MU, GameOutcome, Ledger, outcome_of
from bot.store.departures import Departure
from bot.store.records import GameRecord, SeatRecord
from engine.core import Result

T0 = "2025-01-01T00:00:00+00:00"
#: Every seat played plenty of moves of its own (the minimum of play: test_idle_seats.py).
PLENTY = dict.fromkeys(range(6), 10_000)


def record(kind: str = "flaming-pyramids") -> GameRecord:
    return GameRecord(id=1, kind=kind, guild_id=7, channel_id=2, thread_id=None, options={}, status="finished",
                      seed=5, created_by=100, challenge_id=None, result=None, created_at=T0, updated_at=T0)


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[SeatRecord], list[Departure], Result, int | None]:
    """A rated table of 2–6 seats (people and AIs), some people gone (each at its own
    move, handed to an AI or ending the game), and a result."""
    size = draw(st.integers(2, 6))
    seats: list[SeatRecord] = []
    departures: list[Departure] = []
    moments = draw(st.lists(st.integers(0, 200), min_size=size, max_size=size, unique=True))
    for n in range(size):
        kind = draw(st.sampled_from(["person", "person", "ai", "left"]))
        if kind == "ai":
            seats.append(SeatRecord(game_id=1, seat=n, user_id=None, ai_level=draw(st.sampled_from(
                ["easy", "normal", "hard"])), joined_at=T0))
            continue
        if kind == "person":
            seats.append(SeatRecord(game_id=1, seat=n, user_id=100 + n, ai_level=None, joined_at=T0))
            continue
        how = draw(st.sampled_from(["resigned", "timed out"]))
        level = "easy" if how == "resigned" else "normal"
        seats.append(SeatRecord(game_id=1, seat=n, user_id=100 + n, ai_level=level, resigned=how == "resigned",
                                joined_at=T0))
        departures.append(Departure(game_id=1, seat=n, how=how, after_move=moments[n], ai_level=level))
    if not any(s.user_id is not None for s in seats):
        seats[0] = SeatRecord(game_id=1, seat=0, user_id=100, ai_level=None, joined_at=T0)
    ender = None
    people = [s for s in seats if s.user_id is not None and s.ai_level is None]
    if size == 2 and people and draw(st.booleans()):  # the last person in resigns: the game ends there
        gone = people[-1]
        ender = gone.seat
        seats[gone.seat] = SeatRecord(game_id=1, seat=gone.seat, user_id=gone.user_id, ai_level=None, resigned=True,
                                      joined_at=T0)
        departures.append(Departure(game_id=1, seat=gone.seat, how="resigned", after_move=201))
        result = Result(winners=tuple(s.seat for s in seats if s.seat != gone.seat), resigned=(gone.seat,))
    else:
        scores = tuple(float(x) for x in draw(st.lists(st.integers(0, 30), min_size=size, max_size=size)))
        winners = tuple(sorted(draw(st.sets(st.integers(0, size - 1), max_size=2))))
        result = Result(winners=winners, scores=scores)
    return seats, departures, result, ender


@settings(max_examples=300, deadline=None)
@given(tables())
def test_a_leaver_loses_to_everyone_who_stayed_and_never_gains(table: tuple[list[SeatRecord], list[Departure],
                                                                            Result, int | None]) -> None:
    seats, departures, result, ender = table
    out = outcome_of(record(), seats, result, T0, played=PLENTY, departures=departures, ender=ender)
    assert out is not None and out.rated
    stayed = [s for s in out.seats if not s.left]
    left = [s for s in out.seats if s.left]
    for leaver in left:
        assert not leaver.won
        assert all(leaver.rank > other.rank for other in stayed)
        assert all(leaver.rank > other.rank for other in out.stand_ins)
        for other in left:
            if other.left_at != leaver.left_at:
                assert other.rank != leaver.rank, "no draw among leavers"
                assert (other.rank < leaver.rank) == (other.left_at > leaver.left_at), "who held out longer first"
    ledger = Ledger().apply_all([out])
    for leaver in left:
        assert leaver.user_id is not None
        after = ledger.standing(7, out.kind, leaver.user_id)
        assert after.mu <= START_MU and after.losses == 1 and after.wins == 0


def test_the_finding_a_resignation_after_the_opponent_timed_out() -> None:
    """bob timed out after move 5 (a normal AI took his seat); alice resigned after move 9."""
    seats = [SeatRecord(game_id=1, seat=0, user_id=101, ai_level=None, resigned=True, joined_at=T0),
             SeatRecord(game_id=1, seat=1, user_id=102, ai_level="normal", joined_at=T0)]
    departures = [Departure(game_id=1, seat=0, how="resigned", after_move=9),
                  Departure(game_id=1, seat=1, how="timed out", after_move=5, ai_level="normal")]
    out = outcome_of(record(), seats, Result(winners=(1,), resigned=(0,)), T0, played=PLENTY, departures=departures,
                     ender=0)
    assert out is not None
    assert [(s.rank, s.won, s.left) for s in out.seats] == [(1, False, True), (2, False, True)]
    assert [(s.ai_level, s.rank) for s in out.stand_ins] == [("normal", 0)]
    ledger = Ledger().apply_all([out])
    alice, bob = ledger.standing(7, out.kind, 101), ledger.standing(7, out.kind, 102)
    assert alice.mu < START_MU and alice.skill.ordinal < 0  # the leaderboard figure fell from 0
    assert bob.mu < START_MU and bob.skill.ordinal < 0


def test_outcomes_counted_before_departures_were_kept_still_read() -> None:
    """A ``rated_games`` row written before #25 has no ``left_at`` and no stand-ins."""
    old = GameOutcome.model_validate_json(
        '{"game_id": 3, "kind": "pyrinoes", "guild_id": 7, "finished_at": "' + T0 + '", "rated": true,'
        ' "seats": [{"seat": 0, "user_id": 101, "rank": 1, "left": true},'
        ' {"seat": 1, "user_id": 102, "rank": 0, "won": true}]}')
    ledger = Ledger().apply_all([old])
    assert ledger.standing(7, "pyrinoes", 101).mu < START_MU < ledger.standing(7, "pyrinoes", 102).mu
