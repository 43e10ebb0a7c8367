"""Every Flaming Pyramids scenario, shared and own, must pass (run here directly so this
engine's verdict does not wait on the project-wide pending-engines list)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.scenarios import find_files, run_scenario
from tests.paths import OWN_SCENARIOS, SHARED_SCENARIOS

GAME_ID = "flaming-pyramids"
SHARED = find_files([SHARED_SCENARIOS / GAME_ID]) if (SHARED_SCENARIOS / GAME_ID).exists() else []
OWN = find_files([OWN_SCENARIOS / GAME_ID])


@pytest.mark.skipif(not SHARED, reason=f"shared scenarios not found at {SHARED_SCENARIOS}")
@pytest.mark.parametrize("path", SHARED, ids=lambda p: p.stem)
def test_shared(path: Path) -> None:
    outcome = run_scenario(path)
    assert outcome.passed, outcome.why


@pytest.mark.parametrize("path", OWN, ids=lambda p: p.stem)
def test_own(path: Path) -> None:
    outcome = run_scenario(path)
    assert outcome.passed, outcome.why


def test_every_rule_has_own_scenarios() -> None:
    import json

    rules = [json.loads(p.read_text())["rule"] for p in OWN]
    for n in range(1, 10):
        assert f"FP-{n}" in rules
    for n in (3, 4, 6):
        assert rules.count(f"FP-{n}") >= 3
