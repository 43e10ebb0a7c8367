"""``python -m tools.bench.replays [GAME ...]`` (also the end of ``python -m tools.bench.render``):
how long a long game's animated replay takes to draw, and how big it is.

For each game, AI players play several deals (self-play through ``engine.ai``) and the
longest game is kept. Then, as the bot's render worker does (``bot.workers.rendering``),
its move log is replayed for every public position (``GameLog.positions``) and the
animation drawn (``render.replay.make_replay``, at its defaults: at most
``MAX_FRAMES`` frames, under ``MAX_BYTES``). Printed: moves, frames in the GIF (fewer
than positions when frames were dropped), the scale they were drawn at, the GIF's
size in pixels and bytes, the encodings it took, and the time to replay the log and
to draw (CPU time of this process, and wall time).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from typing import Any

from bot.workers.render_jobs import GameLog
from engine.ai import choose_move
from engine.core import derive_seed, game_ids, get_game
from render import art_for
from render.replay import MAX_BYTES, MAX_FRAMES, Replay, make_replay


@dataclass(frozen=True)
class LongGame:
    """How to get a long game of one kind: seats, options, the AI level of every seat
    and how many deals to try (the longest is kept)."""

    players: int
    options: dict[str, Any]
    level: str
    deals: int
    note: str


#: ``easy`` plays at random: Flaming Pyramids' random games run longest (tiles go back
#: to the piles), up to the self-play turn cap. The others play their heuristic.
LONG_GAMES = {
    "flaming-pyramids": LongGame(2, {"turn_limit": 2000}, "easy", 40, "2 players, easy AIs, longest of 40"),
    "continuous-pyramid": LongGame(1, {}, "normal", 10, "solo, normal AI, longest of 10"),
    "pyrinoes": LongGame(2, {"target": 300}, "normal", 3, "2 players to 300, normal AIs, longest of 3"),
    "pyramido": LongGame(4, {"mode": "competitive", "rounds": 5}, "normal", 3,
                         "4 players, 5 rounds, normal AIs, longest of 3"),
}


def self_play(kind: str, spec: LongGame, seed: int) -> list[tuple[int, str]]:
    """The moves of one game played by AIs of ``spec.level`` from deal ``seed``."""
    game = get_game(kind)
    state = game.setup(spec.players, spec.options, seed)
    moves: list[tuple[int, str]] = []
    while (seat := game.to_act(state)) is not None:  # a stuck solitaire's undo is left alone
        move = choose_move(game, state, seat, spec.level, derive_seed(seed, f"bench-replay-{len(moves)}"))
        state, _ = game.play(state, seat, move)
        moves.append((seat, move))
    return moves


def long_game(kind: str) -> GameLog:
    """The longest of ``LONG_GAMES[kind].deals`` self-played games, as the worker gets it."""
    spec = LONG_GAMES[kind]
    seed, moves = max(((s, self_play(kind, spec, s)) for s in range(spec.deals)), key=lambda p: len(p[1]))
    return GameLog(game=get_game(kind), players=spec.players, options=spec.options, seed=seed, moves=tuple(moves),
                   names=tuple(f"Player {i + 1}" for i in range(spec.players)), number=1)


@dataclass(frozen=True)
class Figures:
    kind: str
    moves: int
    replay: Replay
    positions_s: float
    draw_cpu_s: float
    draw_wall_s: float


def measure(kind: str) -> Figures:
    log = long_game(kind)
    c0 = time.process_time()
    views, events = log.positions()
    c1, w1 = time.process_time(), time.perf_counter()
    replay = make_replay(views, art=art_for(kind), events=events)
    return Figures(kind, len(log.moves), replay, c1 - c0, time.process_time() - c1, time.perf_counter() - w1)


def report(kinds: list[str]) -> None:
    print(f"Replays of long self-played games (at most {MAX_FRAMES} frames, under {MAX_BYTES / 2**20:.0f} MiB):")
    print(f"{'game':20} {'moves':>6} {'frames':>6} {'scale':>5} {'px':>9} {'MiB':>6} {'tries':>5} {'log s':>6} "
          f"{'draw s':>6} {'wall s':>6}  dropped")
    for kind in kinds:
        f = measure(kind)
        r = f.replay
        print(f"{kind:20} {f.moves:6} {r.frames:6} {r.scale:5.2f} {f'{r.size[0]}x{r.size[1]}':>9} "
              f"{len(r.data) / 2**20:6.2f} {r.attempts:5} {f.positions_s:6.2f} {f.draw_cpu_s:6.1f} "
              f"{f.draw_wall_s:6.1f}  {'yes' if r.dropped else 'no'}")
    for kind in kinds:
        print(f"  {kind}: {LONG_GAMES[kind].note}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.replays", description=__doc__)
    parser.add_argument("games", nargs="*", help=f"only these games (default: all of {', '.join(LONG_GAMES)})")
    args = parser.parse_args(argv)
    unknown = [g for g in args.games if g not in LONG_GAMES]
    if unknown:
        parser.error(f"unknown game(s): {', '.join(unknown)}")
    report(args.games or [k for k in game_ids() if k in LONG_GAMES])


if __name__ == "__main__":
    main()
