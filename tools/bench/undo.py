"""``python -m tools.bench.undo``: how long the engine's undo rule (``engine.core.undo.revealed``)
takes per move, which the bot asks as a person's move is written where undo is allowed (off the
event loop). Random games of every kind; prints the median, the 95th percentile and the most per
move, in milliseconds of wall clock (``time.perf_counter``), one line per game and table size.
This is a tool: it reads the clock."""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence
from typing import Any

from engine.core import Rng, get_game
from engine.core.undo import revealed

TABLES: list[tuple[str, dict[str, Any], int]] = [
    ("flaming-pyramids", {}, 3), ("flaming-pyramids", {}, 6), ("pyrinoes", {}, 2),
    ("pyramido", {"mode": "competitive"}, 4), ("continuous-pyramid", {}, 1),
]


def measure(kind: str, options: dict[str, Any], players: int, games: int, moves: int) -> list[float]:
    game = get_game(kind)
    times: list[float] = []
    for seed in range(games):
        state = game.setup(players, options, seed)
        rng = Rng(seed)
        for _ in range(moves):
            seat = game.waiting_for(state)
            if seat is None:
                break
            move = rng.choice(game.legal_moves(state))
            start = time.perf_counter()
            revealed(game, state, seat, move)
            times.append((time.perf_counter() - start) * 1000)
            state, _ = game.play(state, seat, move)
    return sorted(times)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.undo", description=__doc__)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--moves", type=int, default=80)
    args = parser.parse_args(argv)
    for kind, options, players in TABLES:
        times = measure(kind, options, players, args.games, args.moves)
        print(f"{kind} ({players} seats): {len(times)} moves, median {statistics.median(times):.1f} ms, "
              f"p95 {times[int(len(times) * 0.95)]:.1f} ms, max {times[-1]:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
