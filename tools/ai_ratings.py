"""Measure the AI levels' ratings, and how long a real Flaming Pyramids game is.

``python -m tools.ai_ratings [--games N] [--hard-iterations K] [--jobs J] [--minutes M] [--kind KIND ...]``

For every rated game (two seats; Pyramido in its competitive mode) it plays each two
AI levels against each other ``N`` times (``tools.arena``: every deal once per
rotation of the seats), and prints one JSON object: the wins of each pairing, the
ratings :func:`bot.ratings.fit.fit` makes of them (``normal`` pinned at a newcomer's
25), and for Flaming Pyramids the length in turns of the games played to their
natural end (no turn limit but the engine's ceiling) between the normal and hard AIs,
from which the shortest rated ``turn_limit`` is chosen (its lower decile).

The ``pairings`` and ``turns`` it prints are what each game's module ships
(``bot/games/<game>.py``: ``PAIRINGS``, ``TURNS``, on its presenter's ``rating``);
the bot computes its AI ratings from them at start-up, so pasting a new measurement
there is all a re-measurement takes. ``hard`` thinks for a fixed number of iterations
here (the bot gives it up to 1.5 s and at most 4000), so that a busy machine does not
weaken it and a run can be repeated; with fewer iterations than the bot's, the
measured hard rating is a floor of the bot's hard.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import time
from collections.abc import Sequence
from itertools import combinations
from multiprocessing import get_context
from typing import Any

from bot.ratings.fit import Pairing, fit, shortest_rated
from bot.ratings.model import START_MU
from tools.arena import Match, Outcome, play_match, run, schedule

#: The rated games and the options they are measured with (two seats each).
KINDS: dict[str, dict[str, Any]] = {
    "flaming-pyramids": {"turn_limit": 2000},
    "pyrinoes": {},
    "pyramido": {"mode": "competitive"},
}
LEVELS = ("easy", "normal", "hard")
#: Hard's fixed search budget here (see the module docstring).
HARD_ITERATIONS = 200


def wins_of(outcomes: Sequence[Outcome]) -> tuple[float, int]:
    """Wins of the pairing's first level (a shared win split), and the games that finished."""
    done = [o for o in outcomes if o.error is None]
    wins = 0.0
    for o in done:
        if o.winners:
            wins += sum(1.0 for seat in o.winners if o.entries[seat] == 0) / len(o.winners)
    return wins, len(done)


def measure(kind: str, games: int, seed: int, jobs: int, hard_iterations: int,
            minutes: float | None = None) -> dict[str, Any]:
    """Every pairing's games, played by one pool of ``jobs`` workers in rounds: a round
    is one deal played in both seat orders by every pairing, so the pairings advance
    together. With ``minutes``, no game is started after that many minutes, and only
    whole rounds count (then as many games as were played are fitted, and printed)."""
    options = KINDS[kind]
    pairs = list(combinations(LEVELS, 2))
    scheduled = [schedule(kind, [first, second], games, seed, options, None, hard_iterations)
                 for first, second in pairs]
    per_round = 2 * len(pairs)
    ordered = [(p, m) for start in range(0, games, 2) for p in range(len(pairs))
               for m in scheduled[p][start:start + 2]]
    finished = _play_until([m for _, m in ordered], jobs, None if minutes is None else minutes * 60)
    kept = len(finished) if len(finished) == len(ordered) else len(finished) // per_round * per_round
    outcomes_of: list[list[Outcome]] = [[] for _ in pairs]
    for (p, _), outcome in zip(ordered[:kept], finished, strict=False):
        outcomes_of[p].append(outcome)
    pairings: list[list[Any]] = []
    turns: list[int] = []
    for (first, second), outcomes in zip(pairs, outcomes_of, strict=True):
        errors = [o.error for o in outcomes if o.error is not None]
        if errors:
            print(errors[0], file=sys.stderr)
        wins, done = wins_of(outcomes)
        pairings.append([first, second, round(wins, 2), done])
        if "easy" not in (first, second):
            turns += [int(o.details["turns"]) for o in outcomes if o.error is None and "turns" in o.details
                      and "turn_limit" not in o.details]
        print(f"{kind}: {first} vs {second}: {wins:g} of {done}", file=sys.stderr, flush=True)
    fitted = fit([Pairing(a, b, w, n) for a, b, w, n in pairings], anchor="normal", anchor_mu=START_MU)
    out: dict[str, Any] = {
        "games_per_pairing": kept // len(pairs),
        "pairings": pairings,
        "ratings": {level: [round(f.mu, 2), round(f.sigma, 2)] for level, f in sorted(fitted.items())},
    }
    if turns:
        out["turns"] = sorted(turns)
        out["turns_median"] = statistics.median(turns)
        out["shortest_rated_turn_limit"] = shortest_rated(turns)
    return out


def _play_until(matches: Sequence[Match], jobs: int, seconds: float | None) -> list[Outcome]:
    """The outcomes of the first matches, in order, that finished before ``seconds``
    passed (all of them without a limit); the games still being played then are dropped."""
    if seconds is None:
        return run(matches, jobs)
    deadline = time.monotonic() + seconds
    out: list[Outcome] = []
    with get_context("spawn").Pool(max(1, jobs)) as pool:
        pending = pool.imap(play_match, matches, chunksize=1)
        for _ in matches:
            try:
                out.append(pending.next(timeout=max(0.0, deadline - time.monotonic())))
            except multiprocessing.TimeoutError:
                pool.terminate()
                break
            print(f"  {len(out)} of {len(matches)} games", file=sys.stderr, flush=True)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.ai_ratings", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per pairing of two levels")
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--hard-iterations", type=int, default=HARD_ITERATIONS)
    parser.add_argument("--minutes", type=float, default=None,
                        help="start no game after this many minutes (per game); whole rounds count")
    parser.add_argument("--kind", action="append", choices=sorted(KINDS), help="only these games (default: all)")
    args = parser.parse_args(argv)
    if args.minutes is not None and args.games % 2:
        parser.error("--minutes counts whole rounds (each deal in both seat orders): give an even --games")
    started = time.perf_counter()
    report: dict[str, Any] = {"games_per_pairing": args.games, "seed": args.seed,
                              "hard_iterations": args.hard_iterations}
    for kind in args.kind or list(KINDS):
        report[kind] = measure(kind, args.games, args.seed, args.jobs, args.hard_iterations, args.minutes)
    report["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
