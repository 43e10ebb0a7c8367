"""``python -m tools.bench.pyramido``: speed figures for search AIs and self-play.

Prints moves applied per second (through ``apply``), ``legal_moves`` calls per
second, heuristic decisions per second, and whole heuristic games per second for
each mode, each measured over a fixed seeded workload.
"""

from __future__ import annotations

import time
from typing import Any

from engine.pyramido import heuristic
from engine.pyramido.game import GAME
from engine.pyramido.state import State


def _trace(players: int, options: dict[str, Any], seed: int) -> list[tuple[State, str]]:
    state = GAME.setup(players, options, seed)
    steps = []
    while state.result is None:
        move = heuristic.choose(state)
        steps.append((state, move))
        state, _ = GAME.apply(state, state.turn, move)
    return steps


def _rate(count: int, seconds: float) -> str:
    return f"{count / seconds:,.0f}/s" if seconds > 0 else "n/a"


def main() -> None:
    configs: list[tuple[str, int, dict[str, Any]]] = [
        ("solo 5x5", 1, {"mode": "solo"}),
        ("solo 4x4", 1, {"mode": "solo", "size": 4}),
        ("coop 3p", 3, {"mode": "coop"}),
        ("competitive 2p", 2, {"mode": "competitive"}),
        ("competitive 4p", 4, {"mode": "competitive"}),
    ]
    for label, players, options in configs:
        steps = [step for seed in range(20) for step in _trace(players, options, seed)]
        start = time.perf_counter()
        for state, move in steps:
            GAME.apply(state, state.turn, move)
        applied = time.perf_counter() - start
        start = time.perf_counter()
        for state, _move in steps:
            GAME.legal_moves(state)
        listed = time.perf_counter() - start
        start = time.perf_counter()
        for state, _move in steps:
            heuristic.choose(state)
        decided = time.perf_counter() - start
        start = time.perf_counter()
        games = 20
        for seed in range(100, 100 + games):
            _trace(players, options, seed)
        played = time.perf_counter() - start
        print(
            f"{label:16s} apply {_rate(len(steps), applied):>10s}  legal_moves {_rate(len(steps), listed):>9s}  "
            f"heuristic {_rate(len(steps), decided):>8s}  games {games / played:6.1f}/s"
        )


if __name__ == "__main__":
    main()
