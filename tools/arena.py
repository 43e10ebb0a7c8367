"""Pitting AI levels against each other: N games, seats rotated, one JSON summary.

``python -m tools.selfplay GAME --ai LEVEL,LEVEL,... [--games N] [--seed S] [--jobs J]``
lands here. Games come in rotations: every deal is played once per rotation of the
levels round the table (hard,normal then normal,hard on the same deal), which cancels
most of the luck of the deal and of the first move. Win rates count a shared win as
a fraction and carry a 95% Wilson interval.

This is a tool, not engine logic: it reads the wall clock to time decisions and may
fan games out over worker processes.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

from engine.ai.choose import LEVELS, decide
from engine.core import derive_seed, get_game

#: Options that keep simulated games finite (a Flaming Pyramids game can cycle).
DEFAULT_OPTIONS: dict[str, dict[str, Any]] = {
    "flaming-pyramids": {"turn_limit": 300},
}
MAX_MOVES = 20_000


@dataclass(frozen=True, slots=True)
class Match:
    """One game to play: the level in each seat, and which entry of the pairing each seat is."""

    game: str
    seed: int
    levels: tuple[str, ...]
    entries: tuple[int, ...]  # seat -> index into the pairing's level list
    options: tuple[tuple[str, Any], ...] = ()
    hard_seconds: float | None = None
    hard_iterations: int | None = None
    #: What ``hard_seconds`` is measured on: "wall" (perf_counter, as the bot) or "cpu"
    #: (this process's CPU time, so a busy shared machine does not weaken the AI).
    clock: str = "wall"


@dataclass(slots=True)
class Outcome:
    entries: tuple[int, ...]
    winners: tuple[int, ...]  # seats
    moves: int
    scores: tuple[float, ...] = ()
    hard_times: list[float] = field(default_factory=list)
    error: str | None = None
    #: The result's details (e.g. Flaming Pyramids' ``turns``), for tools that measure them.
    details: dict[str, float] = field(default_factory=dict)
    #: The moves each seat made (``tools.rated_moves`` measures the fewest a loser makes).
    seat_moves: tuple[int, ...] = ()


def play_match(match: Match) -> Outcome:
    """Play one game to the end; any exception is caught and reported in the outcome."""
    try:
        return _play(match)
    except Exception:  # noqa: BLE001 - a tool counts every failure
        return Outcome(match.entries, (), 0, error=traceback.format_exc())


def _play(match: Match) -> Outcome:
    game = get_game(match.game)
    state = game.setup(len(match.levels), dict(match.options), match.seed)
    hard_times: list[float] = []
    moves = 0
    seat_moves = [0] * len(match.levels)
    clock = (time.process_time if match.clock == "cpu" else time.perf_counter) if match.hard_seconds else None
    while game.result(state) is None:
        seat = game.to_act(state)
        assert seat is not None
        level = match.levels[seat]
        seed = derive_seed(match.seed, f"ai:{moves}:{seat}")
        started = time.perf_counter()
        move, _ = decide(game, state, seat, level, seed, clock, budget_seconds=match.hard_seconds,
                         iterations=match.hard_iterations)
        if level == "hard":
            hard_times.append(time.perf_counter() - started)
        state, _ = game.play(state, seat, move)
        moves += 1
        seat_moves[seat] += 1
        if moves > MAX_MOVES:
            raise RuntimeError(f"game did not finish in {MAX_MOVES} moves")
    result = game.result(state)
    assert result is not None
    return Outcome(match.entries, tuple(result.winners), moves, tuple(result.scores), hard_times,
                   details=dict(result.details), seat_moves=tuple(seat_moves))


def schedule(kind: str, levels: Sequence[str], games: int, seed: int, options: dict[str, Any],
             hard_seconds: float | None = None, hard_iterations: int | None = None,
             clock: str = "wall") -> list[Match]:
    """``games`` matches: each deal is played in every rotation of the seats in turn."""
    n = len(levels)
    frozen = tuple(sorted(options.items()))
    out: list[Match] = []
    for i in range(games):
        deal, shift = divmod(i, n)
        entries = tuple((s + shift) % n for s in range(n))
        out.append(Match(kind, derive_seed(seed, f"deal-{deal}"), tuple(levels[e] for e in entries), entries,
                         frozen, hard_seconds, hard_iterations, clock))
    return out


def run(matches: Sequence[Match], jobs: int = 1) -> list[Outcome]:
    if jobs <= 1 or len(matches) <= 1:
        return [play_match(m) for m in matches]
    with get_context("spawn").Pool(jobs) as pool:
        return list(pool.imap(play_match, matches, chunksize=1))


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (fractional successes allowed)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def summarize(kind: str, levels: Sequence[str], outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """Per entry of the pairing: wins (shared wins split), rate and 95% CI; for one
    level alone (solo, or a co-op table of one level), the completion rate."""
    n = len(levels)
    errors = [o for o in outcomes if o.error is not None]
    done = [o for o in outcomes if o.error is None]
    wins = [0.0] * n
    completed = 0
    for o in done:
        if o.winners:
            completed += 1
            share = 1.0 / len(o.winners)
            for seat in o.winners:
                wins[o.entries[seat]] += share
    times = [t for o in done for t in o.hard_times]
    summary: dict[str, Any] = {
        "game": kind,
        "ai": list(levels),
        "games": len(outcomes),
        "errors": len(errors),
        "mean_moves": round(statistics.fmean(o.moves for o in done), 1) if done else 0,
    }
    if n == 1 or _cooperative(done, n):
        low, high = wilson(completed, len(done))
        summary.update(completed=completed, completion_rate=_r(completed / len(done) if done else 0.0),
                       ci95=[_r(low), _r(high)])
    else:
        summary["wins"] = [_r(w) for w in wins]
        summary["win_rate"] = [_r(w / len(done)) if done else 0.0 for w in wins]
        summary["ci95"] = [[_r(x) for x in wilson(w, len(done))] for w in wins]
    if times:
        summary["hard_seconds_median"] = _r(statistics.median(times))
        summary["hard_seconds_max"] = _r(max(times))
        summary["hard_decisions"] = len(times)
    if errors and errors[0].error:
        print(errors[0].error, file=sys.stderr)
    return summary


def _cooperative(outcomes: Sequence[Outcome], n: int) -> bool:
    """A table where everyone wins or loses together (co-op Pyramido)."""
    return bool(outcomes) and all(len(o.winners) in (0, n) for o in outcomes)


def _r(x: float) -> float:
    return round(x, 4)


def parse_levels(text: str) -> list[str]:
    levels = [x.strip().lower() for x in text.split(",") if x.strip()]
    for level in levels:
        if level not in LEVELS:
            raise argparse.ArgumentTypeError(f"unknown level {level!r}; the levels are {', '.join(LEVELS)}")
    if not levels:
        raise argparse.ArgumentTypeError("give at least one level")
    return levels


def parse_option(pair: str) -> tuple[str, Any]:
    key, sep, value = pair.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"option {pair!r} must look like name=value")
    lowered = value.lower()
    parsed: Any = value
    if lowered in ("true", "false"):
        parsed = lowered == "true"
    elif lowered == "none":
        parsed = None
    elif value.lstrip("-").isdigit():
        parsed = int(value)
    return key, parsed


def main(kind: str, argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog=f"python -m tools.selfplay {kind} --ai LEVEL,LEVEL,...")
    parser.add_argument("--ai", type=parse_levels, required=True, help="one level per seat, e.g. hard,normal")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--hard-seconds", type=float, default=None,
                        help="hard's thinking time per move (default: a fixed iteration budget)")
    parser.add_argument("--hard-iterations", type=int, default=None, help="hard's iteration cap per move")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="what --hard-seconds measures: wall time, or this process's CPU time")
    parser.add_argument("--option", type=parse_option, action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(list(argv))
    options = dict(DEFAULT_OPTIONS.get(kind, {}))
    options.update(dict(args.option))
    started = time.perf_counter()
    matches = schedule(kind, args.ai, args.games, args.seed, options, args.hard_seconds, args.hard_iterations,
                       args.clock)
    outcomes = run(matches, args.jobs)
    summary = summarize(kind, args.ai, outcomes)
    summary.update(seed=args.seed, options=options, seconds=round(time.perf_counter() - started, 1))
    if args.hard_seconds is not None:
        summary["hard_budget_seconds"] = args.hard_seconds
        summary["clock"] = args.clock
    if args.hard_iterations is not None:
        summary["hard_budget_iterations"] = args.hard_iterations
    print(json.dumps(summary))
    return 1 if summary["errors"] else 0
