"""How a finished game counts: which games are rated, how seats rank, who lost by leaving."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.ratings import count_game, counting, final_result, outcome_of
from bot.store.records import GameRecord, MoveRecord, SeatRecord
from engine.core import Result, get_game

T0 = "2025-01-01T00:00:00+00:00"
#: Every seat played plenty of moves of its own (the minimum of play is tested in test_idle_seats.py).
PLENTY = dict.fromkeys(range(6), 10_000)


def record(kind: str, *, options: dict[str, Any] | None = None, status: str = "finished", guild: int | None = 7,
           game_id: int = 1) -> GameRecord:
    return GameRecord(id=game_id, kind=kind, guild_id=guild, channel_id=2, thread_id=None, options=options or {},
                      status=status, seed=5, created_by=100, challenge_id=None, result=None, created_at=T0,
                      updated_at=T0)


def seats(*who: int | str, resigned: tuple[int, ...] = (), handed: dict[int, str] | None = None) -> list[SeatRecord]:
    """A seat per entry: a user id, or an AI level; ``handed``: a person's seat an AI took over."""
    handed = handed or {}
    out = []
    for n, w in enumerate(who):
        if isinstance(w, str):
            out.append(SeatRecord(game_id=1, seat=n, user_id=None, ai_level=w, joined_at=T0))  # type: ignore[arg-type]
        else:
            out.append(SeatRecord(game_id=1, seat=n, user_id=w, ai_level=handed.get(n),  # type: ignore[arg-type]
                                  resigned=n in resigned, joined_at=T0))
    return out


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_flaming_pyramids_ranks_winner_first_then_fewest_tiles(players: int) -> None:
    scores = tuple(float(10 + (n * 7) % players) for n in range(players))
    result = Result(winners=(players - 1,), scores=(*scores[:-1], 0.0))
    out = outcome_of(record("flaming-pyramids"), seats(*range(101, 101 + players)), result, T0, played=PLENTY)
    assert out is not None and out.rated and len(out.seats) == players
    ranks = [s.rank for s in out.seats]
    assert ranks[-1] == 0 and all(r >= 1 for r in ranks[:-1])
    for a in range(players - 1):
        for b in range(players - 1):
            if scores[a] < scores[b]:  # fewer tiles left: better
                assert ranks[a] < ranks[b]
            if scores[a] == scores[b]:
                assert ranks[a] == ranks[b]
    assert [s.won for s in out.seats] == [False] * (players - 1) + [True]


def test_higher_scores_rank_first_in_pyrinoes_and_competitive_pyramido() -> None:
    three = outcome_of(record("pyramido", options={"mode": "competitive"}), seats(101, 102, 103),
                       Result(winners=(2,), scores=(-3.0, -1.0, 1.0)), T0, played=PLENTY)
    assert three is not None and [s.rank for s in three.seats] == [2, 1, 0]
    duel = outcome_of(record("pyrinoes"), seats(101, "hard"), Result(winners=(0,), scores=(100.0, 60.0)), T0,
                      played=PLENTY)
    assert duel is not None and duel.rated and [s.rank for s in duel.seats] == [0, 1]
    assert duel.seats[1].ai_level == "hard" and duel.seats[1].user_id is None


def test_a_resigned_seat_ranks_last_and_never_wins() -> None:
    # Four seats; seat 1's person resigned and an easy AI finished the game for them, and won.
    table = seats(101, 102, 103, "normal", resigned=(1,), handed={1: "easy"})
    out = outcome_of(record("flaming-pyramids"), table, Result(winners=(1,), scores=(4.0, 0.0, 2.0, 6.0)), T0,
                     played=PLENTY)
    assert out is not None
    by_seat = {s.seat: s for s in out.seats}
    assert by_seat[1].left and not by_seat[1].won and by_seat[1].rank == max(s.rank for s in out.seats)
    # The easy AI that played seat 1 on won: it stands in, first; the rest by tiles left.
    (stand_in,) = out.stand_ins
    assert (stand_in.seat, stand_in.ai_level, stand_in.rank, stand_in.user_id) == (1, "easy", 0, None)
    assert [by_seat[n].rank for n in (2, 0, 3)] == [1, 2, 3] and by_seat[1].rank == 4
    assert not any(s.won for s in out.seats)


def test_a_timed_out_seat_an_ai_took_over_is_its_persons_loss() -> None:
    table = seats(101, 102, handed={0: "normal"})
    out = outcome_of(record("pyrinoes"), table, Result(winners=(0,), scores=(100.0, 40.0)), T0, played=PLENTY)
    assert out is not None
    assert out.seats[0].left and not out.seats[0].won and out.seats[0].rank == 2
    assert out.seats[1].rank == 1 and [(s.ai_level, s.rank) for s in out.stand_ins] == [("normal", 0)]


def test_a_forfeit_ends_the_game_with_the_leaver_last() -> None:
    game = get_game("pyrinoes")
    state = game.setup(2, {"target": 10}, 3)
    table = seats(101, 102, resigned=(0,))
    ended = final_result(game, state, table)
    assert ended is not None
    result, by_engine = ended
    assert not by_engine and result.winners == (1,) and result.resigned == (0,)
    out = count_game(game, state, record("pyrinoes"), table, [])
    assert out is not None and [(s.rank, s.won, s.left) for s in out.seats] == [(1, False, True), (0, True, False)]
    assert out.finished_at == T0  # no final move: the time the game's status was written


def test_solo_and_coop_games_are_records_not_ratings() -> None:
    assert not counting("continuous-pyramid", {}, 1).rated
    assert not counting("pyramido", {"mode": "solo"}, 1).rated
    assert not counting("pyramido", {"mode": "coop"}, 3).rated
    assert counting("pyramido", {"mode": "competitive"}, 2).rated
    assert counting("flaming-pyramids", {}, 6).rated
    coop = outcome_of(record("pyramido", options={"mode": "coop", "size": 4}), seats(101, 102),
                      Result(winners=(0, 1), scores=(40.0, 40.0), details={"stones": 40.0}), T0, played=PLENTY)
    assert coop is not None and not coop.rated and coop.variant == "co-op (small)"
    assert [(s.won, s.score) for s in coop.seats] == [(True, 40.0), (True, 40.0)]
    solo = outcome_of(record("continuous-pyramid"), seats(101),
                      Result(winners=(), scores=(97.0, 120.0, 3.0), details={"tiles_placed": 97.0}), T0, played=PLENTY)
    assert solo is not None and not solo.rated and solo.variant == "solo" and solo.seats[0].score == 97.0


def test_cancelled_games_and_games_without_people_do_not_count() -> None:
    result = Result(winners=(0,), scores=(1.0, 2.0))
    assert outcome_of(record("pyrinoes", status="cancelled"), seats(101, 102), result, T0, played=PLENTY) is None
    assert outcome_of(record("pyrinoes"), seats("easy", "hard"), result, T0, played=PLENTY) is None
    game = get_game("pyrinoes")
    state = game.setup(2, {"target": 10}, 3)
    assert count_game(game, state, record("pyrinoes", status="cancelled"), seats(101, 102), []) is None
    # Finished in the database, but the log explains no end and nobody left: not counted.
    assert count_game(game, state, record("pyrinoes"), seats(101, 102), []) is None


def test_a_game_played_to_its_end_counts_from_the_engine() -> None:
    game = get_game("flaming-pyramids")
    rng = random.Random(4)
    state = game.setup(3, {"turn_limit": 6}, 11)
    last = ""
    log: list[MoveRecord] = []
    table = seats(101, "hard", 103)
    for n in range(5000):
        seat = game.waiting_for(state)
        if seat is None:
            break
        move = rng.choice(game.legal_moves(state))
        state, _ = game.play(state, seat, move)
        last = f"2025-01-01T00:{n // 60 % 60:02d}:{n % 60:02d}+00:00"
        log.append(MoveRecord(game_id=1, seq=n + 1, seat=seat, move=move, actor_id=table[seat].user_id,
                              created_at=last))
    out = count_game(game, state, record("flaming-pyramids"), table, log)
    assert out is not None and out.rated and out.finished_at == last
    result = game.result(state)
    assert result is not None
    assert {s.seat for s in out.seats if s.rank == 0} == set(result.winners)
