"""What one seat may know (FP-8), and states consistent with it for search AIs.

Hands are private; every draw pile is face down, even to its owner, so a view shows
pile *sizes* only. The pyramid, the removed tiles and hand sizes are public.
"""

from __future__ import annotations

from engine.core.contract import Json
from engine.core.rng import Rng
from engine.flaming_pyramids.geometry import cell_text, open_spaces
from engine.flaming_pyramids.position import pending_json, result_json
from engine.flaming_pyramids.state import State


def view(state: State, seat: int | None, game_id: str, to_act: int | None, legal: list[str]) -> Json:
    """``hands`` holds the viewer's own list and, for everyone else, just a count;
    ``piles`` holds counts only. ``legal_moves`` is filled only for the seat to act;
    ``open_spaces`` and ``falling`` save the renderer from re-deriving FP-3 and falls."""
    options: Json = {"curse": state.curse}
    if state.turn_limit is not None:
        options["turn_limit"] = state.turn_limit
    hands: list[list[str] | int] = [
        list(hand) if seat == p else len(hand) for p, hand in enumerate(state.hands)
    ]
    return {
        "game": game_id,
        "seat": seat,
        "players": state.players,
        "to_act": to_act,
        "pending": pending_json(state.pending),
        "result": result_json(state.result),
        "turn_number": state.moves,
        "turn": state.turn,
        "options": options,
        "pyramid": {cell_text(cell): state.pyramid[cell] for cell in sorted(state.pyramid)},
        "hands": hands,
        "hand_sizes": [len(h) for h in state.hands],
        "piles": [len(p) for p in state.piles],
        "removed": list(state.removed),
        "open_spaces": [] if state.pending or state.result else [cell_text(c) for c in open_spaces(state.pyramid)],
        "legal_moves": legal if seat is not None and seat == to_act else [],
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
    """Re-deal every tile ``seat`` cannot see (other hands, all piles) keeping all sizes.

    Canonical: the hidden tiles are sorted before the shuffle, so the sample depends only
    on what ``seat`` sees and on ``rng`` — never on where the hidden tiles really are
    (an AI given two states that differ only in hidden tiles decides the same)."""
    hidden = hidden_tiles(state, seat)
    rng.shuffle(hidden)
    hands = list(state.hands)
    piles = list(state.piles)
    at = 0
    for p in range(state.players):
        if p != seat:
            n = len(hands[p])
            hands[p] = tuple(hidden[at:at + n])
            at += n
        n = len(piles[p])
        piles[p] = tuple(hidden[at:at + n])
        at += n
    new = state.copy()
    new.hands = tuple(hands)
    new.piles = tuple(piles)
    return new
