"""The self-play command: one JSON line, zero errors."""

from __future__ import annotations

import json

import pytest

from tools.selfplay import main as dispatch
from tools.selfplay.flaming_pyramids import main


def test_selfplay_prints_one_summary_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert dispatch(["flaming-pyramids", "--games", "20", "--seed", "3"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1
    summary = json.loads(lines[0])
    assert summary["games"] == 20 and summary["errors"] == 0 and summary["finished"] == 20
    assert summary["natural"] + summary["capped"] == 20
    assert summary["players"] == {"2": 4, "3": 4, "4": 4, "5": 4, "6": 4}
    for key in ("mean_turns", "max_turns", "moves_per_second"):
        assert key in summary


def test_selfplay_fixed_players_and_cap(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games", "6", "--players", "3", "--turn-limit", "5", "--curse", "on"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["players"] == {"3": 6} and summary["capped"] == 6 and summary["max_turns"] == 5


@pytest.mark.slow
def test_selfplay_many_games(capsys: pytest.CaptureFixture[str]) -> None:
    """A seeded sample of 1,500 games (every table size, every rule path in practice); the
    10,000-game run is the bench ``python -m tools.selfplay flaming-pyramids --games 10000``."""
    assert main(["--games", "1500", "--seed", "1", "--players", "2-6"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["errors"] == 0 and summary["finished"] == 1500
