"""Position JSON <-> state, with the checks a hand-written position needs: known cells
and colours, no floating stone, every token accounted for, ten stones in all.
``lost``, ``passes`` and ``moves`` may be left out (none yet)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.core import BadPosition, Json
from engine.core.validate import options_in, position_object, whole_at
from tests.fifth_game.state import CELL_SET, CELLS, COLOURS, HAND_SIZE, PebbleOptions, PebbleState, supports

KNOWN_KEYS = frozenset(
    {"game", "players", "options", "pyramid", "taken", "lost", "hands", "deck", "discards", "turn", "passes", "moves"}
)


def to_position(state: PebbleState) -> Json:
    return {
        "players": 2,
        "options": {"tokens_per_colour": state.tokens_per_colour},
        "pyramid": dict(state.stones),
        "taken": [list(t) for t in state.taken],
        "lost": list(state.lost),
        "hands": [list(h) for h in state.hands],
        "deck": list(state.deck),
        "discards": list(state.discards),
        "turn": state.turn,
        "passes": state.passes,
        "moves": state.moves,
    }


def from_position(position: Mapping[str, Any]) -> PebbleState:
    position = position_object(position, "Pebble Pyramid", KNOWN_KEYS, players=2)
    options = options_in(position, PebbleOptions)
    stones = _pyramid(position.get("pyramid"))
    taken = _pair(position, "taken")
    hands = _pair(position, "hands")
    if any(len(h) > HAND_SIZE for h in hands):
        raise BadPosition(f"A hand holds at most {HAND_SIZE} tokens.")
    lost = _colours(position.get("lost", []), "'lost'")
    deck = _colours(position.get("deck"), "'deck'")
    discards = _colours(position.get("discards"), "'discards'")
    if len(stones) + len(taken[0]) + len(taken[1]) + len(lost) != len(CELLS):
        raise BadPosition(f"The pyramid and the stones taken and lost must make {len(CELLS)} stones.")
    tokens = Counter([*hands[0], *hands[1], *deck, *discards])
    for colour in COLOURS:
        if tokens[colour] != options.tokens_per_colour:
            raise BadPosition(
                f"There are {tokens[colour]} {colour} tokens in the hands, deck and discards, "
                f"not {options.tokens_per_colour}."
            )
    passes = whole_at(position, "passes", 0, 0, 2)
    if passes and deck:
        raise BadPosition("'passes' counts passes with the deck empty, but the deck is not empty.")
    return PebbleState(
        tokens_per_colour=options.tokens_per_colour,
        stones=stones,
        taken=taken,
        lost=lost,
        hands=hands,
        deck=deck,
        discards=discards,
        turn=whole_at(position, "turn", 0, 0, 1),
        passes=passes,
        moves=whole_at(position, "moves", 0, 0),
    )



def _pyramid(raw: Any) -> tuple[tuple[str, str], ...]:
    if not isinstance(raw, Mapping):
        raise BadPosition("'pyramid' must map cells such as \"0,0\" to colours.")
    for cell, colour in raw.items():
        if cell not in CELL_SET:
            raise BadPosition(f"{cell!r} is not a cell of the pyramid.")
        if colour not in COLOURS:
            raise BadPosition(f"The stone at {cell} has an unknown colour {colour!r}.")
        missing = sorted(supports(cell) - set(raw))
        if missing:
            raise BadPosition(f"The stone at {cell} floats: nothing at {' and '.join(missing)} holds it up.")
    return tuple((cell, raw[cell]) for cell in CELLS if cell in raw)


def _colours(raw: Any, what: str) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(c, str) and c in COLOURS for c in raw):
        raise BadPosition(f"{what} must be a list of colours (R, G, B).")
    return tuple(raw)


def _pair(position: Mapping[str, Any], key: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    raw = position.get(key)
    if not isinstance(raw, list) or len(raw) != 2:
        raise BadPosition(f"'{key}' must be a list with one entry per player (2).")
    return _colours(raw[0], f"'{key}' of player 1"), _colours(raw[1], f"'{key}' of player 2")

