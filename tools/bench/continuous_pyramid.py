"""``python -m tools.bench.continuous_pyramid``: solver and hint-player figures.

Solves ``--deals`` seeded deals at a ``--budget``-second budget each (the clock is
injected here; the engine reads none) and prints median and p95 time per deal, the
share solved (proved either way) and the share winnable; then plays the same deals
with the hint player and prints its win rate, overall and on the proven-winnable
deals. Last line: the same figures as JSON."""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Sequence

from engine.continuous_pyramid.deal import deal_state
from engine.continuous_pyramid.game import ContinuousPyramid
from engine.continuous_pyramid.options import CPOptions
from engine.continuous_pyramid.solver import Budget, Verdict, solve
from tools.selfplay.continuous_pyramid import deal_numbers, play_one


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.continuous_pyramid")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--budget", type=float, default=2.0, help="seconds per deal")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hint-games", type=int, default=None, help="deals for the hint player (default: --deals)")
    parser.add_argument("--edition", type=int, choices=(1, 2), default=2, help="rules edition (CP-2)")
    args = parser.parse_args(argv)
    options = CPOptions(edition=args.edition)

    deals = deal_numbers(args.seed, args.deals)
    times: list[float] = []
    nodes: list[int] = []
    verdicts: dict[int, Verdict] = {}
    for deal in deals:
        start = time.perf_counter()
        res = solve(deal_state(deal, options), Budget(nodes=None, clock=time.perf_counter, seconds=args.budget))
        times.append(time.perf_counter() - start)
        nodes.append(res.nodes)
        verdicts[deal] = res.verdict
    n = len(deals)
    winnable = sum(v is Verdict.WINNABLE for v in verdicts.values())
    lost = sum(v is Verdict.NOT_WINNABLE for v in verdicts.values())
    solved = winnable + lost
    print(f"solver: {n} deals (seed {args.seed}, edition {args.edition}), budget {args.budget:g} s per deal")
    median_ms, p95_ms = statistics.median(times) * 1000, percentile(times, 0.95) * 1000
    print(f"  time per deal: median {median_ms:.1f} ms, p95 {p95_ms:.1f} ms, max {max(times) * 1000:.1f} ms")
    print(f"  nodes per deal: median {statistics.median(nodes):.0f}, max {max(nodes)}")
    print(f"  solved {solved}/{n} ({solved / n:.1%}); winnable {winnable}/{n} ({winnable / n:.1%}),"
          f" not winnable {lost}, unknown {n - solved}")

    game = ContinuousPyramid()
    hint_deals = deals[: args.hint_games] if args.hint_games is not None else deals
    won = won_winnable = tiles = 0
    start = time.perf_counter()
    moves = 0
    for deal in hint_deals:
        w, t, m = play_one(game, deal, {"undo": True, "edition": args.edition})
        won += w
        won_winnable += w and verdicts.get(deal) is Verdict.WINNABLE
        tiles += t
        moves += m
    elapsed = time.perf_counter() - start
    hn = len(hint_deals)
    hw = sum(verdicts.get(d) is Verdict.WINNABLE for d in hint_deals)
    print(f"hint player: won {won}/{hn} ({won / hn:.1%}); on winnable deals {won_winnable}/{hw}"
          f" ({won_winnable / hw if hw else 0:.1%}); mean tiles placed {tiles / hn:.1f}; {moves / elapsed:.0f} moves/s")
    print(
        json.dumps(
            {
                "deals": n,
                "edition": args.edition,
                "budget_s": args.budget,
                "median_ms": round(statistics.median(times) * 1000, 2),
                "p95_ms": round(percentile(times, 0.95) * 1000, 2),
                "max_ms": round(max(times) * 1000, 2),
                "share_solved": round(solved / n, 4),
                "share_winnable": round(winnable / n, 4),
                "hint_games": hn,
                "hint_win_rate": round(won / hn, 4),
                "hint_win_rate_on_winnable": round(won_winnable / hw, 4) if hw else 0.0,
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
