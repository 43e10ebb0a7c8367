"""The AI levels' ratings from their games against each other (``bot.ratings.fit``)."""

from __future__ import annotations

import math

import pytest

from bot.games.flaming_pyramids import TURNS as FLAMING_PYRAMIDS_TURNS
from bot.ratings.fit import BETA, Pairing, fit, shortest_rated
from bot.ratings.model import AI_RATINGS, PAIRINGS, START_MU, Skill


def test_the_fit_recovers_the_gap_the_wins_show_and_pins_the_anchor() -> None:
    # hard beats normal three games in four, normal beats easy nine in ten; hard vs easy as the gaps imply.
    fitted = fit([Pairing("normal", "hard", 250, 1000), Pairing("easy", "normal", 100, 1000),
                  Pairing("easy", "hard", 36, 1000)], anchor="normal", anchor_mu=25.0)
    assert fitted["normal"].mu == 25.0
    c = math.sqrt(2 * fitted["hard"].sigma ** 2 + 2 * BETA ** 2)
    assert fitted["hard"].mu - 25.0 == pytest.approx(c * math.log(3), rel=0.1)
    assert 25.0 - fitted["easy"].mu == pytest.approx(c * math.log(9), rel=0.1)
    assert fitted["easy"].mu < fitted["normal"].mu < fitted["hard"].mu


def test_more_games_mean_a_smaller_sigma_and_a_clean_sweep_stays_finite() -> None:
    few = fit([Pairing("normal", "hard", 2, 8)], anchor="normal", anchor_mu=25.0)
    many = fit([Pairing("normal", "hard", 20, 80)], anchor="normal", anchor_mu=25.0)
    assert many["hard"].sigma < few["hard"].sigma
    sweep = fit([Pairing("normal", "hard", 0, 40)], anchor="normal", anchor_mu=25.0)
    assert math.isfinite(sweep["hard"].mu) and sweep["hard"].mu > many["hard"].mu


def test_bad_pairings_are_refused() -> None:
    with pytest.raises(ValueError):
        Pairing("easy", "hard", 5, 4)
    with pytest.raises(ValueError):
        fit([Pairing("easy", "hard", 1, 4)], anchor="normal", anchor_mu=25.0)


def test_the_shipped_ratings_are_the_fit_of_the_shipped_measurement() -> None:
    """The bot's AI ratings are computed from the measured pairings, not typed in."""
    assert set(PAIRINGS) == set(AI_RATINGS)
    for kind, pairings in PAIRINGS.items():
        fitted = fit([Pairing(*p) for p in pairings], anchor="normal", anchor_mu=START_MU)
        assert {level: (round(f.mu, 2), round(f.sigma, 2)) for level, f in fitted.items()} == AI_RATINGS[kind]
        assert all(games >= 8 for *_, games in pairings)


def test_the_measured_ratings_predict_the_measured_wins() -> None:
    """Rating a pairing's games one by one from the fitted figures moves them little:
    the fit is where the games leave them."""
    for kind, pairings in PAIRINGS.items():
        levels = AI_RATINGS[kind]
        for first, second, wins, games in pairings:
            a, b = Skill(*levels[first]), Skill(*levels[second])
            c = math.sqrt(a.sigma ** 2 + b.sigma ** 2 + 2 * BETA ** 2)
            expected = games / (1 + math.exp(-(a.mu - b.mu) / c))
            assert abs(expected - wins) <= max(3.0, 0.2 * games), (kind, first, second)


def test_the_shortest_rated_turn_limit_is_the_lower_decile_of_real_games() -> None:
    assert shortest_rated([100] * 9 + [37]) == 35
    assert shortest_rated([3]) == 1
    assert shortest_rated(FLAMING_PYRAMIDS_TURNS) > 1
    with pytest.raises(ValueError):
        shortest_rated([])
