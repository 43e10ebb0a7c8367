"""The 144 tiles (CP-1) and the fit relation (CP-5) as small integers and bitmasks.

Tiles are identified by *type* (0..37); copies of a type are interchangeable, so the
rules and the solver only ever count types. Fit sets are int bitmasks over types so a
cell's "what may go here" is one OR per neighbour and one AND against the reserve.
"""

from __future__ import annotations

from typing import Final

from engine.core.text import N_, Phrase, Word, phrase

SUITS: Final = ("B", "C", "O")
#: Marked for translation: whoever shows a suit's name translates it.
SUIT_NAMES: Final = {"B": N_("Bamboo"), "C": N_("Characters"), "O": N_("Circles")}
WINDS: Final = ("WE", "WS", "WW", "WN")
SEASONS: Final = ("SP", "SU", "AU", "WI")
DRAGONS: Final = ("DR", "DG", "DW")

#: The honours' names (a suited tile is its suit and rank: :func:`tile_name`).
HONOUR_NAMES: Final = {
    "WE": N_("East wind"), "WS": N_("South wind"), "WW": N_("West wind"), "WN": N_("North wind"),
    "SP": N_("Spring"), "SU": N_("Summer"), "AU": N_("Autumn"), "WI": N_("Winter"),
    "DR": N_("Red dragon"), "DG": N_("Green dragon"), "DW": N_("White dragon"),
}

#: Type id -> code; suited first (B1..B9, C1..C9, O1..O9), then winds, seasons, dragons.
CODES: Final[tuple[str, ...]] = (
    tuple(f"{suit}{rank}" for suit in SUITS for rank in range(1, 10)) + WINDS + SEASONS + DRAGONS
)
NUM_TYPES: Final = len(CODES)
TYPE_OF: Final[dict[str, int]] = {code: i for i, code in enumerate(CODES)}

FIRST_WIND: Final = 27
FIRST_SEASON: Final = 31
FIRST_DRAGON: Final = 35

#: Copies of each type in the full set.
COPIES: Final[tuple[int, ...]] = tuple(
    3 if FIRST_WIND <= t < FIRST_DRAGON else 4 for t in range(NUM_TYPES)
)
TOTAL_TILES: Final = sum(COPIES)
ALL_TYPES_MASK: Final = (1 << NUM_TYPES) - 1


def suit(t: int) -> int:
    """0..2 for suited tiles, -1 for honours."""
    return t // 9 if t < FIRST_WIND else -1


def rank(t: int) -> int:
    """1..9 for suited tiles, 0 otherwise."""
    return t % 9 + 1 if t < FIRST_WIND else 0


def is_wind(t: int) -> bool:
    return FIRST_WIND <= t < FIRST_SEASON


def is_season(t: int) -> bool:
    return FIRST_SEASON <= t < FIRST_DRAGON


def is_dragon(t: int) -> bool:
    return t >= FIRST_DRAGON


def fits(x: int, y: int) -> bool:
    """CP-5, symmetric: may ``x`` be played next to ``y``?"""
    if is_dragon(x) or is_dragon(y):
        return True
    sx, sy = suit(x), suit(y)
    if sx >= 0 and sy >= 0:
        return sx != sy and abs(rank(x) - rank(y)) == 1
    if sx >= 0:  # x suited, y honour
        x, y = y, x
        sx, sy = sy, sx
    if sy >= 0:  # x honour, y suited
        return (is_wind(x) and rank(y) == 1) or (is_season(x) and rank(y) == 9)
    return (is_wind(x) and is_season(y)) or (is_season(x) and is_wind(y))


#: FIT[t]: bitmask of the types that may be played next to a ``t``.
FIT: Final[tuple[int, ...]] = tuple(
    sum(1 << x for x in range(NUM_TYPES) if fits(x, y)) for y in range(NUM_TYPES)
)

DRAGON_MASK: Final = sum(1 << t for t in range(FIRST_DRAGON, NUM_TYPES))


def full_set() -> list[int]:
    """Every tile of the game as type ids, in a fixed order (the deal shuffles this)."""
    return [t for t in range(NUM_TYPES) for _ in range(COPIES[t])]


def code(t: int) -> str:
    return CODES[t]


def parse_code(text: str) -> int | None:
    """Type id of a tile code, case-insensitive; None when no tile has that code."""
    return TYPE_OF.get(text.strip().upper())


def tile_name(code: str) -> Phrase | Word | str:
    """A tile as players read it (a text argument, see :mod:`engine.core.text`): its suit and rank as
    its face shows them ("Circles 7"), an honour by its name ("East wind", "White dragon"), never the
    notation's ``O7``, ``WE``, ``DW`` (what typed moves write); anything else as it is."""
    if len(code) == 2 and code[0] in SUIT_NAMES and code[1].isdigit():
        return phrase(N_("{suit} {rank}"), suit=Word(SUIT_NAMES[code[0]]), rank=code[1])
    if code in HONOUR_NAMES:
        return Word(HONOUR_NAMES[code])
    return code
