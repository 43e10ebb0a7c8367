"""Every rule scenario runs as a test: the shared ones (when ../shared exists) and
the project's own rulings under tests/engine/scenarios/."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.scenarios import find_files, run_scenario
from tests.paths import OWN_SCENARIOS, SHARED_SCENARIOS

#: Games whose engine has not landed yet: their scenarios are expected to fail, and
#: the failure stays visible as an xfail. Remove a game as its engine lands.
ENGINES_PENDING: frozenset[str] = frozenset()


def _params(root: Path) -> list[object]:
    params: list[object] = []
    for path in find_files([root]) if root.exists() else []:
        game = path.parent.name
        marks = [pytest.mark.xfail(reason=f"the {game} engine has not landed", strict=True)] * (
            game in ENGINES_PENDING
        )
        params.append(pytest.param(path, id=f"{game}/{path.stem}", marks=marks))
    return params


@pytest.mark.skipif(not SHARED_SCENARIOS.exists(), reason=f"shared scenarios not found at {SHARED_SCENARIOS}")
@pytest.mark.parametrize("path", _params(SHARED_SCENARIOS))
def test_shared_scenario(path: Path) -> None:
    outcome = run_scenario(path)
    assert outcome.passed, outcome.why


@pytest.mark.parametrize("path", _params(OWN_SCENARIOS))
def test_own_scenario(path: Path) -> None:
    outcome = run_scenario(path)
    assert outcome.passed, outcome.why


def test_a_correction_applies_only_to_the_file_it_was_written_for(tmp_path: Path) -> None:
    """The rules file wins over a scenario that contradicts it, but only for the exact
    bytes the correction answers: a scenario fixed at its source is checked as written."""
    import hashlib
    import json

    from engine.scenarios import Correction

    source = OWN_SCENARIOS / "pyramido" / "pd6-fewest-minus-beats-net-total.json"
    data = json.loads(source.read_text(encoding="utf-8"))
    data["name"] = "wrong-plus"
    data["expect"]["plus"] = [9, 9, 9]
    wrong = tmp_path / "wrong-plus.json"
    wrong.write_text(json.dumps(data), encoding="utf-8")
    assert not run_scenario(wrong, {}).passed
    right = json.loads(source.read_text(encoding="utf-8"))["expect"]["plus"]
    fix = {"wrong-plus": Correction(hashlib.sha256(wrong.read_bytes()).hexdigest(), {"plus": right}, "PD-6")}
    outcome = run_scenario(wrong, fix)
    assert outcome.passed and "corrected" in outcome.line() and "PD-6" in outcome.line()
    wrong.write_text(json.dumps(data) + " ", encoding="utf-8")  # other bytes: the correction no longer applies
    assert not run_scenario(wrong, fix).passed


def test_every_correction_is_still_needed() -> None:
    """A correction whose scenario would pass as written (or no longer exists) is stale."""
    from engine.scenarios import load_corrections

    names = {}
    for root in (SHARED_SCENARIOS, OWN_SCENARIOS):
        for path in find_files([root]) if root.exists() else []:
            names[path.stem] = path
    for name, correction in load_corrections().items():
        if name not in names:
            continue  # the shared scenarios are not beside this checkout
        assert not run_scenario(names[name], {}).passed, f"{name} passes as written: drop its correction"
        assert run_scenario(names[name]).passed, f"{name} fails even with its correction: {correction.why}"
