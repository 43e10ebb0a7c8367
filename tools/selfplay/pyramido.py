"""``python -m tools.selfplay pyramido --mode solo|coop|competitive [--size 4|5]
[--players N] [--rounds R] [--games N] [--seed S] [--player heuristic|random] [--check]``

Plays whole games through the public ``play`` entry point and prints one JSON line.
Any exception (or a game that never ends) counts as an error; the first traceback
goes to stderr. Without ``--players``, coop and competitive games cycle through
2, 3 and 4 players.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from engine.core import Game
from engine.core.rng import Rng, derive_seed
from engine.pyramido import heuristic
from engine.pyramido.audit import problems
from engine.pyramido.game import GAME
from engine.pyramido.geometry import missing
from engine.pyramido.state import State
from tools.playout import Choose, any_move, steps
from tools.selfplay.failures import Failures

MOVE_CAP = 20000


class SelfPlayError(RuntimeError):
    pass


def play_game(options: dict[str, Any], players: int, seed: int, player: str, check: bool) -> State:
    state = GAME.setup(players, options, seed)
    choose = any_move if player == "random" else _heuristic
    rng = Rng(derive_seed(seed, "pyramido-selfplay"))
    for step in steps(GAME, state, rng, MOVE_CAP, _legal_only(choose) if check else choose):
        state = step.state
        if check:
            found = problems(state)
            if found:
                raise SelfPlayError("; ".join(found))
    if GAME.to_act(state) is not None:
        raise SelfPlayError(f"game did not end within {MOVE_CAP} moves")
    return state


def _heuristic(game: Game[Any], state: State, rng: Rng) -> str:
    return heuristic.choose(state)


def _legal_only(choose: Choose) -> Choose:
    """``choose``, refusing a move the game does not list as legal."""

    def checked(game: Game[Any], state: Any, rng: Rng) -> str:
        move = choose(game, state, rng)
        legal = game.legal_moves(state)
        if move not in legal:
            raise SelfPlayError(f"{move!r} is not among the legal moves {legal}")
        return move

    return checked


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.selfplay pyramido")
    parser.add_argument("--mode", choices=("solo", "coop", "competitive"), default="solo")
    parser.add_argument("--size", type=int, choices=(4, 5), default=None)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--player", choices=("heuristic", "random"), default="heuristic")
    parser.add_argument("--check", action="store_true", help="verify legality and invariants after every move")
    args = parser.parse_args(list(argv))
    options: dict[str, Any] = {"mode": args.mode}
    if args.size is not None:
        options["size"] = args.size
    if args.rounds != 1:
        options["rounds"] = args.rounds
    started = time.perf_counter()
    failures = Failures()
    wins = 0
    moves = 0
    gaps = 0
    by_players: dict[int, list[int]] = {}
    seats: Counter[int] = Counter()
    completed = 0
    for index in range(args.games):
        players = args.players or (1 if args.mode == "solo" else 2 + index % 3)
        seed = derive_seed(args.seed, f"game-{index}")
        state = failures.attempt(f"game {index} (seed {seed}, {players} players)",
                                 play_game, options, players, seed, args.player, args.check)
        if state is None:
            continue
        result = state.result
        assert result is not None
        moves += state.moves
        tally = by_players.setdefault(players, [0, 0])
        tally[1] += 1
        if state.competitive:
            seats.update(result.winners)
            if any(missing(p, state.size) == 0 for p in state.pyramids):
                completed += 1
                tally[0] += 1
        else:
            gaps += missing(state.pyramids[0], state.size)
            if result.winners:
                wins += 1
                tally[0] += 1
    played = args.games - failures.count
    summary: dict[str, Any] = {
        "game": "pyramido",
        "mode": args.mode,
        "size": args.size or (5 if args.mode != "competitive" else "by players"),
        "rounds": args.rounds,
        "player": args.player,
        "games": args.games,
        "errors": failures.count,
        "avg_moves": round(moves / played, 1) if played else None,
        "seconds": round(time.perf_counter() - started, 1),
    }
    if args.mode == "competitive":
        summary["completed_rate"] = round(completed / played, 4) if played else None
        summary["completed_by_players"] = {str(k): round(v[0] / v[1], 4) for k, v in sorted(by_players.items())}
        summary["wins_by_seat"] = {str(k): v for k, v in sorted(seats.items())}
    else:
        summary["wins"] = wins
        summary["win_rate"] = round(wins / played, 4) if played else None
        summary["win_rate_by_players"] = {str(k): round(v[0] / v[1], 4) for k, v in sorted(by_players.items())}
        summary["avg_missing"] = round(gaps / played, 2) if played else None
    print(json.dumps(summary))
    return 1 if failures.count else 0
