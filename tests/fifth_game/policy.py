"""Pebble Pyramid's AI policy, found through the rule book's ``policy_module`` (so the
AI extension point, too, needs no table in ``engine/``).

Spend a token on a stone of its colour when one is free, preferring the stone that
leaves a follow-up for the tokens still in hand and frees the fewest stones for the
opponent; otherwise discard the colour with the fewest stones left in the pyramid;
spend a token on a stone of another colour (losing it) last. Unfinished games are
judged by the lead in stones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine.ai.policy import Policy
from engine.core import Game, Rng
from tests.fifth_game.state import PebbleState, without_one

#: A token left in hand that fits a free stone after the move is worth this; a stone
#: freed for the opponent costs this much.
FOLLOW_UP = 0.5
FREED_COST = 0.4


class PebblePolicy(Policy):
    rollout_depth = 30

    def ranked(self, state: Any, seat: int, rng: Rng) -> list[str]:
        assert isinstance(state, PebbleState)
        moves = self.game.legal_moves(state)
        return sorted(moves, key=lambda move: -_score(state, seat, move))

    def evaluate(self, state: Any, players: int) -> Sequence[float]:
        assert isinstance(state, PebbleState)
        lead = (len(state.taken[0]) - len(state.taken[1])) / 20
        return [0.5 + lead, 0.5 - lead]


def _score(state: PebbleState, seat: int, move: str) -> float:
    words = move.split()
    if words[0] == "pass":
        left = [colour for _, colour in state.stones]
        return -1.0 - 0.1 * left.count(words[1]) if len(words) == 2 else 0.0
    colour, cell = words[1], words[2]
    before = set(state.free_cells())
    after = replace(state, stones=tuple(p for p in state.stones if p[0] != cell))
    hand = without_one(state.hands[seat], colour)
    free = after.free_cells()
    follow_ups = sum(1 for c in free if after.stone_at(c) in hand)
    freed = len(set(free) - before)
    kept = 2.0 if state.stone_at(cell) == colour else -2.0
    return kept + FOLLOW_UP * follow_ups - FREED_COST * freed


def make_policy(game: Game[Any]) -> Policy:
    return PebblePolicy(game)
