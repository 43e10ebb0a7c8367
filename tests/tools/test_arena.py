"""The ``--ai`` self-play path and the arena's bookkeeping."""

from __future__ import annotations

import json

import pytest

from tools import arena, selfplay
from tools.bench.ai import report


def test_selfplay_with_ai_levels_prints_wins_and_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    code = selfplay.main(["flaming-pyramids", "--ai", "normal,easy", "--games", "4", "--seed", "3"])
    assert code == 0
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert data["ai"] == ["normal", "easy"] and data["games"] == 4 and data["errors"] == 0
    assert sum(data["wins"]) == pytest.approx(4)
    for (low, high), rate in zip(data["ci95"], data["win_rate"], strict=True):
        assert 0 <= low <= rate <= high <= 1


def test_selfplay_with_hard_at_a_fixed_iteration_budget(capsys: pytest.CaptureFixture[str]) -> None:
    code = selfplay.main(["pyrinoes", "--ai", "hard,easy", "--games", "2", "--hard-iterations", "8",
                          "--option", "target=15"])
    assert code == 0
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert data["options"] == {"target": 15} and data["hard_decisions"] > 0 and data["errors"] == 0


def test_selfplay_completion_rate_for_a_solo_game(capsys: pytest.CaptureFixture[str]) -> None:
    code = selfplay.main(["continuous-pyramid", "--ai", "easy", "--games", "2"])
    assert code == 0
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert data["games"] == 2 and "completion_rate" in data and len(data["ci95"]) == 2


def test_selfplay_without_ai_still_dispatches_to_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert selfplay.main(["pyrinoes", "--games", "2"]) == 0
    assert json.loads(capsys.readouterr().out)["game"] == "pyrinoes"


def test_unknown_levels_are_refused() -> None:
    with pytest.raises(SystemExit):
        selfplay.main(["pyrinoes", "--ai", "hard,genius"])


def test_schedule_rotates_the_seats_on_each_deal() -> None:
    matches = arena.schedule("pyrinoes", ["hard", "normal"], 4, 1, {})
    assert [m.levels for m in matches] == [("hard", "normal"), ("normal", "hard")] * 2
    assert matches[0].seed == matches[1].seed != matches[2].seed
    assert [m.entries for m in matches[:2]] == [(0, 1), (1, 0)]


def test_summary_splits_shared_wins_and_counts_errors() -> None:
    outcomes = [
        arena.Outcome((0, 1), (0,), 10),
        arena.Outcome((1, 0), (0,), 10),  # seat 0 played entry 1
        arena.Outcome((0, 1), (0, 1), 10),  # a shared win
        arena.Outcome((0, 1), (), 0, error="boom"),
    ]
    summary = arena.summarize("flaming-pyramids", ["hard", "normal"], outcomes)
    assert summary["wins"] == [1.5, 1.5] and summary["errors"] == 1 and summary["games"] == 4
    assert summary["win_rate"] == [0.5, 0.5]


def test_wilson_interval() -> None:
    low, high = arena.wilson(80, 100)
    assert low == pytest.approx(0.711, abs=1e-3) and high == pytest.approx(0.867, abs=1e-3)
    assert arena.wilson(0, 0) == (0.0, 1.0)


def test_bench_report_reads_its_own_records() -> None:
    text = report([
        {"kind": "pairing", "game": "pyrinoes", "ai": ["hard", "normal"], "win_rate": [0.7, 0.3], "games": 400,
         "ci95": [[0.65, 0.74], [0.26, 0.35]], "target": 0.65, "met": True, "hard_budget_seconds": 0.1,
         "clock": "cpu"},
        {"kind": "completion", "table": "pyramido solo", "level": "easy", "completion_rate": 0.0, "games": 10,
         "ci95": [0.0, 0.28]},
        {"kind": "timing", "table": "pyrinoes", "decisions": 3, "budget_seconds": 1.5, "median_seconds": 1.5,
         "max_seconds": 1.6},
    ])
    assert "hard beats normal in 70.0% of 400 games" in text and "met" in text and "max 1.6 s" in text
