"""Nobody climbs above the hard AI by playing only the hard AI with random moves (#25).

The finding: a player moving at random (as the easy AI does) reached 29.5 ± 6.1 in 40
one-turn Flaming Pyramids games against the hard AI, while losing every full game
against it. Now games shorter than a real game are not rated, and the full games are
rated against the hard AI's measured rating.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.flaming_pyramids import SHORTEST_RATED_TURNS
from bot.games.flaming_pyramids import TURNS as FLAMING_PYRAMIDS_TURNS
from bot.ratings import Ledger, count_game, outcome_of
from bot.ratings.fit import shortest_rated
from bot.ratings.model import PAIRINGS, UNMEASURED, ai_ratings, ai_skill
from bot.ratings.rules import counting
from bot.store.records import GameRecord, MoveRecord, SeatRecord
from engine.ai.choose import decide
from engine.core import Result, derive_seed, get_game
from tools.arena import wilson

KIND = "flaming-pyramids"
T0 = "2025-01-01T00:00:{:02d}+00:00"
#: Every seat played plenty of moves of its own (the minimum of play: test_idle_seats.py).
PLENTY = dict.fromkeys(range(6), 10_000)
PLAYER = 101


#: The rated options of each game whose AI levels were measured.
RATED_OPTIONS: dict[str, dict[str, object]] = {
    "flaming-pyramids": {}, "pyrinoes": {}, "pyramido": {"mode": "competitive"},
}


def record(game_id: int, options: dict[str, object], kind: str = KIND) -> GameRecord:
    at = T0.format(game_id % 60)
    return GameRecord(id=game_id, kind=kind, guild_id=7, channel_id=2, thread_id=None, options=options,
                      status="finished", seed=game_id, created_by=PLAYER, challenge_id=None, result=None,
                      created_at=at, updated_at=at)


TABLE = [SeatRecord(game_id=1, seat=0, user_id=PLAYER, ai_level=None, joined_at=T0.format(0)),
         SeatRecord(game_id=1, seat=1, user_id=None, ai_level="hard", joined_at=T0.format(0))]


def test_forty_one_turn_games_of_a_random_mover_against_hard_are_played_and_not_rated() -> None:
    """The finding's games, played by the engine: seat 0 moves at random (the easy AI's
    choice), seat 1 is the hard AI (a small search: how it plays does not matter to
    what counts)."""
    game = get_game(KIND)
    ledger = Ledger()
    outcomes = []
    for game_id in range(1, 41):
        limit = 1 + game_id % min(3, SHORTEST_RATED_TURNS - 1)
        state = game.setup(2, {"turn_limit": limit}, derive_seed(25, f"farm-{game_id}"))
        log: list[MoveRecord] = []
        while game.result(state) is None:
            seat = game.to_act(state)
            assert seat is not None
            move, _ = decide(game, state, seat, "easy" if seat == 0 else "hard", derive_seed(game_id, f"m{len(log)}"),
                             iterations=20)
            state, _ = game.play(state, seat, move)
            log.append(MoveRecord(game_id=game_id, seq=len(log) + 1, seat=seat, move=move,
                                  actor_id=TABLE[seat].user_id, created_at=T0.format(game_id % 60)))
        outcome = count_game(game, state, record(game_id, {"turn_limit": limit}), TABLE, log)
        assert outcome is not None and outcome.short and not outcome.rated
        outcomes.append(outcome)
    ledger.apply_all(outcomes)
    assert ledger.standings == {} and ledger.records == {}


def measured_random_vs_hard(kind: str) -> tuple[float, int]:
    """The random mover's (the easy AI's) measured wins against hard in full games."""
    for first, second, wins, games in PAIRINGS[kind]:
        if (first, second) == ("easy", "hard"):
            return wins, games
    raise AssertionError(f"no measured easy-vs-hard pairing of {kind}")


def upper_wins(kind: str, games: int) -> int:
    """The most full games of ``games`` a random mover wins against hard, at the upper
    end of the 95% interval of what was measured."""
    wins, played = measured_random_vs_hard(kind)
    return max(1, int(wilson(wins, played)[1] * games))


def test_every_rated_game_has_measured_ai_ratings() -> None:
    """No rated game plays with the assumed ratings of a game nobody measured."""
    assert set(PAIRINGS) == set(RATED_OPTIONS)
    for kind, options in RATED_OPTIONS.items():
        assert counting(kind, options, 2).rated
        assert ai_ratings(kind) != UNMEASURED and set(ai_ratings(kind)) == {"easy", "normal", "hard"}


@pytest.mark.parametrize("kind", sorted(RATED_OPTIONS))
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_a_random_mover_never_climbs_above_the_hard_ai(kind: str, data: st.DataObject) -> None:
    """Any order of full games (or games long enough to be rated), won no more often
    than a random mover wins them against hard (measured, per game), mixed with any
    number of short games all won (Flaming Pyramids' ``turn_limit``), never lifts the
    player's leaderboard figure above the hard AI's rating, and leaves their skill below it."""
    count = data.draw(st.integers(40, 80), label="full games")
    won = data.draw(st.sets(st.integers(0, count - 1), max_size=upper_wins(kind, count)), label="won")
    limits = data.draw(st.lists(st.integers(1, max(1, SHORTEST_RATED_TURNS - 1)), max_size=40), label="short") \
        if kind == "flaming-pyramids" else []
    hard = ai_skill("hard", kind)
    lower_wins = counting(kind, RATED_OPTIONS[kind], 2).better == "lower"
    ledger = Ledger()
    rng = random.Random(count)
    schedule = [("full", i in won) for i in range(count)] + [("limit", limit) for limit in limits]
    rng.shuffle(schedule)
    for game_id, (what, value) in enumerate(schedule, start=1):
        options = dict(RATED_OPTIONS[kind]) if what == "full" else {"turn_limit": value}
        winner = (0 if value else 1) if what == "full" else 0  # short games: say the player wins them all
        best, worst = (0.0, 10.0) if lower_wins else (10.0, 0.0)
        result = Result(winners=(winner,), scores=(best, worst) if winner == 0 else (worst, best))
        outcome = outcome_of(record(game_id, options, kind), TABLE, result, T0.format(game_id % 60), played=PLENTY)
        assert outcome is not None
        assert outcome.short == (what == "limit") and outcome.rated == (what == "full")
        ledger.apply(outcome)
        if ledger.standings:
            standing = ledger.standing(7, kind, PLAYER)
            assert standing.skill.ordinal < hard.mu
    final = ledger.standing(7, kind, PLAYER)
    assert final.games == count and final.mu < hard.mu


def test_the_shortest_rated_limit_is_measured() -> None:
    assert SHORTEST_RATED_TURNS == shortest_rated(FLAMING_PYRAMIDS_TURNS) > 3
