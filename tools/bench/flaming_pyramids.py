"""``python -m tools.bench.flaming_pyramids``: how fast search can drive the engine.

Builds mid-game positions (games stopped between turns 10 and 40, no fall pending)
and times ``legal_moves`` followed by applying one random legal move, with narration
(``apply``) and without (``advance``). Uniformly random players cause so much mayhem
that their pyramids stay small, so the headline set comes from "calm" players who
avoid mayhem when they can (pyramids of 10-25 tiles, like careful human games); the
random-play set is printed too. Medians in microseconds: a figure to watch, not a test.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence

from engine.core.rng import Rng, derive_seed
from engine.flaming_pyramids import GAME
from engine.flaming_pyramids.state import State


def _calm_move(state: State, legal: list[str], rng: Rng) -> str:
    """A random move among those that place a tile without any mayhem, if there is one."""
    if state.pending is None:
        size = len(state.pyramid) + 1
        calm = [m for m in legal if len((after := GAME.advance(state, m)).pyramid) == size and after.pending is None]
        if calm:
            return rng.choice(calm)
    return rng.choice(legal)


def mid_game_positions(count: int, seed: int, calm: bool) -> list[State]:
    rng = Rng(seed)
    positions: list[State] = []
    game = 0
    while len(positions) < count:
        players = 2 + game % 5
        state = GAME.setup(players, {"curse": game % 2 == 1}, derive_seed(seed, f"bench-{game}"))
        game += 1
        stop = 10 + rng.below(31)
        while state.result is None and (state.turns < stop or state.pending is not None):
            legal = GAME.legal_moves(state)
            state = GAME.advance(state, _calm_move(state, legal, rng) if calm else rng.choice(legal))
        if state.result is None:
            positions.append(state)
    return positions


def _time(positions: list[State], moves: list[str], narrate: bool, rounds: int) -> list[float]:
    samples: list[float] = []
    clock = time.perf_counter_ns
    legal_moves = GAME.legal_moves
    apply = GAME.apply
    advance = GAME.advance
    for _ in range(rounds):
        for state, move in zip(positions, moves, strict=True):
            seat = state.turn
            t0 = clock()
            legal_moves(state)
            if narrate:
                apply(state, seat, move)
            else:
                advance(state, move)
            samples.append((clock() - t0) / 1000)
    return samples


def _q(samples: list[float], p: int) -> float:
    return round(statistics.quantiles(samples, n=100)[p - 1], 1)


def _measure(positions: list[State], seed: int, rounds: int) -> dict[str, object]:
    rng = Rng(seed + 1)
    moves = [rng.choice(GAME.legal_moves(s)) for s in positions]
    _time(positions, moves, True, 2)  # warm the caches
    narrated = _time(positions, moves, True, rounds)
    quiet = _time(positions, moves, False, rounds)
    legal: list[float] = []
    for _ in range(rounds):
        for state in positions:
            t0 = time.perf_counter_ns()
            GAME.legal_moves(state)
            legal.append((time.perf_counter_ns() - t0) / 1000)
    return {
        "positions": len(positions),
        "mean_pyramid_tiles": round(statistics.mean(len(s.pyramid) for s in positions), 1),
        "legal_moves_plus_apply_us": {"median": round(statistics.median(narrated), 1), "p90": _q(narrated, 90)},
        "legal_moves_plus_advance_us": {"median": round(statistics.median(quiet), 1), "p90": _q(quiet, 90)},
        "legal_moves_us": {"median": round(statistics.median(legal), 1), "p90": _q(legal, 90)},
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.flaming_pyramids")
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    figures: dict[str, object] = {"game": GAME.id, "target_us": 100}
    for label, calm in (("calm_play", True), ("random_play", False)):
        figures[label] = _measure(mid_game_positions(args.positions, args.seed, calm), args.seed, args.rounds)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
