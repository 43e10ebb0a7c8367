"""Stone data (PD-1) and the fixed numbers of the three ways to play.

Kept apart from the rules so the renderer and the bot can read colours and sizes
without importing the game logic.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.core.text import N_, Word, and_list

#: The five colours in the order the rules list them; every sorted list uses it.
COLOURS: tuple[str, ...] = ("R", "Y", "G", "B", "W")
COLOUR_NAMES: dict[str, str] = {"R": N_("red"), "Y": N_("yellow"), "G": N_("green"), "B": N_("blue"),
                                 "W": N_("white")}
COLOUR_INDEX: dict[str, int] = {c: i for i, c in enumerate(COLOURS)}

#: Stones per colour in the full box (65 stones) and in the small edition (40).
PER_COLOUR_FULL = 13
PER_COLOUR_SMALL = 8

MODES: tuple[str, ...] = ("solo", "coop", "competitive")
#: Stones a solo/coop player refills to at the end of a turn (PD-4).
HAND_SIZE: dict[str, int] = {"solo": 6, "coop": 3}
#: Most stones one swap may put out of the game (PD-4).
DISCARD_LIMIT = 3
RESERVE_LIMIT = 5
QUARRY_SIZE = 5


def per_colour(mode: str, size: int) -> int:
    """The small edition (40 stones) goes with the 4×4 solo/coop pyramid only; the
    competitive 4×4 pyramid is built from the full box."""
    return PER_COLOUR_SMALL if mode != "competitive" and size == 4 else PER_COLOUR_FULL


def full_set(per: int) -> list[str]:
    return [c for c in COLOURS for _ in range(per)]


def pyramid_total(size: int) -> int:
    """Stones in a complete stepped pyramid: 5 -> 55, 4 -> 30, 3 -> 14."""
    return sum(k * k for k in range(1, size + 1))


def competitive_size(players: int) -> int:
    return 4 if players == 2 else 3


def sort_stones(stones: Iterable[str]) -> list[str]:
    return sorted(stones, key=COLOUR_INDEX.__getitem__)


def counts(stones: Iterable[str]) -> dict[str, int]:
    result = dict.fromkeys(COLOURS, 0)
    for s in stones:
        result[s] += 1
    return result


def stone_word(colour: str) -> object:
    """A stone as players read it: its colour's word, translated where it is shown ("white",
    "weiß"), never the notation's letter ("W"). A text argument (see :mod:`engine.core.text`)."""
    name = COLOUR_NAMES.get(colour)
    return colour if name is None else Word(name)


def describe(stones: Iterable[str]) -> object:
    """'red, yellow and green' for narration (a text argument, see :mod:`engine.core.text`)."""
    items = [stone_word(s) for s in stones]
    if not items:
        return Word(N_("nothing"))
    return and_list(items)
