"""What one seat may know (FP-8), and states consistent with it for search AIs.

Hands are private; every draw pile is face down, even to its owner, so a view shows
pile *sizes* only. The pyramid, the removed tiles and hand sizes are public.
"""

from __future__ import annotations

from engine.core.contract import Json
from engine.core.hidden import redeal
from engine.core.rng import Rng
from engine.flaming_pyramids.geometry import cell_text, open_spaces
from engine.flaming_pyramids.state import State


def view(state: State, seat: int | None, legal: list[str]) -> Json:
    """The game's own view keys (the contract adds the common ones). ``hands`` holds
    the viewer's own list and, for everyone else, just a count; ``piles`` holds counts
    only. ``legal`` is the viewer's moves (empty unless it is to act); ``open_spaces``
    and ``falling`` save the renderer from re-deriving FP-3 and falls."""
    options: Json = {"curse": state.curse}
    if state.turn_limit is not None:
        options["turn_limit"] = state.turn_limit
    hands: list[list[str] | int] = [
        list(hand) if seat == p else len(hand) for p, hand in enumerate(state.hands)
    ]
    return {
        "turn": state.turn,
        "options": options,
        "pyramid": {cell_text(cell): state.pyramid[cell] for cell in sorted(state.pyramid)},
        "hands": hands,
        "hand_sizes": [len(h) for h in state.hands],
        "piles": [len(p) for p in state.piles],
        "removed": list(state.removed),
        "open_spaces": [] if state.pending or state.result else [cell_text(c) for c in open_spaces(state.pyramid)],
        "legal_moves": legal,
        "turns_played": state.turns,
        "falling": _falling(state),
    }


def _falling(state: State) -> Json | None:
    """The pending fall for the renderer: where each answer lands, and whether the tile hangs
    above ``at`` (``lifted``: the played tile, not in ``pyramid``) or is still drawn there."""
    pending = state.pending
    if pending is None:
        return None
    r, c = pending.cell
    return {
        "tile": pending.tile,
        "at": cell_text(pending.cell),
        "lifted": pending.lifted,
        "left": cell_text((r - 1, c)),
        "right": cell_text((r - 1, c + 1)),
    }


def hidden_tiles(state: State, seat: int) -> list[str]:
    """Tiles ``seat`` cannot see (other hands, every pile, its own included), sorted:
    the same list for every state that looks the same to ``seat``."""
    hidden: list[str] = []
    for p in range(state.players):
        if p != seat:
            hidden.extend(state.hands[p])
        hidden.extend(state.piles[p])
    hidden.sort()
    return hidden


def determinize(state: State, seat: int, rng: Rng) -> State:
    """Re-deal every tile ``seat`` cannot see (other hands, all piles) keeping all sizes,
    canonically (:func:`engine.core.hidden.redeal`)."""
    others = [p for p in range(state.players) if p != seat]
    dealt = redeal([*(state.hands[p] for p in others), *state.piles], rng)
    hands = list(state.hands)
    for p, hand in zip(others, dealt[:len(others)], strict=True):
        hands[p] = hand
    new = state.copy()
    new.hands = tuple(hands)
    new.piles = tuple(dealt[len(others):])
    return new
