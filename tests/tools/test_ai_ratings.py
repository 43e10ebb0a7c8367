"""``python -m tools.ai_ratings``: the AI levels against each other, and what it prints."""

from __future__ import annotations

import json

import pytest

from bot.ratings.fit import Pairing, fit
from tools import ai_ratings


def test_it_plays_every_pairing_and_prints_what_measured_py_ships(capsys: pytest.CaptureFixture[str]) -> None:
    assert ai_ratings.main(["--games", "2", "--kind", "flaming-pyramids", "--hard-iterations", "2"]) == 0
    report = json.loads(capsys.readouterr().out)
    measured = report["flaming-pyramids"]
    assert [p[:2] for p in measured["pairings"]] == [["easy", "normal"], ["easy", "hard"], ["normal", "hard"]]
    assert all(p[3] == 2 and 0 <= p[2] <= 2 for p in measured["pairings"])
    fitted = fit([Pairing(*p) for p in measured["pairings"]], anchor="normal", anchor_mu=25.0)
    assert measured["ratings"] == {k: [round(f.mu, 2), round(f.sigma, 2)] for k, f in sorted(fitted.items())}
    assert measured["ratings"]["normal"][0] == 25.0
    assert len(measured["turns"]) <= 2 and measured["shortest_rated_turn_limit"] >= 1


def test_a_time_limit_that_is_not_reached_changes_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    """``--minutes`` only stops a run early (at whole rounds); one that ends in time is the same run."""
    argv = ["--games", "2", "--kind", "pyramido", "--hard-iterations", "2"]
    assert ai_ratings.main(argv) == 0
    plain = json.loads(capsys.readouterr().out)["pyramido"]
    assert ai_ratings.main([*argv, "--minutes", "120", "--jobs", "2"]) == 0
    timed = json.loads(capsys.readouterr().out)["pyramido"]
    assert timed == plain and timed["games_per_pairing"] == 2
