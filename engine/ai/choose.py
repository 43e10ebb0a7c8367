"""Choosing a move for a seat at a given level.

``easy`` plays a uniformly random legal move; ``normal`` the first move of the game's
one-move-ahead heuristic ranking; ``hard`` runs information-set MCTS
(:mod:`engine.ai.ismcts`) with a fresh determinization per iteration.

Every level starts from ``game.determinize(state, seat, rng)`` rather than ``state``:
everything hidden from the seat is re-dealt from what it could be, so the true hidden
hands never reach a decision. Engines make ``determinize`` canonical (its output
depends only on the seat's view and the rng), so two states that differ only in what
the seat cannot see give the same move for the same seed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ParamSpec

from engine.ai.ismcts import Budget, SearchStats, search
from engine.ai.policy import Policy, policy_for
from engine.core import Game, Rng, derive_seed

LEVELS = ("easy", "normal", "hard")
Clock = Callable[[], float]
P = ParamSpec("P")

#: ``hard``'s thinking time per move when a clock is given (the bot and the terminal).
HARD_SECONDS = 1.5
#: ``hard``'s iteration cap: the whole budget without a clock (tests, replays), and a
#: ceiling with one, so easy decisions end early.
HARD_ITERATIONS = 4000


def decide(
    game: Game[Any],
    state: Any,
    seat: int,
    level: str,
    seed: int,
    clock: Clock | None = None,
    *,
    budget_seconds: float | None = None,
    iterations: int | None = None,
) -> tuple[str, SearchStats | None]:
    """A legal move for ``seat``, which must be the seat the game waits for, and the
    search statistics of a ``hard`` decision (for benchmarks; :func:`choose_move` gives
    the move alone).

    ``budget_seconds`` (default :data:`HARD_SECONDS`) only applies with a ``clock``;
    ``iterations`` (default :data:`HARD_ITERATIONS`) bounds ``hard``'s search either way."""
    if level not in LEVELS:
        raise ValueError(f"Unknown AI level {level!r}; the levels are {', '.join(LEVELS)}.")
    # ``waiting_for``, not ``to_act``: a finished game may still leave its player a
    # take-back (a stuck Continuous Pyramid), which an AI answers too.
    actor = game.waiting_for(state)
    if actor is None:
        raise ValueError("The AI was asked to move in a finished game.")
    if actor != seat:
        raise ValueError(f"The AI for seat {seat + 1} was asked to move, but seat {actor + 1} is to act.")
    started = clock() if clock is not None else 0.0
    rng = Rng(seed)
    policy = policy_for(game)
    known = policy.canonical(state, seat)
    seen = game.determinize(known, seat, rng)
    moves = policy.choices(seen, game.legal_moves(seen))
    if not moves:
        raise ValueError("The AI was asked to move when it has no legal move.")
    if len(moves) == 1:
        return moves[0], None
    if level == "easy":
        return moves[rng.below(len(moves))], None
    ranked = policy.ranked(seen, seat, rng)
    if level == "normal" or not policy.searches:
        return ranked[0], None
    seconds = None
    if clock is not None:
        # The budget covers the whole decision, ranking included.
        seconds = (HARD_SECONDS if budget_seconds is None else budget_seconds) - (clock() - started)
    return _hard(policy, game, known, seat, ranked, seed, clock, seconds, iterations)


def _move_only(decide: Callable[P, tuple[str, SearchStats | None]]) -> Callable[P, str]:
    """``decide`` without its statistics, taking the same arguments."""

    def choose_move(*args: P.args, **kwargs: P.kwargs) -> str:
        move, _ = decide(*args, **kwargs)
        return move

    choose_move.__qualname__ = "choose_move"  # importable, and so picklable, by that name
    return choose_move


#: :func:`decide`'s move alone, which is all a player needs: the AI's entry point.
choose_move = _move_only(decide)


def _hard(policy: Policy, game: Game[Any], known: Any, seat: int, ranked: list[str], seed: int,
          clock: Clock | None, seconds: float | None, iterations: int | None) -> tuple[str, SearchStats]:
    def sample(rng: Rng) -> Any:
        return game.determinize(known, seat, rng)

    budget = Budget(
        iterations=HARD_ITERATIONS if iterations is None else iterations,
        seconds=seconds,
        clock=clock,
    )
    if policy.root_width is not None:
        ranked = ranked[: policy.root_width]
    move, stats = search(policy, sample, seat, ranked, Rng(derive_seed(seed, "ismcts")), budget)
    return move, stats
