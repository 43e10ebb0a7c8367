"""The selfplay and bench entry points print their one JSON line."""

from __future__ import annotations

import json

import pytest

from engine.continuous_pyramid import bench
from engine.selfplay import main as selfplay_main


def test_selfplay_prints_one_summary_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert selfplay_main(["continuous-pyramid", "--games", "2", "--seed", "3"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1
    summary = json.loads(lines[0])
    assert summary["games"] == 2 and summary["errors"] == 0
    for key in ("won", "mean_tiles_placed", "moves_per_s"):
        assert key in summary


def test_bench_runs_small(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--deals", "3", "--budget", "0.5", "--hint-games", "1"]) == 0
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert figures["deals"] == 3 and 0.0 <= figures["share_winnable"] <= 1.0


@pytest.mark.slow
def test_many_winning_lines_replay() -> None:
    from engine.continuous_pyramid import GAME, Budget, Verdict, solve
    from engine.continuous_pyramid.deal import deal_state

    for deal in range(200):
        res = solve(deal, Budget(nodes=200_000))
        assert res.verdict is not Verdict.UNKNOWN
        if res.winnable:
            state = deal_state(deal)
            for move in res.line:
                state, _ = GAME.play(state, 0, move)
            result = GAME.result(state)
            assert result is not None and result.winners == (0,)
