"""Single-observer information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012).

One tree over *moves* from the searching seat's point of view. Every iteration samples
a fresh determinization — a full state consistent with what the seat sees — and walks
the tree with only the moves legal in that sample, so opponents' nodes collect the
moves they might have across many possible hands. A child's UCB uses how often it was
*available* rather than its parent's visits, as the paper prescribes.

Rollouts follow the game's cheap policy for a few plies and then ask the game's
evaluation, which keeps iterations short enough for a time budget of a fraction of a
second. Time is read from the injected ``clock`` only; without one the search runs a
fixed number of iterations, so tests are deterministic.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.ai.policy import Policy
from engine.core import Rng

Clock = Callable[[], float]
Sampler = Callable[[Rng], Any]


@dataclass(slots=True)
class Node:
    player: int  # the seat that made ``move`` (whose reward this node accumulates)
    parent: Node | None
    visits: int = 0
    reward: float = 0.0
    avail: int = 0
    children: dict[str, Node] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Budget:
    """Stop after ``iterations``, or once ``seconds`` have passed on ``clock``,
    whichever comes first."""

    iterations: int
    seconds: float | None = None
    clock: Clock | None = None


@dataclass(slots=True)
class SearchStats:
    iterations: int
    visits: dict[str, int]


def search(policy: Policy, sample: Sampler, seat: int, root_moves: list[str], rng: Rng,
           budget: Budget) -> tuple[str, SearchStats]:
    """The most-visited root move after the budget is spent.

    ``sample(rng)`` returns a fresh determinization each call; ``root_moves`` are the
    seat's own moves, best first, which every sample shares (they depend only on what
    the seat holds). Ties in visits go to the earlier move, so with a tiny budget the
    search plays like the ranking it was given."""
    game = policy.game
    root = Node(player=-1, parent=None)
    clock, deadline = budget.clock, None
    if clock is not None and budget.seconds is not None:
        deadline = clock() + budget.seconds
    c = policy.exploration
    depth_limit = policy.rollout_depth
    done = 0
    while done < budget.iterations:
        if deadline is not None and clock is not None and clock() >= deadline:
            break
        done += 1
        state = sample(rng)
        node = root
        players = policy.players(state)
        # --- selection and expansion -------------------------------------------------
        while True:
            if game.result(state) is not None:
                break
            actor = game.to_act(state)
            assert actor is not None
            moves = root_moves if node is root else policy.candidates(state, rng)
            children = node.children
            untried = next((m for m in moves if m not in children), None)
            if untried is not None:
                state = policy.advance(state, untried)
                child = Node(player=actor, parent=node)
                children[untried] = child
                node = child
                break
            best: Node | None = None
            best_move = ""
            best_score = -math.inf
            for m in moves:
                ch = children[m]
                ch.avail += 1
                score = ch.reward / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if score > best_score:
                    best, best_move, best_score = ch, m, score
            assert best is not None
            state = policy.advance(state, best_move)
            node = best
        # --- rollout -------------------------------------------------------------------
        rewards = _rollout(policy, state, players, depth_limit, rng)
        # --- back-propagation ---------------------------------------------------------
        walk: Node | None = node
        while walk is not None:
            walk.visits += 1
            if walk.player >= 0:
                walk.reward += rewards[walk.player]
            walk = walk.parent
    visits = {m: root.children[m].visits if m in root.children else 0 for m in root_moves}
    best_move = max(root_moves, key=lambda m: visits[m])  # first of the most visited
    return best_move, SearchStats(done, visits)


def _rollout(policy: Policy, state: Any, players: int, depth: int, rng: Rng) -> list[float]:
    game = policy.game
    for _ in range(depth):
        result = game.result(state)
        if result is not None:
            return list(policy.reward(result, players))
        after = policy.advance(state, policy.rollout_move(state, rng))
        if policy.boundary(state, after):
            state = after
            break
        state = after
    result = game.result(state)
    if result is not None:
        return list(policy.reward(result, players))
    return list(policy.evaluate(state, players))
