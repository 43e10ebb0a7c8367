"""A game's rating rules live on its presenter (``Presenter.rating``, ``bot.games.rating``): a new
game is one module more. The ratings read them from the presenter and name no game themselves; a
presenter that declares nothing gets the documented default."""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bot.games.catalogue import Catalogue
from bot.games.rating import DEFAULT_RATING, Counting, RatingRules
from bot.ratings.model import AI_RATINGS, PAIRINGS
from bot.ratings.outcome import outcome_of
from bot.ratings.rules import counting, fewest_moves, too_short
from bot.ratings.texts import unrated_note
from engine.core import Result, game_ids
from tests.bot.ratings.test_outcome import T0, record, seats
from tests.fifth_game.presenter import PRESENTER as PEBBLE
from tests.paths import REPO


def test_the_ratings_name_no_game() -> None:
    """Every per-game rule is the presenter's: no module of ``bot/ratings`` spells a game's id."""
    kinds = set(game_ids())
    named = sorted(
        f"{path.relative_to(REPO)}: {node.value}"
        for path in sorted(Path(REPO / "bot" / "ratings").rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in kinds
    )
    assert named == []


def test_every_shipped_game_declares_its_rules_and_the_rated_ones_their_measurements() -> None:
    for presenter in Catalogue.default():
        assert presenter.rating is not DEFAULT_RATING, presenter.kind
        rated = any(presenter.rating.counting(options, 2).rated for options in ({}, {"mode": "competitive"}))
        assert bool(presenter.rating.pairings) == rated == bool(presenter.rating.fewest_loser_moves), presenter.kind
    assert set(PAIRINGS) == set(AI_RATINGS) == {p.kind for p in Catalogue.default() if p.rating.pairings}


def test_a_game_that_declares_nothing_gets_the_documented_default() -> None:
    assert PEBBLE.rating is DEFAULT_RATING
    catalogue = Catalogue.default().with_games(PEBBLE)
    assert counting(PEBBLE.kind, {}, 2, catalogue) == Counting(rated=True)
    assert counting(PEBBLE.kind, {}, 1, catalogue) == Counting(rated=False, variant="solo")
    assert too_short(PEBBLE.kind, {"turn_limit": 1}, catalogue) is None
    assert fewest_moves(PEBBLE.kind, 2, catalogue) == 1


def short_below_ten(options: Mapping[str, Any]) -> int | None:
    rounds = options.get("rounds", 99)
    return 10 if isinstance(rounds, int) and rounds < 10 else None


def lower_is_better(options: Mapping[str, Any], seats: int) -> Counting:
    if short_below_ten(options) is not None:
        return Counting(rated=False, short=True)
    return Counting(rated=True, better="lower")


def test_a_game_that_declares_its_own_rules_is_counted_by_them() -> None:
    """The fifth game, one place more: its presenter declares lower scores better, a minimum length
    and a measured minimum of play; the ratings follow every one of them."""
    own = dataclasses.replace(PEBBLE, rating=RatingRules(
        count=lower_is_better, too_short=short_below_ten,
        fewest_loser_moves=(("easy", "hard", 12, 4),)))
    catalogue = Catalogue.default().with_games(own)
    assert fewest_moves(own.kind, 2, catalogue) == 6
    assert too_short(own.kind, {"rounds": 3}, catalogue) == 10
    assert "10 turns" in unrated_note(own.rating, {"rounds": 3})
    result = Result(winners=(), scores=(5.0, 3.0))
    played = {0: 6, 1: 6}
    out = outcome_of(record(own.kind), seats(101, 102), result, T0, played=played, catalogue=catalogue)
    assert out is not None and out.rated
    assert [s.rank for s in out.seats] == [1, 0]  # fewer is better, as the presenter says
    idle = outcome_of(record(own.kind), seats(101, 102), result, T0, played={0: 5, 1: 6}, catalogue=catalogue)
    assert idle is not None and [s.idle for s in idle.seats] == [True, False]
    short = outcome_of(record(own.kind, options={"rounds": 3}), seats(101, 102), result, T0, played=played,
                       catalogue=catalogue)
    assert short is None or not short.rated
