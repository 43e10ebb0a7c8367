"""Measure how few moves of its own a losing seat makes in a real game of each rated kind.

``python -m tools.rated_moves [--games N] [--seed S] [--jobs J] [--hard-iterations K] [--kind KIND ...]
[--seats S ...]``

For every rated game (two seats; Pyramido in its competitive mode; Flaming Pyramids to
its natural end, no turn limit but the engine's ceiling) it plays every pairing of the
AI levels, a level against itself included, ``N`` times (``tools.arena``: every deal
once per rotation of the seats), and prints one JSON object: per kind and pairing, the
fewest moves of its own a losing seat made, and the minimum of play a rated game then
needs (:func:`bot.ratings.fit.fewest_rated_moves`: half the fewest of any pairing).

Pairings with the easy AI (a player moving at random) losing to hard are what a real
beginner's quickest loss looks like, so the minimum is taken over all of them: a real
game, however lopsided, is never below it. The ``fewest`` it prints is what
each game's ``FEWEST_LOSER_MOVES`` (``bot/games/<game>.py``, on its presenter) ships.

A seat makes fewer moves at a bigger table (six Flaming Pyramids players share the
turns), so ``--seats S`` also plays tables of ``S`` seats: every mix of the levels, one
deal in each rotation of the seats (``--games 0``: those alone); their fewest is
each game's ``FEWEST_LOSER_MOVES_AT``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from itertools import combinations_with_replacement
from typing import Any

from bot.ratings.fit import fewest_rated_moves
from engine.core import get_game
from tools.ai_ratings import HARD_ITERATIONS, KINDS, LEVELS
from tools.arena import Outcome, run, schedule


def loser_moves(outcomes: Sequence[Outcome]) -> list[int]:
    """The moves of its own each losing seat made, in the games that ended by their rules
    (a Flaming Pyramids game stopped by its turn limit is left out)."""
    out: list[int] = []
    for o in outcomes:
        if o.error is not None or not o.winners or "turn_limit" in o.details:
            continue
        out += [moves for seat, moves in enumerate(o.seat_moves) if seat not in o.winners]
    return out


def measure_table(kind: str, seats: int, seed: int, jobs: int, hard_iterations: int) -> dict[str, Any]:
    """Games of ``seats`` seats: every table of AI levels (each level any number of times),
    one deal each in every rotation of the seats; the fewest moves a loser made."""
    tables = list(combinations_with_replacement(LEVELS, seats))
    matches = [m for levels in tables
               for m in schedule(kind, list(levels), seats, seed, KINDS[kind], None, hard_iterations)]
    outcomes = run(matches, jobs)
    errors = [o.error for o in outcomes if o.error is not None]
    if errors:
        print(errors[0], file=sys.stderr)
    losers = loser_moves(outcomes)
    print(f"{kind}, {seats} seats: fewest loser moves {min(losers) if losers else '-'} of {len(losers)} losing seats",
          file=sys.stderr, flush=True)
    return {"tables": len(tables), "games": len(matches), "losing_seats": len(losers),
            "fewest": min(losers) if losers else None,
            "fewest_rated_moves": fewest_rated_moves([min(losers)]) if losers else None}


def measure(kind: str, games: int, seed: int, jobs: int, hard_iterations: int) -> dict[str, Any]:
    """Every pairing's games, and the fewest moves a loser made in each."""
    pairs = list(combinations_with_replacement(LEVELS, 2))
    matches = [m for first, second in pairs
               for m in schedule(kind, [first, second], games, seed, KINDS[kind], None, hard_iterations)]
    outcomes = run(matches, jobs)
    rows: list[list[Any]] = []
    everything: list[int] = []
    for index, (first, second) in enumerate(pairs):
        mine = outcomes[index * games:(index + 1) * games]
        errors = [o.error for o in mine if o.error is not None]
        if errors:
            print(errors[0], file=sys.stderr)
        losers = loser_moves(mine)
        everything += losers
        rows.append([first, second, min(losers) if losers else None, len(losers)])
        print(f"{kind}: {first} vs {second}: fewest loser moves {min(losers) if losers else '-'} "
              f"of {len(losers)} losing seats", file=sys.stderr, flush=True)
    fewest = [[a, b, f, n] for a, b, f, n in rows if f is not None]
    return {
        "fewest": fewest,
        "median_loser_moves": sorted(everything)[len(everything) // 2] if everything else None,
        "fewest_rated_moves": fewest_rated_moves([f for _, _, f, _ in fewest]) if fewest else None,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.rated_moves", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per pairing of two levels")
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--hard-iterations", type=int, default=HARD_ITERATIONS)
    parser.add_argument("--kind", action="append", choices=sorted(KINDS), help="only these games (default: all)")
    parser.add_argument("--seats", type=int, action="append", default=None,
                        help="also tables of this many seats, up to the game's most (every mix of the levels, "
                             "one deal in each rotation)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    report: dict[str, Any] = {"games_per_pairing": args.games, "seed": args.seed,
                              "hard_iterations": args.hard_iterations}
    for kind in args.kind or list(KINDS):
        if args.games > 0:
            report[kind] = measure(kind, args.games, args.seed, args.jobs, args.hard_iterations)
        most = get_game(kind).player_range(get_game(kind).parse_options(KINDS[kind]))[1]
        for seats in sorted(set(args.seats or [])):
            if 2 < seats <= most:
                report.setdefault(f"{kind} at {seats} seats", measure_table(kind, seats, args.seed, args.jobs,
                                                                            args.hard_iterations))
    report["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
