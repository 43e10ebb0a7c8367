"""Flaming Pyramids: the ``normal`` heuristic, and rollouts/evaluation for ``hard``.

Mayhem always costs the responsible player (the mover), so the whole game is: place a
tile without a collapse, fire or explosion (net one tile gone), and leave the next
player open spaces their hidden hand is unlikely to fill safely. ``normal`` looks one
move ahead with the engine itself (``GAME.advance``, falls answered greedily), then
prefers moves that leave the next player no safe tile and that unload tiles which are
hard to place later (heavy stone, incendiaries). Rollouts use a table-driven safety
test instead of the engine, which is ~20× cheaper.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from engine.ai.policy import Policy
from engine.core import Game, Rng
from engine.flaming_pyramids.game import FlamingPyramids
from engine.flaming_pyramids.geometry import Cell, Pyramid, open_spaces, parse_cell, touching
from engine.flaming_pyramids.state import State
from engine.flaming_pyramids.tiles import COLOUR_MASK, IGNITABLE, INCENDIARY, TILES, WEIGHT
from engine.flaming_pyramids.view import hidden_tiles

FALLS = ("fall left", "fall right")
#: Weight of "the next player probably has no safe tile" against one tile of our own.
BLOCK_WEIGHT = 1.6
#: Weight of unloading a tile that is hard to place, against one tile of our own.
DIFFICULTY_WEIGHT = 0.35
#: Tile-count difference that moves the evaluation from 50% to about 73%.
EVAL_SCALE = 2.0


def rests(t: str, a: str, b: str) -> bool:
    """FP-4 for a tile on two supports."""
    wt, wa, wb = WEIGHT[t], WEIGHT[a], WEIGHT[b]
    if wt > wa + wb:
        return False
    return bool(COLOUR_MASK[t] & (COLOUR_MASK[a] | COLOUR_MASK[b])) or wt in (wa, wb)


def quick_cost(pyramid: Pyramid, t: str, cell: Cell, curse: bool) -> int:
    """Roughly how many tiles placing ``t`` at an open ``cell`` sends under the mover's
    pile (0: a safe placement; negative: a curse that hits the previous player)."""
    r, c = cell
    get = pyramid.get
    if r > 0:
        a = get((r - 1, c))
        b = get((r - 1, c + 1))
        if a is None or b is None:
            return 2
        if not rests(t, a, b):
            return 2
    if t in INCENDIARY:
        ignitable = IGNITABLE[t]
        cost = 0
        for n in touching(cell):
            u = get(n)
            if u is None:
                continue
            if u in INCENDIARY:
                return 3
            if u in ignitable:
                cost += 1
        if cost:
            return cost
    else:
        for n in touching(cell):
            u = get(n)
            if u is not None and u in INCENDIARY and t in IGNITABLE[u]:
                return 2
    if curse and r > 0:
        w = WEIGHT[t]
        a = pyramid[(r - 1, c)]
        b = pyramid[(r - 1, c + 1)]
        if WEIGHT[a] == w and WEIGHT[b] == w:
            return -2
    return 0


def _difficulties() -> dict[str, float]:
    """How often a tile cannot rest safely on two random supports: heavy stone and the
    incendiaries are hard to place, light straw is easy. Unloading hard tiles while it
    is safe is worth a little."""
    regular = [t.code for t in TILES if t.code not in INCENDIARY]
    out: dict[str, float] = {}
    for tile in TILES:
        t = tile.code
        bad = 0
        total = 0
        for a in regular:
            for b in regular:
                if a in (t, b) or b == t:
                    continue
                total += 1
                if not rests(t, a, b) or (t in INCENDIARY and (a in IGNITABLE[t] or b in IGNITABLE[t])):
                    bad += 1
        out[t] = bad / total
    return out


DIFFICULTY: dict[str, float] = _difficulties()


def tiles_left(state: State, seat: int) -> int:
    return len(state.hands[seat]) + len(state.piles[seat])


def block_chance(state: State, unseen: Sequence[str], hand_size: int) -> float:
    """The chance that a hand of ``hand_size`` tiles drawn from ``unseen`` has no safe
    placement in ``state``'s open spaces (tiles treated as drawn independently)."""
    if not unseen or hand_size <= 0:
        return 0.0
    spaces = open_spaces(state.pyramid)
    pyramid = state.pyramid
    curse = state.curse
    safe = 0
    for t in unseen:
        for s in spaces:
            if quick_cost(pyramid, t, s, curse) <= 0:
                safe += 1
                break
    p_unsafe = 1.0 - safe / len(unseen)
    return p_unsafe**hand_size


class FlamingPyramidsPolicy(Policy):
    rollout_depth = 10
    exploration = 0.6

    def __init__(self, game: Game[Any]) -> None:
        super().__init__(game)
        assert isinstance(game, FlamingPyramids)
        self.fp = game

    def advance(self, state: Any, move: str) -> Any:
        return self.fp.advance(state, move)

    # --- normal ----------------------------------------------------------------------
    def settle(self, state: State, seat: int, depth: int = 6) -> State:
        """Answer ``seat``'s own pending falls the way that keeps most tiles off its pile."""
        if state.pending is None or state.pending.player != seat or depth == 0:
            return state
        options = [self.settle(self.fp.advance(state, f), seat, depth - 1) for f in FALLS]
        return min(options, key=lambda s: (tiles_left(s, seat) if s.result is None or seat not in s.result.winners
                                           else -1))

    def ranked(self, state: Any, seat: int, rng: Rng) -> list[str]:
        assert isinstance(state, State)
        moves = self.fp.legal_moves(state)
        if len(moves) <= 1:
            return moves
        before = tiles_left(state, seat)
        unseen = hidden_tiles(state, seat)
        # A stable sort: equal scores keep the legal moves' order.
        return sorted(moves, key=lambda move: self._score(state, seat, move, before, unseen), reverse=True)

    def _score(self, state: State, seat: int, move: str, before: int, unseen: list[str]) -> float:
        """Tiles the move (and ``seat``'s own falls after it) takes off the seat's hand and
        pile, plus the chance the next player is blocked and a bonus for shedding a tile
        that is hard to place later; a win beats everything."""
        after = self.settle(self.fp.advance(state, move), seat)
        if after.result is not None and seat in after.result.winners:
            return 1e9
        score = float(before - tiles_left(after, seat))
        if after.pending is None and after.result is None and after.turn != seat:
            score += BLOCK_WEIGHT * block_chance(after, unseen, len(after.hands[after.turn]))
        if move.startswith("play "):
            score += DIFFICULTY_WEIGHT * DIFFICULTY[move.split()[1]]
        return score

    # --- hard ------------------------------------------------------------------------
    def candidates(self, state: Any, rng: Rng) -> list[str]:
        """Below the root: the cheap safety test instead of the engine (ordered safe
        placements first, hard-to-place tiles first among equals)."""
        assert isinstance(state, State)
        moves = self.fp.legal_moves(state)
        if state.pending is not None or len(moves) <= 1:
            return moves
        keyed = [(self._quick(state, m), -DIFFICULTY[m.split()[1]], i, m) for i, m in enumerate(moves)]
        keyed.sort()
        return [m for *_k, m in keyed]

    def _quick(self, state: State, move: str) -> int:
        _verb, tile, where = move.split()
        cell = parse_cell(where)
        assert cell is not None
        return quick_cost(state.pyramid, tile, cell, state.curse)

    def rollout_move(self, state: Any, rng: Rng) -> str:
        assert isinstance(state, State)
        if state.pending is not None:
            seat = state.pending.player
            return min(FALLS, key=lambda f: tiles_left(self.fp.advance(state, f), seat))
        hand = state.hands[state.turn]
        spaces = open_spaces(state.pyramid)
        pyramid = state.pyramid
        curse = state.curse
        best: list[tuple[str, Cell]] = []
        best_cost = 99
        for t in hand:
            for s in spaces:
                cost = quick_cost(pyramid, t, s, curse)
                if cost < best_cost:
                    best_cost = cost
                    best = [(t, s)]
                elif cost == best_cost:
                    best.append((t, s))
        t, (r, c) = best[rng.below(len(best))]
        return f"play {t} {r},{c}"

    def evaluate(self, state: Any, players: int) -> Sequence[float]:
        assert isinstance(state, State)
        left = [tiles_left(state, p) for p in range(players)]
        out = []
        for p in range(players):
            rival = min(left[q] for q in range(players) if q != p)
            out.append(1.0 / (1.0 + math.exp((left[p] - rival) / EVAL_SCALE)))
        return out


def make_policy(game: Game[Any]) -> Policy:
    return FlamingPyramidsPolicy(game)
