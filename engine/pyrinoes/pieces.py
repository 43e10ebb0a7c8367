"""The components (PY-1, PY-2) as precomputed tables.

Every domino spelling and every legal pyrino (in every orientation) is known up front,
so parsing a code is one dictionary look-up and search AIs never pay for string work.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product

from engine.core.text import N_, Phrase, Word, phrase

#: Canonical colour order: a pyrino code lists its ends in this order, so the same
#: pyrino has exactly one code (``G3|R1``, ``Y21|R1``, ``B1|K1``).
COLOUR_ORDER = "GYRBK"
GREEN = "G"
#: Seat 0 is Fire (red, yellow); seat 1 is Ice (blue, black). Supplies are stored as six
#: counts in this colour order: ``[c0 size1, c0 size2, c0 size3, c1 size1, ...]``.
SEAT_COLOURS: tuple[tuple[str, str], tuple[str, str]] = (("R", "Y"), ("B", "K"))
#: Words players read (marked for translation; see :mod:`engine.core.text`).
SIDE_NAMES = (N_("Fire"), N_("Ice"))
COLOUR_NAMES = {"G": N_("green"), "Y": N_("yellow"), "R": N_("red"), "B": N_("blue"), "K": N_("black")}
SIZES = (1, 2, 3)
PER_SIZE = 3  # three trios per colour: three of each size
PYRAMIDS_PER_COLOUR = PER_SIZE * len(SIZES)
TOTAL_PYRAMIDS = PYRAMIDS_PER_COLOUR * len(COLOUR_ORDER)
HAND_SIZE = 9
TOTAL_DOMINOES = 28


# --- dominoes -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Domino:
    """One spelling of a domino: ``a`` is the end written first."""

    code: str
    a: int
    b: int
    key: str  # the spelling-independent identity, high end first: "6-4"

    @property
    def weight(self) -> int:
        return self.a + self.b


def _domino_tables() -> tuple[dict[str, Domino], tuple[str, ...]]:
    spellings: dict[str, Domino] = {}
    for a, b in product(range(7), repeat=2):
        code = f"{a}-{b}"
        spellings[code] = Domino(code, a, b, f"{max(a, b)}-{min(a, b)}")
    full_set = tuple(f"{hi}-{lo}" for hi in range(6, -1, -1) for lo in range(hi, -1, -1))
    return spellings, full_set


DOMINOES, DOMINO_SET = _domino_tables()


def domino(code: str) -> Domino | None:
    """The domino a code names (``"5 - 3"`` and ``"3-5"`` both work), or None."""
    return DOMINOES.get(code.replace(" ", ""))


# --- pyramids -------------------------------------------------------------------------


def pyramid_code(colour: str, size: int) -> str:
    return f"{colour}{size}"


def parse_pyramid(code: str) -> tuple[str, int] | None:
    text = code.strip().upper()
    if len(text) == 2 and text[0] in COLOUR_ORDER and text[1] in "123":
        return text[0], int(text[1])
    return None


# --- pyrino ends and pyrinoes -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class End:
    colour: str
    sizes: tuple[int, ...]  # bottom first, never growing upwards
    code: str = field(init=False, compare=False)
    spots: int = field(init=False, compare=False)  # a green end always counts 0
    pips: int = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", self.colour + "".join(str(s) for s in self.sizes))
        object.__setattr__(self, "pips", sum(self.sizes))
        object.__setattr__(self, "spots", 0 if self.colour == GREEN else self.pips)


def colour_ends(colour: str) -> list[End]:
    """Every end one colour can make: three singles and six stacks (smaller or equal on top)."""
    ends = [End(colour, (s,)) for s in SIZES]
    if colour != GREEN:
        ends += [End(colour, (bottom, top)) for bottom in SIZES for top in SIZES if top <= bottom]
    return ends


@dataclass(frozen=True, slots=True)
class Pyrino:
    """A legal pyrino in canonical form (ends in :data:`COLOUR_ORDER`)."""

    code: str
    ends: tuple[End, End]
    owner: int
    #: Pyramids it uses from the owner's supply, as the six-count supply vector.
    need: tuple[int, ...]
    green_size: int  # 0 when it has no green end
    pips: int  # every pyramid by size, green included (hand totals, PY-6)
    spots: tuple[int, int] = field(init=False, compare=False)  # of the ends, canonical order
    group: tuple[int, int] = field(init=False, compare=False)  # spot counts high first: builds group by it

    def __post_init__(self) -> None:
        a, b = self.ends[0].spots, self.ends[1].spots
        object.__setattr__(self, "spots", (a, b))
        object.__setattr__(self, "group", (a, b) if a >= b else (b, a))

    @property
    def green_pips(self) -> int:
        return self.green_size

    def oriented(self, flipped: bool) -> str:
        """The code as it lies on the line (left end first)."""
        first, second = (self.ends[1], self.ends[0]) if flipped else self.ends
        return f"{first.code}|{second.code}"


def _make_pyrino(first: End, second: End, owner: int) -> Pyrino:
    ends = (first, second) if COLOUR_ORDER.index(first.colour) < COLOUR_ORDER.index(second.colour) else (second, first)
    colours = SEAT_COLOURS[owner]
    need = [0] * 6
    green_size = 0
    for end in ends:
        if end.colour == GREEN:
            green_size = end.sizes[0]
            continue
        slot = colours.index(end.colour)
        for size in end.sizes:
            need[slot * 3 + size - 1] += 1
    return Pyrino(
        code=f"{ends[0].code}|{ends[1].code}",
        ends=ends,
        owner=owner,
        need=tuple(need),
        green_size=green_size,
        pips=ends[0].pips + ends[1].pips,
    )


def _pyrino_tables() -> tuple[dict[str, Pyrino], tuple[tuple[Pyrino, ...], tuple[Pyrino, ...]]]:
    by_code: dict[str, Pyrino] = {}
    per_owner: list[tuple[Pyrino, ...]] = []
    for owner, (c0, c1) in enumerate(SEAT_COLOURS):
        own_ends = colour_ends(c0) + colour_ends(c1)
        pairs = [(a, b) for a in colour_ends(c0) for b in colour_ends(c1)]
        pairs += [(g, e) for g in colour_ends(GREEN) for e in own_ends]
        made = [_make_pyrino(a, b, owner) for a, b in pairs]
        made.sort(key=lambda p: (p.group, p.code))
        for p in made:
            by_code[p.code] = p
        per_owner.append(tuple(made))
    return by_code, (per_owner[0], per_owner[1])


#: Canonical code -> pyrino; and each seat's 135 pyrinoes, sorted by spot group then code.
PYRINOES, OWNER_PYRINOES = _pyrino_tables()


def _spelling_table() -> dict[str, tuple[Pyrino, bool]]:
    """Every accepted spelling -> (pyrino, written right-to-left compared with canonical).

    Accepted: either end first, and a stack written in either order (``Y12`` is the
    same stack as ``Y21``: the rules fix which one is on top)."""
    table: dict[str, tuple[Pyrino, bool]] = {}
    for p in PYRINOES.values():
        spell = [[e.code] + ([e.colour + "".join(str(s) for s in reversed(e.sizes))] if len(e.sizes) == 2 else [])
                 for e in p.ends]
        for a in spell[0]:
            for b in spell[1]:
                table[f"{a}|{b}"] = (p, False)
                table.setdefault(f"{b}|{a}", (p, True))
    return table


PYRINO_SPELLINGS = _spelling_table()


def pyrino(code: str) -> tuple[Pyrino, bool] | None:
    """The pyrino a spelling names and whether it is written flipped, or None."""
    return PYRINO_SPELLINGS.get(code.replace(" ", "").upper())


def end_words(end: End) -> Phrase:
    """One end of a pyrino as the picture shows it: its colour's word and its pyramids' pips,
    bottom first ("blue 3+2")."""
    return phrase(N_("{colour} {sizes}"), colour=Word(COLOUR_NAMES[end.colour]),
                  sizes="+".join(str(s) for s in end.sizes))


def pyramid_words(colour: str, size: int) -> Phrase:
    """One pyramid as the picture shows it: its colour's word and its pips ("red 2", never ``R2``)."""
    return phrase(N_("{colour} {sizes}"), colour=Word(COLOUR_NAMES[colour]), sizes=str(size))


def piece_name(code: str) -> object:
    """A piece as players read it (a text argument, see :mod:`engine.core.text`): a pyrino by
    its two ends in words, in the order the code writes them ("blue 3+2 · black 3+1", never
    ``B32|K31``); a domino by its spots, as the picture draws them (``6-4``)."""
    found = pyrino(code)
    if found is None:
        return code
    piece, flipped = found
    first, second = (piece.ends[1], piece.ends[0]) if flipped else piece.ends
    return phrase(N_("{first} · {second}"), first=end_words(first), second=end_words(second))


def explain_bad_pyrino(code: str) -> Phrase:
    """Why a pyrino spelling is not a pyrino at all, in words a player can read."""
    text = code.replace(" ", "").upper()
    parts = text.split("|")
    if len(parts) != 2 or not all(parts):
        return phrase(N_("{code} is not a pyrino: write its two ends joined by |, e.g. Y21|R1."), code=text)
    ends: list[tuple[str, str]] = []
    for part in parts:
        colour, sizes = part[0], part[1:]
        if colour not in COLOUR_ORDER:
            return phrase(N_("{end} is not a pyrino end: colours are R, Y, B, K and G."), end=part)
        if not sizes or len(sizes) > 2 or any(s not in "123" for s in sizes):
            return phrase(N_("{end} is not a pyrino end: an end is one pyramid or a stack of two (sizes 1-3), "
                             "e.g. Y21."), end=part)
        if colour == GREEN and len(sizes) == 2:
            return phrase(N_("{end} is not a pyrino end: a green end is a single pyramid."), end=part)
        ends.append((colour, sizes))
    (ca, _), (cb, _) = ends
    if ca == cb:
        return phrase(N_("{code} is not a pyrino: its two ends must be different colours."), code=text)
    if GREEN in (ca, cb):
        return phrase(N_("{code} is not a pyrino: the end beside green must be one player's colour."), code=text)
    return phrase(N_("{code} is not a pyrino: its ends must be one player's two colours (red and yellow, or blue "
                     "and black)."), code=text)


def supply_codes(seat: int, counts: tuple[int, ...]) -> list[str]:
    colours = SEAT_COLOURS[seat]
    return [pyramid_code(colours[i // 3], i % 3 + 1) for i, n in enumerate(counts) for _ in range(n)]


def green_codes(counts: tuple[int, ...]) -> list[str]:
    return [pyramid_code(GREEN, i + 1) for i, n in enumerate(counts) for _ in range(n)]


FULL_SUPPLY: tuple[int, ...] = (PER_SIZE,) * 6
FULL_GREEN: tuple[int, ...] = (PER_SIZE,) * 3
