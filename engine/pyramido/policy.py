"""Pyramido (solo, co-op and competitive): the engine's own heuristic player is
``normal``; ``hard`` searches over it.

``engine.pyramido.heuristic.choose`` already scores each placement from public facts (the
stones still to come by colour, cells it would leave unfillable, squares it opens),
so ``normal`` plays it and ``hard`` puts its choice first. Rollouts follow it for a
few plies (it costs about a millisecond) and then judge the pyramid: how much of it
stands, and whether some open cell can no longer be filled by any stone still to come
(a lost game in solo/co-op).

Only the bag's order is hidden. Co-op and solo hands are open (PD-4, second edition),
so the AI plays with every teammate's real hand: neither :meth:`PyramidoPolicy.canonical`
nor the engine's ``determinize`` re-deals them. ``canonical`` sorts the bag before
``determinize`` shuffles it; the engine's ``determinize`` sorts it itself, so this only
keeps the guarantee should that ever change.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from engine.ai.policy import Policy
from engine.core import Game, Rng
from engine.pyramido import heuristic
from engine.pyramido.geometry import colours_for, missing, open_cells
from engine.pyramido.state import State
from engine.pyramido.stones import HAND_SIZE, pyramid_total

#: Stones-missing difference that moves the competitive evaluation from 50% to ~73%.
EVAL_SCALE = 2.0


def _verb_order(move: str) -> int:
    """Fallback order after the engine heuristic's choice: build upwards before
    spreading the base, then the turn-enders."""
    verb = move.split()[0]
    if verb in ("place", "take", "build"):
        return 0 if not move.split()[-1].startswith("1:") else 1
    return {"reserve": 2, "end": 3, "discard": 4, "pass": 5}.get(verb, 6)


def stuck(state: State, seat: int) -> bool:
    """Too few stones are left for the pyramid, or some open upper cell accepts only
    colours that are all gone (placed or out)."""
    pyramid = state.pyramids[0 if not state.competitive else seat]
    supply = heuristic.supply_for(state, seat)
    if sum(max(0, n) for n in supply.values()) < missing(pyramid, state.size):
        return True
    for cell in open_cells(pyramid, state.size):
        if cell[0] > 1 and not any(supply[c] > 0 for c in colours_for(pyramid, cell)):
            return True
    return False


class PyramidoPolicy(Policy):
    rollout_depth = 8
    exploration = 0.5
    width = 6
    root_width = 8

    def canonical(self, state: Any, seat: int) -> Any:
        """The only hidden stones, the bag's, put in sorted order (and the deal Rng
        cleared); every hand stays as it is, since all of them are open."""
        assert isinstance(state, State)
        return state.with_(bag=tuple(sorted(state.bag)), rng=0)

    def choices(self, state: Any, moves: list[str]) -> list[str]:
        """Never ``end`` a solo/co-op turn that placed nothing with a full hand while the
        bag still holds stones: it changes nothing, and a search that likes it would
        pass for ever (no rule ends such a game)."""
        assert isinstance(state, State)
        if state.competitive or state.placed or not state.bag or "end" not in moves or len(moves) == 1:
            return moves
        if len(state.hands[state.turn]) < HAND_SIZE[state.mode]:
            return moves
        return [m for m in moves if m != "end"]

    def ranked(self, state: Any, seat: int, rng: Rng) -> list[str]:
        assert isinstance(state, State)
        moves = self.choices(state, self.game.legal_moves(state))
        if len(moves) <= 1:
            return moves
        first = heuristic.choose(state)
        rest = sorted((m for m in moves if m != first), key=_verb_order)
        return [first, *rest] if first in moves else rest

    def rollout_move(self, state: Any, rng: Rng) -> str:
        assert isinstance(state, State)
        move = heuristic.choose(state)
        if move == "end" and "end" not in self.choices(state, ["end", "place"]):
            return self.ranked(state, state.turn, rng)[0]
        return move

    def evaluate(self, state: Any, players: int) -> Sequence[float]:
        assert isinstance(state, State)
        total = pyramid_total(state.size)
        if state.competitive:
            left = [missing(state.pyramids[p], state.size) for p in range(players)]
            out = []
            for p in range(players):
                rival = min(left[q] for q in range(players) if q != p)
                out.append(1.0 / (1.0 + math.exp((left[p] - rival) / EVAL_SCALE)))
            return out
        built = total - missing(state.pyramids[0], state.size)
        value = 0.8 * built / total
        if stuck(state, state.turn):
            value *= 0.3
        return [value] * players


def make_policy(game: Game[Any]) -> Policy:
    return PyramidoPolicy(game)
