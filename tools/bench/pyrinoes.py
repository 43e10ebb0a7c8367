"""``python -m tools.bench.pyrinoes [--matches N] [--seed S]``: speed figures for search AIs.

Prints one JSON line: random-playout throughput (legal_moves + apply, through the
rule book as an AI would call it), then per-call rates for legal_moves, build_options,
determinize and a position round trip measured on states sampled from those playouts.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable

from engine.core.rng import Rng
from engine.pyrinoes.game import Pyrinoes
from engine.pyrinoes.moves import build_options
from engine.pyrinoes.state import PyrinoesState

GAME = Pyrinoes()


def _rate(states: list[PyrinoesState], call: Callable[[PyrinoesState], object], repeat: int) -> float:
    started = time.perf_counter()
    for _ in range(repeat):
        for state in states:
            call(state)
    return repeat * len(states) / (time.perf_counter() - started)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.pyrinoes")
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    rng = Rng(args.seed)
    samples: list[PyrinoesState] = []
    moves = rounds = 0
    started = time.perf_counter()
    for _ in range(args.matches):
        state = GAME.setup(2, None, rng.next64())
        while state.winner is None:
            legal = GAME.legal_moves(state)
            state, _ = GAME.apply(state, state.turn, rng.choice(legal))
            moves += 1
            if moves % 97 == 0:
                samples.append(state)
        rounds += state.round
    playout_seconds = time.perf_counter() - started
    live = [s for s in samples if s.winner is None]
    det_rng = Rng(1)
    figures = {
        "game": "pyrinoes",
        "matches": args.matches,
        "moves": moves,
        "rounds": rounds,
        "playout_moves_per_second": round(moves / playout_seconds),
        "playout_matches_per_second": round(args.matches / playout_seconds, 1),
        "legal_moves_per_second": round(_rate(live, GAME.legal_moves, 5)),
        "build_options_per_second": round(_rate(live, build_options, 5)),
        "determinize_per_second": round(_rate(live, lambda s: GAME.determinize(s, s.turn, det_rng), 5)),
        "position_round_trips_per_second": round(_rate(live, lambda s: GAME.from_position(GAME.to_position(s)), 2)),
        "sampled_states": len(live),
    }
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
