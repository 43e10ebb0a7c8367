"""``python -m tools.rated_moves``: the fewest moves a losing seat makes, per pairing, and
the minimum of play it gives (what each ``bot/games/<game>.py`` ships)."""

from __future__ import annotations

import json

import pytest

from bot.ratings.fit import fewest_rated_moves
from tools import rated_moves
from tools.arena import Outcome


def test_it_plays_every_pairing_and_prints_the_fewest_loser_moves(capsys: pytest.CaptureFixture[str]) -> None:
    assert rated_moves.main(["--games", "2", "--kind", "pyramido", "--hard-iterations", "2"]) == 0
    measured = json.loads(capsys.readouterr().out)["pyramido"]
    assert [row[:2] for row in measured["fewest"]] == [["easy", "easy"], ["easy", "normal"], ["easy", "hard"],
                                                       ["normal", "normal"], ["normal", "hard"], ["hard", "hard"]]
    assert all(row[2] >= 1 and row[3] >= 1 for row in measured["fewest"])
    assert measured["fewest_rated_moves"] == fewest_rated_moves([row[2] for row in measured["fewest"]])


def test_only_the_losers_of_games_ended_by_their_rules_count() -> None:
    outcomes = [Outcome((0, 1), (0,), 30, seat_moves=(16, 14)),
                Outcome((0, 1), (), 30, seat_moves=(3, 3)),  # nobody won: no loser
                Outcome((0, 1), (1,), 9, seat_moves=(5, 4), details={"turn_limit": 9.0}),  # stopped by its limit
                Outcome((1, 0), (1,), 0, error="boom")]
    assert rated_moves.loser_moves(outcomes) == [14]
    assert fewest_rated_moves([28, 36]) == 14 and fewest_rated_moves([1]) == 1
