"""Games played by chance through the public ``Game`` contract: the positions the
gallery draws, self-play runs and the tests check are reached by this one loop, so
every caller asks the game whose turn it is and stops at its end the same way."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from engine.core import Event, Game, Rng

S = TypeVar("S")
#: Picks the move of the seat to act; the ``Rng`` is the caller's, so a line of play
#: is a fixed function of its seed.
Choose = Callable[[Game[Any], Any, Rng], str]


def any_move(game: Game[Any], state: Any, rng: Rng) -> str:
    """A uniformly random legal move."""
    return rng.choice(game.legal_moves(state))


@dataclass(frozen=True)
class Step(Generic[S]):
    """One move made: who made it, what it was, and the state and events it gave."""

    seat: int
    move: str
    state: S
    events: list[Event]


def steps(game: Game[S], state: S, rng: Rng, limit: int | None = None,
          choose: Choose = any_move) -> Iterator[Step[S]]:
    """Moves from ``state``, each by the seat to act and picked by ``choose``, until the
    game is over or ``limit`` moves are made (None: no limit)."""
    made = 0
    while limit is None or made < limit:
        seat = game.to_act(state)
        if seat is None:
            return
        move = choose(game, state, rng)
        state, events = game.play(state, seat, move)
        made += 1
        yield Step(seat, move, state, events)


def played(game: Game[S], state: S, rng: Rng, limit: int | None = None, choose: Choose = any_move,
           stop: Callable[[S, list[Event]], bool] | None = None) -> tuple[S, list[Event]]:
    """Where :func:`steps` ends, or sooner where ``stop(state, events)`` first holds: the
    state, and the events of the last move (none when no move was made)."""
    events: list[Event] = []
    for step in steps(game, state, rng, limit, choose):
        state, events = step.state, step.events
        if stop is not None and stop(state, events):
            break
    return state, events


def still_going(game: Game[S], state: S, rng: Rng, limit: int | None = None, choose: Choose = any_move,
                keep: Callable[[S], bool] | None = None) -> S:
    """The state after up to ``limit`` moves, stopping short of a move that would end
    the game or give a state ``keep`` refuses: a position still in play (unless
    ``state`` is over already), for tests that need a decision to make."""
    for step in steps(game, state, rng, limit, choose):
        if game.to_act(step.state) is None or (keep is not None and not keep(step.state)):
            break
        state = step.state
    return state
