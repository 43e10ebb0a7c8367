from __future__ import annotations

import json

import pytest

from tools.bench import pyrinoes as bench
from tools.selfplay import main as dispatch
from tools.selfplay import pyrinoes as selfplay


def _summary(capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1
    data: dict[str, object] = json.loads(lines[0])
    return data


@pytest.mark.parametrize("policy", ["random", "greedy", "mixed"])
def test_selfplay_small_run(policy: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert selfplay.main(["--games", "8", "--seed", "3", "--policy", policy]) == 0
    data = _summary(capsys)
    assert data["errors"] == 0 and data["games"] == 8 and sum(data["wins"]) == 8  # type: ignore[arg-type]


def test_selfplay_deep_through_dispatcher(capsys: pytest.CaptureFixture[str]) -> None:
    assert dispatch(["pyrinoes", "--games", "3", "--seed", "11", "--deep", "--target", "40"]) == 0
    assert _summary(capsys)["errors"] == 0


def test_bench_prints_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--matches", "3"]) == 0
    data = _summary(capsys)
    assert {"playout_moves_per_second", "legal_moves_per_second", "determinize_per_second"} <= set(data)


@pytest.mark.slow
def test_selfplay_many_matches(capsys: pytest.CaptureFixture[str]) -> None:
    """A seeded sample of 1,500 matches; the 10,000-match run is the bench
    ``python -m tools.selfplay pyrinoes --games 10000``."""
    assert selfplay.main(["--games", "1500", "--seed", "1"]) == 0
    assert _summary(capsys)["errors"] == 0
