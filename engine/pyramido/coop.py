"""Solo and cooperative turns (PD-4): place stones one at a time, then ``end`` to
refill; or, before placing any, swap up to three stones with the bag.

Rulings where PD-4 is silent: ``end`` with no stone placed is a legal (passing)
turn; a swap names 1-3 stones. PD-4 (second edition) says outright that a swap
returns at most as many stones as the bag still holds (it is an exchange, so with an
empty bag there is nothing to swap); the engine always worked that way.

Hands are open (PD-4, second edition): a draw is told to everyone with the stones
drawn, since they land in a hand the whole table sees. Only the bag's order stays
hidden.
"""

from __future__ import annotations

from collections import Counter

from engine.core.errors import IllegalMove
from engine.core.events import Event
from engine.core.result import Result
from engine.pyramido.geometry import check_place, format_cell, is_complete, missing, placements
from engine.pyramido.notation import Move
from engine.pyramido.state import State
from engine.pyramido.stones import COLOURS, DISCARD_LIMIT, HAND_SIZE, describe, sort_stones


def remove_one(stones: tuple[str, ...], colour: str) -> tuple[str, ...]:
    i = stones.index(colour)
    return stones[:i] + stones[i + 1 :]


def all_seats(state: State) -> tuple[int, ...]:
    return tuple(range(state.players))


def won(state: State) -> Result:
    stones = len(state.pyramids[0])
    return Result(
        winners=all_seats(state), scores=(float(stones),) * state.players,
        summary="The pyramid is complete: " + ("you built it!" if state.players == 1 else "the builders won together!"),
        details={"stones": float(stones), "missing": 0.0},
    )


def lost(state: State) -> Result:
    stones = len(state.pyramids[0])
    gap = missing(state.pyramids[0], state.size)
    return Result(
        winners=(), scores=(float(stones),) * state.players,
        summary=f"The bag is empty and a whole round passed without a stone placed: the pyramid stays "
        f"{gap} stone{'s' if gap != 1 else ''} short.",
        details={"stones": float(stones), "missing": float(gap)},
    )


def derive_result(state: State) -> Result | None:
    if is_complete(state.pyramids[0], state.size):
        return won(state)
    if state.idle >= state.players:
        return lost(state)
    return None


def _discards(hand: tuple[str, ...], limit: int) -> list[tuple[str, ...]]:
    """Distinct multisets of 1..limit stones from the hand, in colour order."""
    have = Counter(hand)
    found: list[tuple[str, ...]] = []

    def grow(prefix: tuple[str, ...], start: int) -> None:
        if prefix:
            found.append(prefix)
        if len(prefix) == limit:
            return
        for i in range(start, len(COLOURS)):
            c = COLOURS[i]
            if prefix.count(c) < have[c]:
                grow((*prefix, c), i)

    grow((), 0)
    found.sort(key=lambda d: (len(d), [COLOURS.index(c) for c in d]))
    return found


def legal_moves(state: State) -> list[str]:
    seat = state.turn
    hand = state.hands[seat]
    found = placements(state.pyramids[0], state.size, sorted(set(hand)))
    moves = [f"place {c} {format_cell(cell)}" for c, cell in found]
    moves.append("end")
    if state.placed == 0:
        # PD-4 (second edition): a swap returns at most as many stones as the bag holds.
        moves.extend("discard " + " ".join(d) for d in _discards(hand, min(DISCARD_LIMIT, len(state.bag))))
    return moves


def apply(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    if move.verb == "place":
        return _place(state, seat, move)
    if move.verb == "end":
        return _end(state, seat)
    if move.verb == "discard":
        return _discard(state, seat, move.stones)
    raise IllegalMove(
        f"'{move.verb}' is a competitive move; in the {state.mode} game you 'place', 'end' or 'discard'."
    )


def _place(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    colour = move.stones[0]
    cell = move.cell
    assert cell is not None
    hand = state.hands[seat]
    if colour not in hand:
        raise IllegalMove(f"You don't hold a {colour} stone.")
    pyramid = state.pyramids[0]
    reason = check_place(pyramid, state.size, cell, colour)
    if reason is not None:
        raise IllegalMove(reason)
    new_pyramid = dict(pyramid)
    new_pyramid[cell] = colour
    hands = list(state.hands)
    hands[seat] = remove_one(hand, colour)
    name = format_cell(cell)
    events = [Event("place", f"{{0}} placed {colour} at {name}.", (seat,), (name,), (colour,))]
    new = state.with_(pyramids=(new_pyramid,), hands=tuple(hands), placed=state.placed + 1, moves=state.moves + 1)
    if is_complete(new_pyramid, state.size):
        result = won(new)
        new = new.with_(result=result)
        events.append(Event("win", result.summary, all_seats(state), (name,)))
    return new, events


def _draw(state: State, seat: int, count: int) -> tuple[tuple[str, ...], tuple[str, ...], list[Event]]:
    drawn = state.bag[:count]
    rest = state.bag[count:]
    if not drawn:
        return drawn, rest, []
    shown = tuple(sort_stones(drawn))
    events = [
        Event("draw", f"{{0}} drew {describe(shown)}; {len(rest)} left in the bag.", (seat,), items=shown,
              data={"count": len(drawn), "bag": len(rest)}),
    ]
    return drawn, rest, events


def _pass_turn(state: State, seat: int, hand: tuple[str, ...], bag: tuple[str, ...], out: tuple[str, ...],
               events: list[Event]) -> tuple[State, list[Event]]:
    # Only turns that began with the bag already empty count towards the loss: the
    # player who draws the last stones has not yet had a turn to use them.
    idle = state.idle + 1 if state.placed == 0 and not state.bag else 0
    hands = list(state.hands)
    hands[seat] = hand
    new = state.with_(
        hands=tuple(hands), bag=bag, out=out, idle=idle, placed=0, turn=(seat + 1) % state.players,
        moves=state.moves + 1,
    )
    if idle >= state.players:
        result = lost(new)
        new = new.with_(result=result)
        events.append(Event("lose", result.summary, all_seats(state)))
    return new, events


def _end(state: State, seat: int) -> tuple[State, list[Event]]:
    hand = state.hands[seat]
    need = max(0, HAND_SIZE[state.mode] - len(hand))
    drawn, bag, draw_events = _draw(state, seat, need)
    placed = state.placed
    text = "{0} ended the turn" + (
        f" after placing {placed} stone{'s' if placed != 1 else ''}." if placed else " without placing a stone."
    )
    events = [Event("end", text, (seat,), data={"placed": placed}), *draw_events]
    return _pass_turn(state, seat, hand + drawn, bag, state.out, events)


def _discard(state: State, seat: int, stones: tuple[str, ...]) -> tuple[State, list[Event]]:
    if state.placed:
        raise IllegalMove("You have placed stones this turn, so you can no longer swap; place more or 'end'.")
    if len(stones) > DISCARD_LIMIT:
        raise IllegalMove(f"You may put at most {DISCARD_LIMIT} stones out of the game in one turn.")
    # PD-4 (second edition): a swap returns at most as many stones as the bag holds.
    if len(stones) > len(state.bag):
        if not state.bag:
            raise IllegalMove("The bag is empty, so there is nothing to swap stones for.")
        raise IllegalMove(
            f"The bag holds only {len(state.bag)} stone{'s' if len(state.bag) != 1 else ''}, "
            f"so you can swap at most that many."
        )
    hand = state.hands[seat]
    need = Counter(stones)
    have = Counter(hand)
    for colour, n in need.items():
        if have[colour] < n:
            held = have[colour]
            raise IllegalMove(f"You don't hold {n} {colour} stone{'s' if n != 1 else ''} (you hold {held}).")
    for colour in stones:
        hand = remove_one(hand, colour)
    gone = tuple(sort_stones(stones))
    drawn, bag, draw_events = _draw(state, seat, len(stones))
    events = [
        Event("discard", f"{{0}} put {describe(gone)} out of the game.", (seat,), items=gone),
        *draw_events,
    ]
    return _pass_turn(state, seat, hand + drawn, bag, state.out + gone, events)
