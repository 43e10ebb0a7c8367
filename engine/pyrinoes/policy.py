"""Pyrinoes: the ``normal`` heuristic, and rollouts/evaluation for ``hard``.

A round is won by holding the lower total when it ends, so every turn should take as
many pips off the hand as it can: play the heaviest piece that fits, keep a follow-up
for the next turn, and build (which takes no pips off by itself) mainly when the hand
has nothing heavy to play, choosing big pyrinoes whose ends fit the line. A move that
ends the round is judged by its expected points, counting the opponent's hidden
dominoes at the average weight of the dominoes the seat cannot see.

Rollouts stop at the end of the round (or after a few plies) and the evaluation turns
the expected score difference into a chance of winning the match.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from engine.ai.policy import Policy
from engine.core import Game, Rng
from engine.pyrinoes.moves import available_builds
from engine.pyrinoes.notation import build_text, play_text
from engine.pyrinoes.pieces import DOMINOES, PYRINO_SPELLINGS, PYRINOES
from engine.pyrinoes.rules import BONUS, green_played, hand_total, round_end
from engine.pyrinoes.state import PyrinoesState, with_seat

#: Build value per pip of the pyrino, and the extra when one of its ends fits the line now.
BUILD_PER_PIP = 0.45
BUILD_FITS = 1.5
#: A piece left in hand that fits an open end after the move (a follow-up) is worth this.
FOLLOW_UP = 0.8
#: Share of the expected round margin a round-ending play is credited with for locking it in.
LOCK_IN = 0.3
#: Points of expected match lead that move the evaluation from 50% to about 73%.
EVAL_SCALE = 12.0


def _piece(code: str) -> tuple[tuple[int, int], int, int]:
    """(spots, pips, green pips) of a domino or pyrino code as the move names it."""
    d = DOMINOES.get(code)
    if d is not None:
        return (d.a, d.b), d.weight, 0
    p = PYRINO_SPELLINGS[code][0]
    return p.spots, p.pips, p.green_size


def unseen_average(state: PyrinoesState, seat: int) -> float:
    """Average weight of the dominoes ``seat`` cannot see (opponent's hand + boneyard)."""
    hidden = (*state.hands[1 - seat], *state.boneyard)
    if not hidden:
        return 0.0
    return sum(DOMINOES[c].weight for c in hidden) / len(hidden)


def expected_total(state: PyrinoesState, seat: int, viewer: int, average: float) -> float:
    """``seat``'s hand total as ``viewer`` can estimate it: hidden dominoes at the average."""
    if seat == viewer:
        return float(hand_total(state, seat))
    supply = state.supply[seat]
    pyramids = sum(n * (i % 3 + 1) for i, n in enumerate(supply)) + sum(PYRINOES[c].pips for c in state.pyrinoes[seat])
    return pyramids + average * len(state.hands[seat])


def _follow_ups(state: PyrinoesState, seat: int, left: int, right: int) -> int:
    n = 0
    for code in state.hands[seat]:
        d = DOMINOES[code]
        if d.a in (left, right) or d.b in (left, right):
            n += 1
    for code in state.pyrinoes[seat]:
        a, b = PYRINOES[code].spots
        if a in (left, right) or b in (left, right):
            n += 1
    return n


def _condition(state: PyrinoesState, seat: int, code: str) -> int | None:
    """The PY-5 condition met once ``seat`` has played ``code`` (line left aside)."""
    new = state.copy()
    hand = state.hands[seat]
    if code in hand:
        i = hand.index(code)
        new.hands = with_seat(state.hands, seat, hand[:i] + hand[i + 1:])
    else:
        built = state.pyrinoes[seat]
        i = built.index(code)
        new.pyrinoes = with_seat(state.pyrinoes, seat, built[:i] + built[i + 1:])
    return round_end(new, seat, False)


class PyrinoesPolicy(Policy):
    rollout_depth = 16
    exploration = 0.6
    width = 8
    root_width = 12

    def ranked(self, state: Any, seat: int, rng: Rng) -> list[str]:
        assert isinstance(state, PyrinoesState)
        moves = self.game.legal_moves(state)
        if len(moves) <= 1:
            return moves
        average = unseen_average(state, seat)
        # A stable sort: equal scores keep the legal moves' order.
        return sorted(moves, key=lambda move: self._score(state, seat, move, average), reverse=True)

    def _score(self, state: PyrinoesState, seat: int, move: str, average: float) -> float:
        """Pips this move takes off the hand, as a change of the expected round margin."""
        words = move.split()
        if words[0] == "build":
            p = PYRINOES[words[1]]
            a, b = p.spots
            fits = a in (state.left, state.right) or b in (state.left, state.right)
            return BUILD_PER_PIP * p.pips + (BUILD_FITS if fits else 0.0) + 0.3 * p.green_size
        if words[0] != "play":
            return 0.0
        _spots, pips, green = _piece(words[1])
        after = self.advance(state, move)
        if after.round != state.round or after.over:
            return float(pips + green) + self._ending_value(state, after, seat, words[1], pips, green, average)
        return float(pips + green) + FOLLOW_UP * min(_follow_ups(after, seat, after.left, after.right), 2)

    def _ending_value(self, before: PyrinoesState, after: PyrinoesState, seat: int, code: str, pips: int,
                      green: int, average: float) -> float:
        """A round-ending play: its bonus, plus part of the margin it locks in (estimated
        with the opponent's hidden dominoes at the average unseen weight)."""
        if after.over and after.winner == seat:
            return 1000.0
        mine = hand_total(before, seat) - pips
        theirs = expected_total(before, 1 - seat, seat, average)
        greens = green_played(before)
        margin = theirs - mine + greens[seat] + green - greens[1 - seat]
        return BONUS[_condition(before, seat, code) or 4] + LOCK_IN * margin

    # --- hard ------------------------------------------------------------------------
    def rollout_move(self, state: Any, rng: Rng) -> str:
        """Greedy with a little noise: the heaviest fitting piece, else the biggest
        build that fits the line, else draw or pass."""
        assert isinstance(state, PyrinoesState)
        seat = state.turn
        left, right = state.left, state.right
        best = ""
        best_value = -1.0
        for code in state.hands[seat]:
            d = DOMINOES[code]
            value = d.weight + rng.random() * 3.0
            if value > best_value:
                if d.a == left or d.b == left:
                    best, best_value = play_text(code, "left"), value
                elif d.a == right or d.b == right:
                    best, best_value = play_text(code, "right"), value
        for code in state.pyrinoes[seat]:
            p = PYRINOES[code]
            value = p.pips + p.green_size + rng.random() * 3.0
            if value > best_value:
                a, b = p.spots
                if a == left or b == left:
                    best, best_value = play_text(code, "left"), value
                elif a == right or b == right:
                    best, best_value = play_text(code, "right"), value
        builds = available_builds(seat, state.supply[seat], state.green)
        if builds and (not best or rng.random() < 0.25):
            fitting = [p for p in builds if p.spots[0] in (left, right) or p.spots[1] in (left, right)]
            pool = fitting or list(builds)
            pick = max(pool, key=lambda p: p.pips + rng.random() * 4.0)
            if not best or BUILD_PER_PIP * pick.pips + BUILD_FITS > best_value:
                return build_text(pick.code)
        if best:
            return best
        return "draw" if state.boneyard else "pass"

    def boundary(self, before: Any, after: Any) -> bool:
        """Rollouts stop when the round ends: the next deal is pure chance."""
        assert isinstance(before, PyrinoesState) and isinstance(after, PyrinoesState)
        return after.round != before.round

    def evaluate(self, state: Any, players: int) -> Sequence[float]:
        """The chance seat 0 wins the match from its expected lead: banked scores plus,
        mid-round, the hand-total difference the lower hand would score and the greens
        already played. The fewer points to the target, the more a lead counts."""
        assert isinstance(state, PyrinoesState)
        lead = float(state.scores[0] - state.scores[1])
        if len(state.line) > 1 or state.pyrinoes != ((), ()):
            totals = (hand_total(state, 0), hand_total(state, 1))
            greens = green_played(state)
            lead += (totals[1] - totals[0]) + (greens[0] - greens[1])
        distance = state.target - max(state.scores)
        scale = EVAL_SCALE + 0.25 * max(distance, 0)
        p0 = 1.0 / (1.0 + math.exp(-lead / scale))
        return [p0, 1.0 - p0]


def make_policy(game: Game[Any]) -> Policy:
    return PyrinoesPolicy(game)
