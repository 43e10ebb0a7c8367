"""May a move be taken back? Only when it showed nobody anything hidden (issue #41).

An undo that lets a player redraw is cheating: play, look at the tile drawn, take
it back, play something else. So a move may be taken back only when every seat's
view after it follows from that seat's view before it and the move itself (the
move is public once made: a tile played from a hand was the mover's to show):

- no random event was decided: the state's ``rng`` (the one seeded stream every game
  keeps in its position) is where it was;
- no seat learnt anything hidden: for each seat, states it cannot tell apart from the
  real one (:meth:`Game.determinize`) in which the move is legal all lead to the same
  view for it after the move. A tile drawn, a face-down tile turned, a new stock tile
  shown: each makes that view depend on what the seat could not see, so the
  re-deals disagree.

The re-deals are drawn from a stream seeded by the seat's own view and the move, so
the answer is a function of what the players see (the same on every replay, in every
process) and never of where the hidden things really lie.

The undo itself is no engine operation: the engine is deterministic, so the position
before the last move is the replay of the log without it (:func:`take_back`), equal
to the position before the move by construction.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any

from pydantic import BaseModel

from engine.core.contract import Game, Json
from engine.core.errors import EngineError
from engine.core.rng import Rng, derive_seed
from engine.core.text import N_

#: States that must agree for the mover (the move is legal in every re-deal of what the
#: mover cannot see); a draw from a pool of two kinds of tile slips through all of them
#: once in 2**15.
AGREEING = 16
#: For every other seat: fewer, and found among at most :data:`TRIES` re-deals (the
#: mover's tile played is in the mover's re-dealt hand in only some of them). What the
#: move shows a seat that the mover's own check misses is rare (something the mover saw
#: and the move does not name), so these are a second guard, kept cheap: the answer is
#: asked after every move a person makes.
AGREEING_OTHERS = 6
TRIES = 120


class Revealed(StrEnum):
    """Why a move may not be taken back."""

    #: The game decided something at random (its ``rng`` moved on).
    RANDOM = "random"
    #: A seat's view gained something hidden (a draw, a tile turned or shown).
    HIDDEN = "hidden"
    #: The game is over, or the move is not the one the state was waiting for.
    NOT_A_MOVE = "not_a_move"


#: Why a move may not be taken back, in words (templates the front ends translate): the engine's
#: reasons, and the two rules every front end adds (nobody acted since; once a move).
REFUSED = {
    Revealed.RANDOM: N_("That move decided something at random, so it cannot be taken back."),
    Revealed.HIDDEN: N_("That move showed something hidden (a tile drawn or turned up), so it cannot be taken "
                        "back."),
    Revealed.NOT_A_MOVE: N_("There is no move to take back."),
}
NOT_YOURS = N_("You can take back only your own last move, before anyone acts after it.")
ONCE = N_("You took this move back once already: one undo per turn.")


def _rng_of(game: Game[Any], state: Any) -> object:
    return game.to_position(state).get("rng")


def _view_key(view: Json) -> str:
    return json.dumps(view, sort_keys=True, default=str)


def revealed(game: Game[Any], before: Any, seat: int, move: str) -> Revealed | None:
    """What playing ``move`` for ``seat`` in ``before`` would show that was hidden
    (None: nothing, so it may be taken back)."""
    try:
        after, _ = game.play(before, seat, move)
    except EngineError:
        return Revealed.NOT_A_MOVE
    if _rng_of(game, after) != _rng_of(game, before):
        return Revealed.RANDOM
    viewers = [seat, *(v for v in range(game.players_in(before)) if v != seat)]  # the mover's check first
    for viewer in viewers:
        if not _seat_learns_nothing(game, before, after, seat, move, viewer):
            return Revealed.HIDDEN
    return None


def _seat_learns_nothing(game: Game[Any], before: Any, after: Any, seat: int, move: str, viewer: int) -> bool:
    """Whether ``viewer``'s view after the move is the same from every state it could
    not tell from ``before`` (in which the move is legal)."""
    seen = _view_key(game.view(before, viewer))
    expected = _view_key(game.view(after, viewer))
    rng = Rng(derive_seed(0, f"undo:{viewer}:{seat}:{move}:{seen}"))
    wanted = AGREEING if viewer == seat else AGREEING_OTHERS
    agreeing = 0
    for _ in range(TRIES if viewer != seat else AGREEING * 4):
        guess = game.determinize(before, viewer, rng)
        try:
            guessed_after, _ = game.play(guess, seat, move)
        except EngineError:
            continue  # the re-deal did not give the mover what it played
        if _view_key(game.view(guessed_after, viewer)) != expected:
            return False
        agreeing += 1
        if agreeing >= wanted:
            break
    return True


def turn_began(moves: Sequence[tuple[int, str]]) -> int:
    """The number (1, 2, …) of the first move of the turn the last move belongs to: the moves
    its seat made in a row (a play and the falls it decides, Pyramido's stones). One undo per turn
    counts from there."""
    if not moves:
        return 1
    seat = moves[-1][0]
    first = len(moves)
    while first > 1 and moves[first - 2][0] == seat:
        first -= 1
    return first


def may_take_back(game: Game[Any], before: Any, seat: int, move: str) -> bool:
    """Whether the move ``seat`` made from ``before`` may be taken back (see the module)."""
    return revealed(game, before, seat, move) is None


def take_back(
    game: Game[Any],
    players: int,
    options: Mapping[str, Any] | BaseModel | None,
    seed: int,
    moves: Sequence[tuple[int, str]],
) -> Any:
    """The game as it stood before its last move: the log replayed without it."""
    if not moves:
        raise ValueError("there is no move to take back")
    return game.replay(players, options, seed, moves[:-1])
