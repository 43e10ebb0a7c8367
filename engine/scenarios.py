"""Run rule scenarios: ``python -m engine.scenarios PATH [PATH ...]``.

The format is specified in ``../shared/scenarios/README.md``. A scenario that cannot
be loaded is a FAIL with the reason, never a crash, so one bad file never hides the
verdict on the others.

Where a scenario contradicts the rules file it illustrates, the rules file wins.
Such a disagreement is recorded in ``scenario_corrections.json`` beside this module:
the corrected expectation of named keys, the reason, and the SHA-256 of the exact
scenario file it answers. The scenario still runs in full and must meet the
corrected values; its PASS line says what was corrected and why. A correction
applies only to the bytes it was written for, so a scenario fixed at its source is
checked as written again.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core.contract import Game
from engine.core.errors import EngineError, MoveRejected
from engine.core.registry import get_game

#: Collections whose order carries no meaning; compared as multisets.
UNORDERED_KEYS = frozenset(
    {"hands", "pyrinoes", "supply", "green", "reserves", "quarry", "removed", "out"}
)


#: Where the project's corrections to scenarios that contradict the rules live.
CORRECTIONS_FILE = Path(__file__).with_name("scenario_corrections.json")


@dataclass(frozen=True)
class Outcome:
    name: str
    passed: bool
    why: str = ""
    #: On a pass: the correction the scenario was checked with, if any.
    note: str = ""

    def line(self) -> str:
        if not self.passed:
            return f"FAIL {self.name}: {self.why}"
        return f"PASS {self.name} ({self.note})" if self.note else f"PASS {self.name}"


@dataclass(frozen=True)
class Correction:
    sha256: str
    expect: dict[str, Any]
    why: str


def load_corrections(path: Path = CORRECTIONS_FILE) -> dict[str, Correction]:
    if not path.exists():
        return {}
    raw = json.loads(path.read_text(encoding="utf-8"))
    return {
        name: Correction(str(entry["sha256"]), dict(entry["expect"]), str(entry["why"]))
        for name, entry in raw.items()
    }


def find_files(paths: Iterable[str | Path]) -> list[Path]:
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*.json") if p.is_file()))
        else:
            files.append(path)
    return files


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _as_multiset(value: Any) -> Any:
    if isinstance(value, list):
        if value and all(isinstance(v, list) for v in value):
            return [Counter(_canonical(x) for x in v) for v in value]
        return Counter(_canonical(x) for x in value)
    return value


def _same(key: str, expected: Any, actual: Any) -> bool:
    if key in UNORDERED_KEYS:
        return bool(_as_multiset(expected) == _as_multiset(actual))
    return bool(_canonical(expected) == _canonical(actual))


def observed(game: Game[Any], state: Any) -> dict[str, Any]:
    """The engine's position JSON plus the contract's pending/winner/over keys.

    ``pending`` is the rules file's notation: the position's own ``pending`` where the
    game writes one (Flaming Pyramids' ``"decision": "fall"``), else the contract's."""
    result = game.result(state)
    position = dict(game.to_position(state))
    if "pending" not in position:
        pending = game.pending(state)
        position["pending"] = None if pending is None else pending.to_json()
    position["over"] = result is not None
    position["winner"] = result.winner if result is not None else None
    return position


def run_scenario(path: Path, corrections: dict[str, Correction] | None = None) -> Outcome:
    name = path.stem
    try:
        raw = path.read_bytes()
        data = json.loads(raw.decode("utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        return Outcome(name, False, f"cannot read the file ({exc})")
    except json.JSONDecodeError as exc:
        return Outcome(name, False, f"bad JSON ({exc})")
    if not isinstance(data, dict):
        return Outcome(name, False, "a scenario must be a JSON object")
    name = str(data.get("name") or name)
    correction = (load_corrections() if corrections is None else corrections).get(name)
    note = ""
    if correction is not None and correction.sha256 == hashlib.sha256(raw).hexdigest():
        expect = data.get("expect")
        if isinstance(expect, dict):
            changed = ", ".join(
                f"{key} {_canonical(expect.get(key))} -> {_canonical(value)}"
                for key, value in correction.expect.items()
            )
            data = {**data, "expect": {**expect, **correction.expect}}
            note = f"corrected: {changed}; {correction.why}"
    try:
        outcome = _run(name, data)
        if outcome.passed and note:
            return Outcome(name, True, note=note)
        return outcome
    except EngineError as exc:
        return Outcome(name, False, str(exc))
    except Exception as exc:  # noqa: BLE001 - a crash is reported as a failure, by design
        return Outcome(name, False, f"engine crashed: {type(exc).__name__}: {exc}")


def _run(name: str, data: dict[str, Any]) -> Outcome:
    kind = data.get("game")
    if not isinstance(kind, str):
        return Outcome(name, False, "no game named")
    game = get_game(kind)
    setup = data.get("setup")
    if not isinstance(setup, dict):
        return Outcome(name, False, "setup must be a position object")
    state = game.from_position(setup)
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        return Outcome(name, False, "actions must be a list")
    for index, action in enumerate(actions, start=1):
        if not isinstance(action, dict) or "move" not in action:
            return Outcome(name, False, f"action {index} is not an object with a move")
        player = int(action.get("player", 0))
        move = str(action["move"])
        illegal = bool(action.get("illegal", False))
        before = _canonical(observed(game, state))
        try:
            new_state, _events = game.play(state, player, move)
        except MoveRejected as exc:
            if not illegal:
                return Outcome(name, False, f"action {index} ({move!r} by player {player}) was rejected: {exc}")
            if not exc.reason.strip():
                return Outcome(name, False, f"action {index} ({move!r}) was rejected without a reason")
            if _canonical(observed(game, state)) != before:
                return Outcome(name, False, f"action {index} ({move!r}) was rejected but changed the position")
            continue
        if illegal:
            return Outcome(name, False, f"action {index} ({move!r} by player {player}) was accepted but is illegal")
        if _canonical(observed(game, state)) != before:
            return Outcome(name, False, f"action {index} ({move!r}) mutated the previous state")
        state = new_state
    expect = data.get("expect", {})
    if not isinstance(expect, dict):
        return Outcome(name, False, "expect must be an object")
    actual = observed(game, state)
    wrong = [
        f"{key}: expected {_canonical(value)}, got {_canonical(actual.get(key))}"
        for key, value in expect.items()
        if not _same(key, value, actual.get(key))
    ]
    if wrong:
        return Outcome(name, False, "; ".join(wrong))
    return Outcome(name, True)


def run_paths(paths: Sequence[str | Path]) -> list[Outcome]:
    files = find_files(paths)
    corrections = load_corrections()
    outcomes = []
    for path in files:
        if not path.exists():
            outcomes.append(Outcome(path.stem, False, f"no such file {path}"))
            continue
        outcomes.append(run_scenario(path, corrections))
    return outcomes


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print("usage: python -m engine.scenarios PATH [PATH ...]", file=sys.stderr)
        return 2
    outcomes = run_paths(args)
    for outcome in outcomes:
        print(outcome.line())
    failed = sum(not o.passed for o in outcomes)
    corrected = sum(bool(o.note) for o in outcomes)
    if corrected:
        print(f"{corrected} scenario(s) contradict the rules file and were checked with the correction shown")
    print(f"{len(outcomes) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
