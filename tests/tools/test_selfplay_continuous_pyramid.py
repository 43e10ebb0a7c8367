"""The selfplay and bench entry points print their one JSON line."""

from __future__ import annotations

import json

import pytest

from tools.bench import continuous_pyramid as bench
from tools.selfplay import main as selfplay_main


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

    for deal in range(60):  # a seeded sample; python -m tools.bench.continuous_pyramid solves more
        res = solve(deal, Budget(nodes=200_000))
        assert res.verdict is not Verdict.UNKNOWN
        if res.winnable:
            state = deal_state(deal)
            for move in res.line:
                state, _ = GAME.play(state, 0, move)
            result = GAME.result(state)
            assert result is not None and result.winners == (0,)


@pytest.mark.slow
@pytest.mark.parametrize(("args", "games"), [
    (("--player", "random"), 2_000),
    (("--player", "random", "--check"), 150),
    (("--player", "random", "--edition", "1", "--check"), 150),
    (("--player", "hint", "--winnable-only"), 12),
])
def test_selfplay_many_games(capsys: pytest.CaptureFixture[str], args: tuple[str, ...], games: int) -> None:
    """A seeded sample (the 10,000-deal run is ``python -m tools.selfplay continuous-pyramid --games 10000
    --player random``): deals under the second edition's rules with a random player (fast, and it
    wanders into positions a good player avoids), invariants checked on a share of them
    and on first-edition games, and a few winnable-only deals by the hint player."""
    assert selfplay_main(["continuous-pyramid", "--games", str(games), "--seed", "5", *args]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["games"] == games and summary["errors"] == 0
    assert 0 < summary["mean_tiles_placed"] <= 144
