"""What each seat may see (information rule) and re-dealing what it may not.

Hidden: only the bag's order. Everything else is public: the pyramids, the quarry,
reserves, stones out of the game, and every solo/co-op hand. PD-4 (second edition)
has the stones in hand lie open in front of each player, and teammates confer, so a
co-op view (a spectator's too) shows every teammate's hand; the first edition kept
them private. The state's Rng is dropped from views since it decides the bags of
later competitive rounds.
"""

from __future__ import annotations

from engine.core.contract import Json
from engine.core.hidden import redeal
from engine.core.rng import Rng
from engine.pyramido.position import to_position
from engine.pyramido.state import State
from engine.pyramido.stones import counts


def unseen(state: State) -> dict[str, int]:
    """Colour counts of the stones nobody can see: the bag's (its order stays hidden).
    The same for every seat, since hands, reserves and the quarry are all open."""
    return counts(state.bag)


def redact(state: State, seat: int | None) -> Json:
    """The position for ``seat`` (None: a spectator or the public board). The seat
    does not change anything: nothing but the bag is hidden from anyone."""
    position = to_position(state)
    del position["rng"]
    position["bag"] = len(state.bag)
    position["unseen"] = unseen(state)
    return position


def determinize(state: State, seat: int, rng: Rng) -> State:
    """Re-deal the only hidden thing, the bag's order (canonically, by
    :func:`engine.core.hidden.redeal`). Teammates' hands are public (PD-4, second
    edition), so they are kept as they are, never re-dealt."""
    (bag,) = redeal([state.bag], rng)
    return state.with_(bag=bag, rng=rng.next64())
