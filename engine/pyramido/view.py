"""What each seat may see (information rule) and re-dealing what it may not.

Hidden: the bag's order (always), and in solo/coop every hand but the viewer's own
(teammates talk, but a hand is what a player holds). Pyramids, the quarry,
reserves and stones out of the game are public. The state's Rng is dropped from
views since it decides the bags of later competitive rounds.
"""

from __future__ import annotations

from engine.core.contract import Json
from engine.core.rng import Rng
from engine.pyramido.position import to_position
from engine.pyramido.state import State
from engine.pyramido.stones import counts


def unseen(state: State, seat: int | None) -> dict[str, int]:
    """Colour counts of the stones ``seat`` cannot see (bag plus other hands)."""
    hidden = list(state.bag)
    if not state.competitive:
        for p, hand in enumerate(state.hands):
            if p != seat:
                hidden.extend(hand)
    return counts(hidden)


def redact(state: State, seat: int | None) -> Json:
    position = to_position(state)
    del position["rng"]
    position["bag"] = len(state.bag)
    if not state.competitive:
        position["hands"] = [list(h) if p == seat else len(h) for p, h in enumerate(state.hands)]
    position["unseen"] = unseen(state, seat)
    return position


def determinize(state: State, seat: int, rng: Rng) -> State:
    pool = list(state.bag)
    others = [] if state.competitive else [p for p in range(state.players) if p != seat]
    for p in others:
        pool.extend(state.hands[p])
    # Sorting first makes the deal depend only on what the seat knows (and ``rng``),
    # not on the true hidden order.
    pool.sort()
    rng.shuffle(pool)
    hands = list(state.hands)
    pos = 0
    for p in others:
        size = len(hands[p])
        hands[p] = tuple(pool[pos : pos + size])
        pos += size
    return state.with_(hands=tuple(hands), bag=tuple(pool[pos:]), rng=rng.next64())

