"""``python -m tools.bench.ai``: the figures the AI issue asks for.

* Win rates with 95% Wilson intervals over two-player games (seats rotated on each
  deal): hard vs normal and normal vs easy, in Flaming Pyramids and Pyrinoes
  (targets: hard wins >= 65%, normal wins >= 80%). ``hard`` runs at a reduced,
  stated budget here (``--hard-seconds``, default 0.1 s of this process's CPU time
  per move, so a busy shared machine does not weaken it).
* Completion rates (with intervals) per level in solo and co-op Pyramido.
* ``hard``'s decision time at its full default budget, as the bot runs it (wall
  clock, ``time.perf_counter``), on positions from every game: median and max.

Each experiment prints one JSON line when it finishes; a summary table follows.
This is a tool: it reads the clock and uses worker processes (``--jobs``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from engine.ai.choose import HARD_SECONDS, decide
from engine.core import Rng, derive_seed, get_game
from tools import arena

PAIRINGS: dict[str, list[tuple[str, str]]] = {
    "flaming-pyramids": [("hard", "normal"), ("normal", "easy")],
    "pyrinoes": [("hard", "normal"), ("normal", "easy")],
}
TARGETS = {("hard", "normal"): 0.65, ("normal", "easy"): 0.80}
#: (label, game, players, options) of the completion-rate tables.
COMPLETION: list[tuple[str, str, int, dict[str, Any]]] = [
    ("pyramido solo", "pyramido", 1, {"mode": "solo"}),
    ("pyramido co-op (2)", "pyramido", 2, {"mode": "coop"}),
]
#: (label, game, players, options) of the tables hard's decision time is measured on.
TIMING: list[tuple[str, str, int, dict[str, Any]]] = [
    ("flaming-pyramids", "flaming-pyramids", 2, {"turn_limit": 300}),
    ("flaming-pyramids 4p", "flaming-pyramids", 4, {"turn_limit": 300}),
    ("pyrinoes", "pyrinoes", 2, {}),
    ("pyramido solo", "pyramido", 1, {"mode": "solo"}),
    ("pyramido co-op", "pyramido", 3, {"mode": "coop"}),
    ("pyramido competitive", "pyramido", 2, {"mode": "competitive"}),
    ("continuous-pyramid", "continuous-pyramid", 1, {}),
]


def emit(record: dict[str, Any]) -> None:
    print(json.dumps(record), flush=True)


def pairing(kind: str, levels: tuple[str, str], args: argparse.Namespace) -> dict[str, Any]:
    options = dict(arena.DEFAULT_OPTIONS.get(kind, {}))
    started = time.perf_counter()
    matches = arena.schedule(kind, levels, args.games, derive_seed(args.seed, f"{kind}:{levels}"), options,
                             args.hard_seconds, None, args.clock)
    summary = arena.summarize(kind, levels, arena.run(matches, args.jobs))
    summary.update(kind="pairing", seconds=round(time.perf_counter() - started, 1), options=options)
    if "hard" in levels:
        summary.update(hard_budget_seconds=args.hard_seconds, clock=args.clock)
    target = TARGETS.get(levels)
    if target is not None:
        summary["target"] = target
        summary["met"] = summary["win_rate"][0] >= target
    return summary


def completion(label: str, kind: str, players: int, options: dict[str, Any], level: str,
               args: argparse.Namespace) -> dict[str, Any]:
    started = time.perf_counter()
    matches = arena.schedule(kind, [level] * players, args.completion_games,
                             derive_seed(args.seed, f"{label}:completion"), options, args.hard_seconds, None,
                             args.clock)
    summary = arena.summarize(kind, [level] * players, arena.run(matches, args.jobs))
    summary.update(kind="completion", table=label, level=level, options=options,
                   seconds=round(time.perf_counter() - started, 1))
    if level == "hard":
        summary.update(hard_budget_seconds=args.hard_seconds, clock=args.clock)
    return summary


def positions(kind: str, players: int, options: dict[str, Any], count: int, seed: int) -> list[Any]:
    """Positions from normal-vs-normal games where the seat to act has a real choice."""
    game = get_game(kind)
    rng = Rng(seed)
    found: list[Any] = []
    deal = 0
    while len(found) < count and deal < 50:
        state = game.setup(players, options, derive_seed(seed, f"timing-{deal}"))
        deal += 1
        step = 0
        while game.to_act(state) is not None and len(found) < count:
            seat = game.to_act(state)
            assert seat is not None
            if len(game.legal_moves(state)) > 1 and rng.below(6) == 0:
                found.append(state)
            move, _ = decide(game, state, seat, "normal", derive_seed(seed, f"{deal}:{step}"))
            state, _ = game.play(state, seat, move)
            step += 1
    return found


def timing(label: str, kind: str, players: int, options: dict[str, Any], args: argparse.Namespace
           ) -> dict[str, Any]:
    game = get_game(kind)
    times: list[float] = []
    iterations: list[int] = []
    for i, state in enumerate(positions(kind, players, options, args.timing_positions, args.seed)):
        seat = game.to_act(state)
        assert seat is not None
        started = time.perf_counter()
        _move, stats = decide(game, state, seat, "hard", derive_seed(args.seed, f"t{i}"), time.perf_counter)
        times.append(time.perf_counter() - started)
        if stats is not None:
            iterations.append(stats.iterations)
    return {
        "kind": "timing",
        "table": label,
        "budget_seconds": HARD_SECONDS,
        "decisions": len(times),
        "median_seconds": round(statistics.median(times), 3) if times else None,
        "max_seconds": round(max(times), 3) if times else None,
        "median_iterations": statistics.median(iterations) if iterations else None,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.ai", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default="pairings,completion,timing",
                        help="comma-separated parts: pairings, completion, timing")
    parser.add_argument("--game", action="append", choices=sorted(PAIRINGS), help="pairings for this game only")
    parser.add_argument("--pairing", action="append", choices=["hard-normal", "normal-easy"],
                        help="only this pairing (repeatable)")
    parser.add_argument("--games", type=int, default=400, help="games per pairing")
    parser.add_argument("--completion-games", type=int, default=200, help="games per completion table and level")
    parser.add_argument("--completion-levels", default="easy,normal,hard")
    parser.add_argument("--hard-seconds", type=float, default=0.1, help="hard's budget per move in the games")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu", help="what --hard-seconds measures")
    parser.add_argument("--timing-positions", type=int, default=12, help="positions per table for the timing")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes for the games")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    parts = {p.strip() for p in args.only.split(",")}
    results: list[dict[str, Any]] = []
    if "pairings" in parts:
        for kind, pairs in PAIRINGS.items():
            if args.game and kind not in args.game:
                continue
            for levels in pairs:
                if args.pairing and "-".join(levels) not in args.pairing:
                    continue
                results.append(pairing(kind, levels, args))
                emit(results[-1])
    if "completion" in parts:
        for label, kind, players, options in COMPLETION:
            for level in arena.parse_levels(args.completion_levels):
                results.append(completion(label, kind, players, options, level, args))
                emit(results[-1])
    if "timing" in parts:
        for label, kind, players, options in TIMING:
            results.append(timing(label, kind, players, options, args))
            emit(results[-1])
    print(report(results), flush=True)
    return 0


def report(results: Sequence[dict[str, Any]]) -> str:
    lines = ["", "Summary"]
    for r in results:
        if r["kind"] == "pairing":
            a, b = r["ai"]
            low, high = r["ci95"][0]
            verdict = "" if "target" not in r else (" target ≥ {:.0%}: {}".format(r["target"],
                                                                             "met" if r["met"] else "MISSED"))
            budget = f" (hard {r['hard_budget_seconds']} s {r['clock']}/move)" if "hard_budget_seconds" in r else ""
            lines.append(f"  {r['game']}: {a} beats {b} in {r['win_rate'][0]:.1%} of {r['games']} games, "
                         f"95% CI [{low:.1%}, {high:.1%}]{budget}.{verdict}")
        elif r["kind"] == "completion":
            low, high = r["ci95"]
            budget = f" (hard {r['hard_budget_seconds']} s {r['clock']}/move)" if "hard_budget_seconds" in r else ""
            lines.append(f"  {r['table']}, {r['level']}: completed {r['completion_rate']:.1%} of {r['games']} games, "
                         f"95% CI [{low:.1%}, {high:.1%}]{budget}.")
        else:
            lines.append(f"  hard decision time, {r['table']} ({r['decisions']} moves, {r['budget_seconds']} s "
                         f"budget, wall clock): median {r['median_seconds']} s, max {r['max_seconds']} s.")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
