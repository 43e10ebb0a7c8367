"""A forced move: the one legal move, which a front end may play for the player (issue #41).

Only where playing it shows the player nothing the rules would not: the seat's legal
moves must be the same in every state it cannot tell from the real one
(:meth:`Game.determinize`). Were they not, "the bot played your only move" would tell the
player something hidden (that some tile is not theirs to play, say). Every game here
derives a seat's moves from what it sees, so the guard holds today; it is checked rather
than assumed so that a game where it would not hold is never auto-played.
"""

from __future__ import annotations

from typing import Any

from engine.core.contract import Game
from engine.core.rng import Rng, derive_seed

#: Re-deals that must agree on the seat's moves.
AGREEING = 12


def forced_move(game: Game[Any], state: Any, seat: int) -> str | None:
    """The move to play for ``seat`` now, when it is its only legal move and that follows
    from what the seat sees; None otherwise (not its turn, a choice, or hidden things decide)."""
    if game.waiting_for(state) != seat:
        return None
    moves = game.legal_moves(state)
    if len(moves) != 1:
        return None
    rng = Rng(derive_seed(game.turn_number(state), f"forced:{seat}:{moves[0]}"))
    for _ in range(AGREEING):
        if game.legal_moves(game.determinize(state, seat, rng)) != moves:
            return None
    return moves[0]
