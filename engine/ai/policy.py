"""What the search needs to know about one game, behind one small interface.

The generic pieces (``choose_move``, the ISMCTS in :mod:`engine.ai.ismcts`) only talk
to a :class:`Policy`; each game's ``policy`` module (named by the game's
``policy_module``, e.g. ``engine.flaming_pyramids.policy``) subclasses it with its
heuristic ranking (the ``normal`` level), a cheap rollout move, and an evaluation of
unfinished positions. Every method works on a *determinized* state: the AI never holds
the real one.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module
from typing import Any

from engine.core import Game, Result, Rng


class Policy:
    """Defaults that work for any game (uniform rollouts, win/loss rewards); games
    override what they can do better."""

    #: Plies a rollout plays before :meth:`evaluate` judges the position.
    rollout_depth: int = 40
    #: UCB exploration constant (rewards lie in [0, 1]).
    exploration: float = 0.7
    #: At most this many candidate moves per tree node (best-ranked first); None: all.
    width: int | None = None
    #: At most this many root moves (best-ranked first); None: all.
    root_width: int | None = None
    #: False for games whose ``hard`` is the heuristic itself (no search pays off).
    searches: bool = True

    def __init__(self, game: Game[Any]) -> None:
        self.game = game

    def advance(self, state: Any, move: str) -> Any:
        """The state after ``move`` by the seat to act, without narration if the engine
        offers a quiet path."""
        seat = self.game.to_act(state)
        assert seat is not None
        return self.game.apply(state, seat, move)[0]

    def canonical(self, state: Any, seat: int) -> Any:
        """``state`` with the parts hidden from ``seat`` put in a fixed order, for engines
        whose ``determinize`` would otherwise let their real order through."""
        return state

    def choices(self, state: Any, moves: list[str]) -> list[str]:
        """The legal moves an AI considers at all (e.g. never ``undo``)."""
        return moves

    def ranked(self, state: Any, seat: int, rng: Rng) -> list[str]:
        """Every legal move for ``seat`` (the seat to act), best first: ``normal`` plays
        the first, ``hard`` expands in this order."""
        return self.game.legal_moves(state)

    def candidates(self, state: Any, rng: Rng) -> list[str]:
        """The moves a search node below the root considers, best first."""
        seat = self.game.to_act(state)
        assert seat is not None
        moves = self.ranked(state, seat, rng)
        return moves if self.width is None else moves[: self.width]

    def rollout_move(self, state: Any, rng: Rng) -> str:
        moves = self.game.legal_moves(state)
        return moves[rng.below(len(moves))]

    def boundary(self, before: Any, after: Any) -> bool:
        """Whether a rollout should stop after this step (e.g. a round ended) and evaluate."""
        return False

    def evaluate(self, state: Any, players: int) -> Sequence[float]:
        """Each seat's chance of winning from an unfinished position, in [0, 1]."""
        return [0.5] * players

    def reward(self, result: Result, players: int) -> Sequence[float]:
        """Each seat's reward for a finished game: winners 1, everyone else 0."""
        won = set(result.winners)
        return [1.0 if p in won else 0.0 for p in range(players)]

    def players(self, state: Any) -> int:
        return self.game.players_in(state)


_CACHE: dict[tuple[str, int], Policy] = {}


def policy_for(game: Game[Any]) -> Policy:
    """The game's policy: ``make_policy(game)`` of its ``policy_module``, imported only
    when an AI first plays it, or the generic :class:`Policy` for a game without one
    (built once per rule book; policies keep only read-only tables)."""
    key = (game.id, id(game))
    policy = _CACHE.get(key)
    if policy is None:
        module_name = game.policy_module
        policy = Policy(game) if module_name is None else import_module(module_name).make_policy(game)
        assert isinstance(policy, Policy)
        _CACHE[key] = policy
    return policy
