"""Shared helpers for the AI tests: random positions, and twins of a position that
differ only in what one seat cannot see."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.core import Game, Rng, get_game
from tools.playout import steps, still_going

#: (game id, players, options) tables the AI must handle.
TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("flaming-pyramids", 2, {"turn_limit": 200}),
    ("flaming-pyramids", 3, {"curse": True, "turn_limit": 200}),
    ("pyrinoes", 2, {"target": 30}),
    ("continuous-pyramid", 1, {}),
    ("pyramido", 1, {"mode": "solo"}),
    ("pyramido", 3, {"mode": "coop"}),
    ("pyramido", 2, {"mode": "competitive"}),
]


def random_position(game: Game[Any], players: int, options: dict[str, Any], seed: int, moves: int) -> Any:
    """A position after up to ``moves`` uniformly random legal moves (never a finished one,
    unless the game ends at once)."""
    return still_going(game, game.setup(players, options, seed), Rng(seed ^ 0xA1), moves, _no_take_back)


def _no_take_back(game: Game[Any], state: Any, rng: Rng) -> str:
    """A random legal move, ``undo`` and ``resign`` only when nothing else is legal."""
    moves = game.legal_moves(state)
    return rng.choice([m for m in moves if m not in ("undo", "resign")] or moves)


def fp_pending_position(seed: int, players: int = 2) -> Any:
    """A Flaming Pyramids position waiting for a fall decision."""
    game = get_game("flaming-pyramids")
    for attempt in range(200):
        state = game.setup(players, {"turn_limit": 300}, seed + attempt * 7919)
        for step in steps(game, state, Rng(seed + attempt)):
            if game.pending(step.state) is not None:
                return step.state
    raise AssertionError("no pending fall found")


def hidden_twin(game: Game[Any], state: Any, seat: int, seed: int) -> Any:
    """``state`` with everything hidden from ``seat`` moved around (and the deal RNG changed)."""
    rng = Rng(seed)
    if game.id == "flaming-pyramids":
        hidden = [t for p in range(state.players) if p != seat for t in state.hands[p]]
        hidden += [t for pile in state.piles for t in pile]
        hidden.reverse()
        rng.shuffle(hidden)
        hands, piles, at = list(state.hands), list(state.piles), 0
        for p in range(state.players):
            if p != seat:
                hands[p] = tuple(hidden[at:at + len(hands[p])])
                at += len(hands[p])
            piles[p] = tuple(hidden[at:at + len(piles[p])])
            at += len(piles[p])
        twin = state.copy()
        twin.hands, twin.piles, twin.rng = tuple(hands), tuple(piles), rng.next64()
        return twin
    if game.id == "pyrinoes":
        other = 1 - seat
        hidden = [_respell(c) for c in (*state.hands[other], *state.boneyard)]
        rng.shuffle(hidden)
        n = len(state.hands[other])
        twin = state.copy()
        hands = list(state.hands)
        hands[other] = tuple(hidden[:n])
        twin.hands = (hands[0], hands[1])
        twin.boneyard = tuple(hidden[n:])
        twin.rng = rng.next64()
        return twin
    if game.id == "continuous-pyramid":
        stock = list(state.stock)
        rng.shuffle(stock)
        return replace(state, stock=tuple(stock), plays_cache=None)
    if game.id == "pyramido":
        # Only the bag's order is hidden: co-op hands are open (PD-4, second edition).
        bag = list(state.bag)
        bag.reverse()
        rng.shuffle(bag)
        return state.with_(bag=tuple(bag), rng=rng.next64())
    raise AssertionError(f"no twin maker for {game.id}")


def _respell(code: str) -> str:
    a, _, b = code.partition("-")
    return f"{b}-{a}"
