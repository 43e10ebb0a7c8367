"""``python -m tools.bench.pairing [--players N] [--rounds R] [--runs K]``: how long one
Swiss round takes to pair.

It plays a Swiss of ``N`` players (default 1,000, ratings 1,000–2,000) for ``R`` rounds
(default 9) with random results, then times, ``K`` times (default 5), what the
tournament does before each round: the standings (points, Buchholz, Sonneborn-Berger)
and the pairing of the next round. It prints the mean and the slowest run in seconds,
and the same for a history built to defeat the quick pass (every player has met the
two players nearest in the order), which forces the blossom matching.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bot.tournaments.pairing import Pair, swiss_order, swiss_round
from bot.tournaments.standings import Bye, Finished, standings


def history(players: int, rounds: int, rnd: random.Random) -> tuple[dict[int, float], list[Finished], list[Bye]]:
    ratings = {p: float(rnd.randint(1000, 2000)) for p in range(1, players + 1)}
    games: list[Finished] = []
    byes: list[Bye] = []
    met: set[Pair] = set()
    for _ in range(rounds):
        lines = standings(ratings, games, byes)
        order = swiss_order(ratings, {line.player: line.points for line in lines}, ratings)
        paired = swiss_round(order, met, {bye.player for bye in byes})
        for a, b in paired.pairs:
            met.add(frozenset((a, b)))
            games.append(Finished({a: 1, b: rnd.choice((1, 2, 2))} if rnd.random() < 0.5 else {a: 2, b: 1}))
        if paired.bye is not None:
            byes.append(Bye(paired.bye, 1.0))
    return ratings, games, byes


def one_round(ratings: dict[int, float], games: list[Finished], byes: list[Bye]) -> float:
    started = time.perf_counter()
    lines = standings(ratings, games, byes)
    met = {frozenset(game.places) for game in games}
    order = swiss_order(ratings, {line.player: line.points for line in lines}, ratings)
    swiss_round(order, met, {bye.player for bye in byes})
    return time.perf_counter() - started


def stuck(players: int) -> float:
    """A history where the quick pass fails at once: each player met both neighbours in the order."""
    order = list(range(1, players + 1))
    met = {frozenset((p, q)) for p in order for q in (p + 1, p + 2) if q <= players}
    started = time.perf_counter()
    paired = swiss_round(order, met, set())
    took = time.perf_counter() - started
    assert not any(frozenset(pair) in met for pair in paired.pairs)
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rnd = random.Random(40)
    ratings, games, byes = history(args.players, args.rounds, rnd)
    times = [one_round(ratings, games, byes) for _ in range(args.runs)]
    print(f"Swiss, {args.players} players after {args.rounds} rounds: standings + pairing "
          f"mean {statistics.mean(times):.4f} s, slowest {max(times):.4f} s ({args.runs} runs)")
    hard = [stuck(args.players) for _ in range(args.runs)]
    print(f"Swiss, {args.players} players, quick pass stuck (blossom): "
          f"mean {statistics.mean(hard):.4f} s, slowest {max(hard):.4f} s ({args.runs} runs)")


if __name__ == "__main__":
    main()
