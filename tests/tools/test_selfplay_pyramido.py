"""Self-play entry point: a few games here; the 10,000-game runs are marked slow."""

from __future__ import annotations

import json

import pytest

from tools.selfplay import main as dispatch


def run(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    code = dispatch(["pyramido", *args])
    line = capsys.readouterr().out.strip().splitlines()[-1]
    summary = json.loads(line)
    assert code == 0 and summary["errors"] == 0
    return summary  # type: ignore[no-any-return]


@pytest.mark.parametrize("args", [
    ("--mode", "solo", "--games", "4", "--check"),
    ("--mode", "solo", "--size", "4", "--games", "4", "--check", "--player", "random"),
    ("--mode", "coop", "--games", "3", "--check"),
    ("--mode", "competitive", "--games", "3", "--check", "--rounds", "2"),
])
def test_selfplay_small(capsys: pytest.CaptureFixture[str], args: tuple[str, ...]) -> None:
    summary = run(capsys, *args)
    assert summary["games"] == int(args[args.index("--games") + 1])


@pytest.mark.slow
@pytest.mark.parametrize("args", [
    ("--mode", "solo"), ("--mode", "solo", "--size", "4"), ("--mode", "coop"), ("--mode", "coop", "--size", "4"),
    ("--mode", "competitive"),
])
def test_selfplay_many_games(capsys: pytest.CaptureFixture[str], args: tuple[str, ...]) -> None:
    """A seeded sample of 400 games per mode keeps CI inside its time budget; the 10,000-game runs are
    ``python -m tools.selfplay pyramido --mode MODE --games 10000 --check`` (figures
    in the closing note and README)."""
    summary = run(capsys, *args, "--games", "400")
    if args[1] == "solo":
        assert isinstance(summary["win_rate"], float) and summary["win_rate"] > 0
