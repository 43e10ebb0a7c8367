"""Pebble Pyramid's turns: ``take <colour> <cell>``, ``pass <colour>`` and ``pass``.

Take: spend a token from your hand on a free stone and take it off the pyramid; it
is yours when the colours match, and lost otherwise. Pass: discard a token, or pass
with an empty hand. Either way, draw a token if the deck has one. Every free stone is
open to every token, so the cells a player may take are public (the board letters
them for everyone) while the colours they can spend stay in their hand.
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, IllegalMove
from engine.core.notation import refuse_oversize
from tests.fifth_game.state import CELL_SET, COLOUR_NAMES, COLOURS, PebbleState, with_seat, without_one

EXAMPLES = "take R 3,0, pass G or pass"


def legal_moves(state: PebbleState) -> list[str]:
    if state.over:
        return []
    colours = [colour for colour in COLOURS if colour in state.hands[state.turn]]
    if not colours:
        return ["pass"]
    takes = [f"take {colour} {cell}" for colour in colours for cell in state.free_cells()]
    return [*takes, *(f"pass {colour}" for colour in colours)]


def apply_move(state: PebbleState, seat: int, text: str) -> tuple[PebbleState, list[Event]]:
    refuse_oversize(text, "take R 3,0")
    words = text.split()
    if not words:
        raise IllegalMove(f"That is not a move. Moves look like: {EXAMPLES}.")
    verb, rest = words[0].lower(), words[1:]
    if verb == "take":
        after, events = _take(state, seat, rest)
    elif verb == "pass":
        after, events = _pass(state, seat, rest)
    else:
        raise IllegalMove(f"'{words[0][:12]}' is not a move. Moves look like: {EXAMPLES}.")
    return _end_turn(after, seat, events)


def _colour(word: str) -> str:
    colour = word.upper()
    if colour not in COLOURS:
        raise IllegalMove(f"'{word[:12]}' is not a colour: the colours are R (red), G (green) and B (blue).")
    return colour


def _take(state: PebbleState, seat: int, rest: list[str]) -> tuple[PebbleState, list[Event]]:
    if len(rest) != 2:
        raise IllegalMove("Say which token to spend and which stone to take, e.g. take R 3,0.")
    colour, cell = _colour(rest[0]), rest[1]
    if cell not in CELL_SET:
        raise IllegalMove(f"'{cell[:12]}' is not a cell of the pyramid: cells are row,column from 0,0 to 3,0.")
    stone = state.stone_at(cell)
    if stone is None:
        raise IllegalMove(f"There is no stone left at {cell}.")
    if cell not in state.free_cells():
        raise IllegalMove(f"The stone at {cell} is not free: another stone rests on it.")
    hand = state.hands[seat]
    if colour not in hand:
        raise IllegalMove(f"You hold no {COLOUR_NAMES[colour]} token to spend.")
    kept = stone == colour
    after = replace(
        state,
        stones=tuple(pair for pair in state.stones if pair[0] != cell),
        taken=with_seat(state.taken, seat, (*state.taken[seat], stone)) if kept else state.taken,
        lost=state.lost if kept else (*state.lost, stone),
        hands=with_seat(state.hands, seat, without_one(hand, colour)),
        discards=(*state.discards, colour),
        passes=0,
    )
    token, name = COLOUR_NAMES[colour], COLOUR_NAMES[stone]
    text = (
        f"{{0}} spent a {token} token and took the {name} stone at {cell}."
        if kept
        else f"{{0}} spent a {token} token on the {name} stone at {cell}, which is lost."
    )
    return after, [Event("take", text, players=(seat,), cells=(cell,), items=(stone,), data={"kept": kept})]


def _pass(state: PebbleState, seat: int, rest: list[str]) -> tuple[PebbleState, list[Event]]:
    hand = state.hands[seat]
    passes = state.passes + 1 if not state.deck else 0
    if not hand:
        if rest:
            raise IllegalMove("You hold no tokens, so there is nothing to discard: just pass.")
        after = replace(state, passes=passes)
        return after, [Event("pass", "{0} holds no tokens and passed.", players=(seat,))]
    if len(rest) != 1:
        raise IllegalMove("Say which token to discard when you pass, e.g. pass G.")
    colour = _colour(rest[0])
    if colour not in hand:
        raise IllegalMove(f"You hold no {COLOUR_NAMES[colour]} token to discard.")
    after = replace(
        state,
        hands=with_seat(state.hands, seat, without_one(hand, colour)),
        discards=(*state.discards, colour),
        passes=passes,
    )
    event = Event(
        "pass",
        f"{{0}} passed, discarding a {COLOUR_NAMES[colour]} token.",
        players=(seat,),
        items=(colour,),
    )
    return after, [event]


def _end_turn(state: PebbleState, seat: int, events: list[Event]) -> tuple[PebbleState, list[Event]]:
    if state.deck:
        token, deck = state.deck[0], state.deck[1:]
        state = replace(state, deck=deck, hands=with_seat(state.hands, seat, (*state.hands[seat], token)))
        events.append(Event("draw", f"{{0}} drew a token ({len(deck)} left in the deck).", players=(seat,)))
        events.append(
            Event("drew", f"{{0}} drew a {COLOUR_NAMES[token]} token.", players=(seat,), items=(token,),
                  visible_to=seat)
        )
    return replace(state, turn=1 - seat, moves=state.moves + 1), events
