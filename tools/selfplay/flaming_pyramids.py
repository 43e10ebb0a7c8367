"""``python -m tools.selfplay flaming-pyramids --games N --seed S --players P``.

Plays N complete games with uniformly random legal moves (falls included) through the
public ``play`` entry point, so narration and every check run too, and prints one JSON
line. Any exception is a bug: it is counted, and the first traceback goes to stderr.
Random games could in principle cycle forever (tiles go back to piles), so each game
runs with a ``turn_limit`` (the FP-9 option; ``--turn-limit``) and the summary says
how many games ended naturally and how many by that cap.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence

from engine.core.rng import Rng, derive_seed
from engine.flaming_pyramids import GAME
from engine.flaming_pyramids.state import State
from tools.playout import steps
from tools.selfplay.failures import Failures


def _players(text: str | None) -> tuple[int, int]:
    if text is None:
        return GAME.min_players, GAME.max_players
    low, _, high = text.partition("-")
    lo, hi = int(low), int(high or low)
    if not GAME.min_players <= lo <= hi <= GAME.max_players:
        raise argparse.ArgumentTypeError(f"players must lie within {GAME.min_players}-{GAME.max_players}")
    return lo, hi


def play_one(players: int, curse: bool, turn_limit: int, seed: int) -> tuple[State, int]:
    """One random game; returns the final state and the number of moves made."""
    state = GAME.setup(players, {"curse": curse, "turn_limit": turn_limit}, seed)
    moves = 0
    for step in steps(GAME, state, Rng(derive_seed(seed, "selfplay-moves"))):
        state = step.state
        moves += 1
    return state, moves


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.selfplay flaming-pyramids")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", default=None, help="a count (4) or a range (2-6); default: a mix of 2-6")
    parser.add_argument("--curse", choices=("off", "on", "mix"), default="mix")
    parser.add_argument("--turn-limit", type=int, default=2000, help="cap on turns per game (FP-9 turn_limit)")
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        low, high = _players(args.players)
    except (ValueError, argparse.ArgumentTypeError) as exc:
        parser.error(f"--players: {exc}")

    natural = capped = 0
    failures = Failures()
    turns: list[int] = []
    total_moves = 0
    seats: Counter[int] = Counter()
    started = time.perf_counter()
    for i in range(args.games):
        game_seed = derive_seed(args.seed, f"game-{i}")
        players = low + i % (high - low + 1)
        curse = {"off": False, "on": True, "mix": i % 2 == 1}[args.curse]
        seats[players] += 1
        outcome = failures.attempt(f"game {i} (seed {game_seed}, {players} players, curse={curse})",
                                   play_one, players, curse, args.turn_limit, game_seed)
        if outcome is None:
            continue
        state, moves = outcome
        total_moves += moves
        turns.append(state.turns)
        result = state.result
        if result is not None and "turn_limit" in result.details:
            capped += 1
        else:
            natural += 1
    elapsed = time.perf_counter() - started
    summary = {
        "game": GAME.id,
        "games": args.games,
        "finished": natural + capped,
        "natural": natural,
        "capped": capped,
        "errors": failures.count,
        "mean_turns": round(sum(turns) / len(turns), 1) if turns else 0,
        "max_turns": max(turns, default=0),
        "moves": total_moves,
        "moves_per_second": round(total_moves / elapsed) if elapsed > 0 else 0,
        "seconds": round(elapsed, 2),
        "seed": args.seed,
        "players": {str(k): v for k, v in sorted(seats.items())},
        "curse": args.curse,
        "turn_limit": args.turn_limit,
    }
    print(json.dumps(summary))
    return 1 if failures.count else 0
