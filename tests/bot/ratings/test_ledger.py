"""The rating model and the standings games add up to."""

from __future__ import annotations

import pytest

from bot.ratings import AI_RATINGS, EVERYWHERE, START_MU, START_SIGMA, GameOutcome, Ledger, SeatOutcome, Skill, rate
from bot.ratings.model import ai_ratings, ai_skill


def game(game_id: int, *seats: tuple[int | str, int], guild: int | None = 7, kind: str = "flaming-pyramids",
         at: str | None = None, left: tuple[int, ...] = ()) -> GameOutcome:
    """``seats``: (user id or AI level, rank); rank 0 wins."""
    return GameOutcome(
        game_id=game_id, kind=kind, guild_id=guild, finished_at=at or f"2025-01-01T00:00:{game_id:02d}+00:00",
        rated=True,
        seats=tuple(SeatOutcome(seat=n, user_id=who if isinstance(who, int) else None,
                                ai_level=who if isinstance(who, str) else None,  # type: ignore[arg-type]
                                rank=rank, won=rank == 0 and n not in left, left=n in left)
                    for n, (who, rank) in enumerate(seats)),
    )


def record(game_id: int, user: int, won: bool, score: float, variant: str = "solo") -> GameOutcome:
    return GameOutcome(game_id=game_id, kind="continuous-pyramid", guild_id=7,
                       finished_at=f"2025-01-01T00:00:{game_id:02d}+00:00", rated=False, variant=variant,
                       seats=(SeatOutcome(seat=0, user_id=user, won=won, score=score),))


@pytest.mark.parametrize("kind", ["flaming-pyramids", "pyrinoes", "pyramido", "a test's own game"])
def test_ai_levels_have_fixed_ratings_in_order(kind: str) -> None:
    levels = ai_ratings(kind)
    assert levels["easy"][0] < levels["normal"][0] < levels["hard"][0]
    assert levels["normal"][0] == START_MU  # the anchor: a newcomer's start
    assert ai_skill("hard", kind) == Skill(*levels["hard"])
    assert set(AI_RATINGS) == {"flaming-pyramids", "pyrinoes", "pyramido"}  # every rated game is measured


def test_beating_hard_means_more_than_beating_easy_and_ai_ratings_never_move() -> None:
    vs_hard = Ledger().apply_all([game(1, (101, 0), ("hard", 1))])
    vs_easy = Ledger().apply_all([game(1, (101, 0), ("easy", 1))])
    gain_hard = vs_hard.standing(7, "flaming-pyramids", 101).mu - START_MU
    gain_easy = vs_easy.standing(7, "flaming-pyramids", 101).mu - START_MU
    assert gain_hard > gain_easy > 0
    # The AI has no standing, and the next game still meets the same fixed rating.
    assert all(key[2] == 101 for key in vs_hard.standings)
    twice = Ledger().apply_all([game(1, (101, 0), ("hard", 1)), game(2, (102, 0), ("hard", 1))])
    assert twice.standing(7, "flaming-pyramids", 102).mu == pytest.approx(START_MU + gain_hard)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_free_for_all_of_two_to_six(players: int) -> None:
    ledger = Ledger().apply_all([game(1, *((100 + n, n) for n in range(players)))])
    mus = [ledger.standing(7, "flaming-pyramids", 100 + n).mu for n in range(players)]
    assert mus == sorted(mus, reverse=True) and mus[0] > START_MU > mus[-1]
    assert all(ledger.standing(7, "flaming-pyramids", 100 + n).sigma < START_SIGMA for n in range(players))
    assert [ledger.standing(7, "flaming-pyramids", 100 + n).wins for n in range(players)] == [1] + [0] * (players - 1)


def test_counts_streaks_and_both_scopes() -> None:
    games = [game(1, (101, 0), (102, 1)), game(2, (101, 0), (102, 1)), game(3, (101, 1), (102, 0)),
             game(4, (101, 0), ("easy", 1), guild=8)]
    ledger = Ledger().apply_all(games)
    here = ledger.standing(7, "flaming-pyramids", 101)
    assert (here.games, here.wins, here.losses, here.streak, here.best_streak) == (3, 2, 1, 0, 2)
    everywhere = ledger.standing(EVERYWHERE, "flaming-pyramids", 101)
    assert (everywhere.games, everywhere.wins, everywhere.streak, everywhere.last_game_id) == (4, 3, 1, 4)
    assert ledger.standing(8, "flaming-pyramids", 101).games == 1
    assert everywhere.updated_at == games[-1].finished_at


def test_a_leaver_loses_like_a_last_place() -> None:
    ledger = Ledger().apply_all([game(1, (101, 1), (102, 0), left=(0,))])
    assert ledger.standing(7, "flaming-pyramids", 101).losses == 1
    assert ledger.standing(7, "flaming-pyramids", 101).mu < START_MU < ledger.standing(7, "flaming-pyramids", 102).mu


def test_games_apply_in_the_order_they_ended_and_step_by_step_equals_all_at_once() -> None:
    games = [game(3, (101, 0), (102, 1), (103, 2)), game(1, (102, 0), ("hard", 1)), game(2, (103, 0), (101, 1)),
             game(4, (101, 0), (102, 0), ("normal", 2))]
    whole = Ledger().apply_all(games)
    step = Ledger()
    for g in sorted(games, key=lambda g: g.finished_at):
        step = Ledger(step.standings.values())  # as the store does: start from the stored standings
        step.apply(g)
    assert step.standings == whole.standings
    assert Ledger().apply_all(reversed(games)).standings == whole.standings


def test_ties_share_a_rank() -> None:
    before = Skill()
    after = rate([before, before], [0, 0])
    assert after[0] == after[1] and after[0].mu == pytest.approx(before.mu)


def test_completion_records_keep_wins_best_score_and_streaks() -> None:
    ledger = Ledger().apply_all([record(1, 101, False, 90), record(2, 101, True, 144), record(3, 101, False, 100),
                                 record(4, 101, True, 144, variant="co-op")])
    solo = ledger.records[(7, "continuous-pyramid", "solo", 101)]
    assert (solo.games, solo.wins, solo.best_score, solo.streak, solo.best_streak) == (3, 1, 144, 0, 1)
    assert ledger.records[(EVERYWHERE, "continuous-pyramid", "co-op", 101)].wins == 1
    assert not ledger.standings
