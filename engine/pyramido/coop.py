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
from engine.core.text import N_, phrase, plural
from engine.pyramido.geometry import check_place, format_cell, is_complete, missing, placements
from engine.pyramido.notation import Move
from engine.pyramido.state import State
from engine.pyramido.stones import COLOURS, DISCARD_LIMIT, HAND_SIZE, describe, sort_stones, stone_word


def remove_one(stones: tuple[str, ...], colour: str) -> tuple[str, ...]:
    i = stones.index(colour)
    return stones[:i] + stones[i + 1 :]


def all_seats(state: State) -> tuple[int, ...]:
    return tuple(range(state.players))


def won(state: State) -> Result:
    stones = len(state.pyramids[0])
    return Result(
        winners=all_seats(state), scores=(float(stones),) * state.players,
        summary_text=phrase(N_("The pyramid is complete: you built it!") if state.players == 1
                            else N_("The pyramid is complete: the builders won together!")),
        details={"stones": float(stones), "missing": 0.0},
    )


def lost(state: State) -> Result:
    stones = len(state.pyramids[0])
    gap = missing(state.pyramids[0], state.size)
    return Result(
        winners=(), scores=(float(stones),) * state.players,
        summary_text=phrase(plural(gap, N_("The bag is empty and a whole round passed without a stone placed: the "
                                           "pyramid stays {count} stone short."),
                                   N_("The bag is empty and a whole round passed without a stone placed: the "
                                      "pyramid stays {count} stones short.")), count=gap),
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
    if state.mode == "solo":
        raise IllegalMove(N_("'{verb}' is a competitive move; in the solo game you 'place', 'end' or 'discard'."),
                          verb=move.verb)
    raise IllegalMove(N_("'{verb}' is a competitive move; in the coop game you 'place', 'end' or 'discard'."),
                      verb=move.verb)


def _place(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    colour = move.stones[0]
    cell = move.cell
    assert cell is not None
    hand = state.hands[seat]
    if colour not in hand:
        raise IllegalMove(N_("You don't hold a {colour} stone."), colour=stone_word(colour))
    pyramid = state.pyramids[0]
    reason = check_place(pyramid, state.size, cell, colour)
    if reason is not None:
        raise IllegalMove(reason)
    new_pyramid = dict(pyramid)
    new_pyramid[cell] = colour
    hands = list(state.hands)
    hands[seat] = remove_one(hand, colour)
    name = format_cell(cell)
    # where: its level (the picture outlines the stone; its cell's coordinates are the notation's, #43)
    events = [Event("place", N_("{0} placed {colour} on level {level}."), (seat,), (name,), (colour,),
                    args={"colour": stone_word(colour), "level": cell[0]})]
    new = state.with_(pyramids=(new_pyramid,), hands=tuple(hands), placed=state.placed + 1, moves=state.moves + 1)
    if is_complete(new_pyramid, state.size):
        result = won(new)
        new = new.with_(result=result)
        assert result.summary_text is not None
        events.append(Event("win", result.summary_text.template, all_seats(state), (name,),
                            args=result.summary_text.args))
    return new, events


def _draw(state: State, seat: int, count: int) -> tuple[tuple[str, ...], tuple[str, ...], list[Event]]:
    drawn = state.bag[:count]
    rest = state.bag[count:]
    if not drawn:
        return drawn, rest, []
    shown = tuple(sort_stones(drawn))
    events = [
        Event("draw", N_("{0} drew {stones}; {count} left in the bag."), (seat,), items=shown,
              data={"count": len(drawn), "bag": len(rest)}, args={"stones": describe(shown), "count": len(rest)}),
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
        assert result.summary_text is not None
        events.append(Event("lose", result.summary_text.template, all_seats(state), args=result.summary_text.args))
    return new, events


def _end(state: State, seat: int) -> tuple[State, list[Event]]:
    hand = state.hands[seat]
    need = max(0, HAND_SIZE[state.mode] - len(hand))
    drawn, bag, draw_events = _draw(state, seat, need)
    placed = state.placed
    if placed:
        text = plural(placed, N_("{0} ended the turn after placing {count} stone."),
                      N_("{0} ended the turn after placing {count} stones."))
    else:
        text = N_("{0} ended the turn without placing a stone.")
    events = [Event("end", text, (seat,), data={"placed": placed}, args={"count": placed}), *draw_events]
    return _pass_turn(state, seat, hand + drawn, bag, state.out, events)


def _discard(state: State, seat: int, stones: tuple[str, ...]) -> tuple[State, list[Event]]:
    if state.placed:
        raise IllegalMove(N_("You have placed stones this turn, so you can no longer swap; place more or 'end'."))
    if len(stones) > DISCARD_LIMIT:
        raise IllegalMove(N_("You may put at most {limit} stones out of the game in one turn."), limit=DISCARD_LIMIT)
    # PD-4 (second edition): a swap returns at most as many stones as the bag holds.
    if len(stones) > len(state.bag):
        if not state.bag:
            raise IllegalMove(N_("The bag is empty, so there is nothing to swap stones for."))
        raise IllegalMove(plural(len(state.bag),
                                 N_("The bag holds only {count} stone, so you can swap at most that many."),
                                 N_("The bag holds only {count} stones, so you can swap at most that many.")),
                          count=len(state.bag))
    hand = state.hands[seat]
    need = Counter(stones)
    have = Counter(hand)
    for colour, n in need.items():
        if have[colour] < n:
            held = have[colour]
            raise IllegalMove(plural(n, N_("You don't hold {count} {colour} stone (you hold {held})."),
                                     N_("You don't hold {count} {colour} stones (you hold {held}).")),
                              count=n, colour=stone_word(colour), held=held)
    for colour in stones:
        hand = remove_one(hand, colour)
    gone = tuple(sort_stones(stones))
    drawn, bag, draw_events = _draw(state, seat, len(stones))
    events = [
        Event("discard", N_("{0} put {stones} out of the game."), (seat,), items=gone, args={"stones": describe(gone)}),
        *draw_events,
    ]
    return _pass_turn(state, seat, hand + drawn, bag, state.out + gone, events)
