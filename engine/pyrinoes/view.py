"""What each seat may know (PY-7), and hidden-information sampling for search AIs."""

from __future__ import annotations

from engine.core.contract import Json
from engine.core.hidden import redeal
from engine.core.rng import Rng
from engine.pyrinoes.moves import build_options
from engine.pyrinoes.pieces import DOMINOES, SEAT_COLOURS, SIDE_NAMES
from engine.pyrinoes.position import to_position
from engine.pyrinoes.state import PyrinoesState, with_seat


def view(state: PyrinoesState, seat: int | None) -> Json:
    """Position-shaped: hidden domino lists become their sizes.

    The opponent's hand becomes a count, the boneyard a count, and the deal RNG is
    dropped (it would reveal future rounds). Supplies, built pyrinoes, the green pool,
    the line and the scores stay public."""
    pos = to_position(state)
    del pos["rng"]
    pos["hands"] = [list(h) if s == seat else len(h) for s, h in enumerate(state.hands)]
    pos["boneyard"] = len(state.boneyard)
    pos["hand_sizes"] = [len(h) for h in state.hands]
    pos["open_ends"] = [state.left, state.right]
    pos["sides"] = list(SIDE_NAMES)
    pos["colours"] = [list(c) for c in SEAT_COLOURS]
    if seat is not None and not state.over and state.turn == seat:
        pos["builds"] = [
            {"spots": list(spots), "codes": codes} for spots, codes in build_options(state, seat).items()
        ]
    return pos


def determinize(state: PyrinoesState, seat: int, rng: Rng) -> PyrinoesState:
    """Re-deal the opponent's dominoes and the boneyard from their union (same sizes),
    and reseed the deal RNG so later rounds are unknown too.

    Canonical: the hidden dominoes are re-dealt in their spelling-free form
    (``DOMINOES[c].key``) by :func:`engine.core.hidden.redeal`, so two states that
    differ only in hidden dominoes give the same samples."""
    other = 1 - seat
    hand, boneyard = redeal(
        [[DOMINOES[c].key for c in state.hands[other]], [DOMINOES[c].key for c in state.boneyard]], rng
    )
    new = state.copy()
    new.hands = with_seat(state.hands, other, hand)
    new.boneyard = boneyard
    new.rng = rng.next64()
    return new
