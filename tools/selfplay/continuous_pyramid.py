"""``python -m tools.selfplay continuous-pyramid --games N --seed S [--player hint|random]
[--edition 1|2] [--check]``: N deals (deal numbers derived from S) are played and one
JSON summary line is printed. The hint player plays well; the random player (a
uniformly random play each move, giving up when stuck) is fast enough for 10,000-game
runs. ``--check`` verifies after every move that all 144 tiles are still in play and
that the position survives its JSON round trip. Timing is measured here, outside the
rules, for the moves/s figure."""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass

from engine.continuous_pyramid import rules
from engine.continuous_pyramid.game import ContinuousPyramid
from engine.continuous_pyramid.hint import hint
from engine.continuous_pyramid.state import CPState
from engine.core.rng import Rng, derive_seed
from tools.selfplay.failures import Failures


@dataclass
class Tally:
    games: int = 0
    won: int = 0
    tiles: int = 0
    moves: int = 0


def _check(game: ContinuousPyramid, state: CPState, deal: int) -> None:
    if rules.tiles_in_play(state) != rules.TOTAL_TILES:
        raise RuntimeError(f"deal {deal}: {rules.tiles_in_play(state)} tiles in play, not {rules.TOTAL_TILES}")
    if game.from_position(game.to_position(state)) != state:
        raise RuntimeError(f"deal {deal}: the position does not survive its JSON round trip")


def play_one(game: ContinuousPyramid, deal: int, options: dict[str, object], player: str = "hint",
             check: bool = False) -> tuple[bool, int, int]:
    """One game; returns (won, tiles placed, moves made)."""
    state = game.setup(1, options, deal)
    rng = Rng(derive_seed(deal, "continuous-pyramid/selfplay/random"))
    moves = 0
    while game.waiting_for(state) is not None:
        if game.pending(state) is not None:  # stuck with undo available: the player gives up
            state, _ = game.play(state, 0, "resign")
            break
        if player == "random":
            plays = [m for m in game.legal_moves(state) if m != "undo"]
            move: str | None = rng.choice(plays) if plays else None
        else:
            move = hint(state)
        if move is None:
            raise RuntimeError(f"deal {deal}: no play although the game is not over")
        state, _ = game.play(state, 0, move)
        moves += 1
        if check:
            _check(game, state, deal)
    result = game.result(state)
    if result is None:
        raise RuntimeError(f"deal {deal}: the game ended without a result")
    return bool(result.winners), state.placed, moves


def deal_numbers(seed: int, games: int) -> list[int]:
    """Deal numbers for a run: a fixed function of the seed, small enough to type."""
    base = derive_seed(seed, "continuous-pyramid/selfplay") % 1_000_000_000
    return [base + i for i in range(games)]


def run(games: int, seed: int, winnable_only: bool = False, player: str = "hint", edition: int = 2,
        check: bool = False) -> dict[str, object]:
    game = ContinuousPyramid()
    tally = Tally()
    options: dict[str, object] = {"undo": True, "winnable_only": winnable_only, "edition": edition}
    start = time.perf_counter()
    failures = Failures()
    for deal in deal_numbers(seed, games):
        tally.games += 1
        outcome = failures.attempt(f"deal {deal}", play_one, game, deal, options, player, check)
        if outcome is None:
            continue
        won, tiles, moves = outcome
        tally.won += won
        tally.tiles += tiles
        tally.moves += moves
    elapsed = time.perf_counter() - start
    finished = tally.games - failures.count
    return {
        "game": ContinuousPyramid.id,
        "games": tally.games,
        "won": tally.won,
        "win_rate": round(tally.won / tally.games, 4) if tally.games else 0.0,
        "mean_tiles_placed": round(tally.tiles / finished, 2) if finished else 0.0,
        "errors": failures.count,
        "moves": tally.moves,
        "moves_per_s": round(tally.moves / elapsed, 1) if elapsed > 0 else 0.0,
        "seconds": round(elapsed, 2),
        "winnable_only": winnable_only,
        "player": player,
        "edition": edition,
    }


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.selfplay continuous-pyramid")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--winnable-only", action="store_true", help="deal only deals the solver proves winnable")
    parser.add_argument("--player", choices=("hint", "random"), default="hint")
    parser.add_argument("--edition", type=int, choices=(1, 2), default=2, help="rules edition (CP-2)")
    parser.add_argument("--check", action="store_true", help="check invariants after every move")
    args = parser.parse_args(list(argv))
    summary = run(args.games, args.seed, args.winnable_only, args.player, args.edition, args.check)
    print(json.dumps(summary))
    return 1 if summary["errors"] else 0
