"""Continuous Pyramid (solo): the engine's own ``hint`` is the heuristic.

``hint`` already looks ahead from public information only (it samples stock orders
from the sorted unseen tiles with a public seed), so ``normal`` and ``hard`` both play
its ranking; a tree search over a one-player game with ~10 plays a move adds little
to it. An AI never takes a play back: when stuck it resigns.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.ai.policy import Policy
from engine.continuous_pyramid.hint import ranked_plays
from engine.continuous_pyramid.state import CPState
from engine.core import Game, Rng


class ContinuousPyramidPolicy(Policy):
    searches = False

    def canonical(self, state: Any, seat: int) -> Any:
        """The stock sorted: its order is hidden, and ``determinize`` shuffles what it is given."""
        assert isinstance(state, CPState)
        return replace(state, stock=tuple(sorted(state.stock)), plays_cache=None)

    def choices(self, state: Any, moves: list[str]) -> list[str]:
        plays = [m for m in moves if m not in ("undo", "resign")]
        if plays:
            return plays
        return ["resign"] if "resign" in moves else moves

    def ranked(self, state: Any, seat: int, rng: Rng) -> list[str]:
        assert isinstance(state, CPState)
        ranked = [move for _score, move in ranked_plays(state)]
        return ranked or self.choices(state, self.game.legal_moves(state))


def make_policy(game: Game[Any]) -> Policy:
    return ContinuousPyramidPolicy(game)
