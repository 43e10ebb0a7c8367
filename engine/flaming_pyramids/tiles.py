"""The tile table (FP-1): the one place that knows what each of the 45 tiles is.

Everything else reads the lookup maps derived here, so a different printing's numbers
are a one-line change to :data:`REGULAR_WEIGHTS` or :data:`SPECIAL_TILES`.

The table is partly inferred (FP-1 clarification, second edition): the seeds attest
the weights 1, 2, (4), 6, 7, 10, 20, 30, 40, 60, 100, 120, 200, green Coals and a blue
Blowtorch; the second Coal's and Blowtorch's colours (Y1, R7) and the materials of 4,
6 and 60 are the ruling's. That is why they are data here and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.core.text import N_, phrase

#: Colour letters of the regular tiles; the Millstone has all of them.
COLOURS: Final[str] = "RGBY"
COLOUR_NAMES: Final[dict[str, str]] = {"R": N_("red"), "G": N_("green"), "B": N_("blue"), "Y": N_("yellow")}
#: A tile's name by its colour, as a name is written (capitalised): "Green 60" (:meth:`Tile.name`).
TILE_NAMES: Final[dict[str, str]] = {"R": N_("Red {weight}"), "G": N_("Green {weight}"), "B": N_("Blue {weight}"),
                                     "Y": N_("Yellow {weight}")}

#: Weight -> material of the regular tiles (one of each weight in every colour).
REGULAR_WEIGHTS: Final[dict[int, str]] = {
    2: "straw", 4: "straw", 6: "straw", 10: "straw",
    20: "wood", 30: "wood", 40: "wood", 60: "wood",
    100: "stone", 120: "stone",
}  # fmt: skip

#: The special tiles: (code, colours, weight, material, kind).
SPECIAL_TILES: Final[tuple[tuple[str, str, int, str, str], ...]] = (
    ("G1", "G", 1, "incendiary", "coal"),
    ("Y1", "Y", 1, "incendiary", "coal"),
    ("R7", "R", 7, "incendiary", "blowtorch"),
    ("B7", "B", 7, "incendiary", "blowtorch"),
    ("M200", COLOURS, 200, "stone", "millstone"),
)

#: What each kind of incendiary sets on fire (FP-6 check 4).
IGNITES: Final[dict[str, frozenset[str]]] = {
    "coal": frozenset({"straw"}),
    "blowtorch": frozenset({"straw", "wood"}),
}


@dataclass(frozen=True, slots=True)
class Tile:
    code: str
    colours: str
    weight: int
    material: str
    kind: str  # "regular", "coal", "blowtorch" or "millstone"

    @property
    def incendiary(self) -> bool:
        return self.kind in IGNITES

    def describe(self) -> str:
        """A name for narration: 'Coal Y1', 'Blowtorch B7', 'Millstone M200', or the bare code."""
        if self.kind == "regular":
            return self.code
        return f"{self.kind.capitalize()} {self.code}"

    def name(self) -> object:
        """The tile as players read it, a text argument (:mod:`engine.core.text`): its colour
        word and weight as the picture shows them ("Green 60", "Coal Yellow 1", "Millstone
        200"), translated where shown, so no language reads a code's letter as its own
        colour ("Kohle G1": G reads as Gelb). The code stays the notation's."""
        plain: object = (str(self.weight) if len(self.colours) != 1 else
                         phrase(TILE_NAMES[self.colours], weight=self.weight))
        template = _KIND_NAMES.get(self.kind)
        return plain if template is None else phrase(template, code=plain)


#: The special tiles' names in narration ('Coal Y1'); see :meth:`Tile.describe`.
_KIND_NAMES: Final[dict[str, str]] = {
    "coal": N_("Coal {code}"),
    "blowtorch": N_("Blowtorch {code}"),
    "millstone": N_("Millstone {code}"),
}

#: Materials as words players read (the tile table keeps the English keys).
MATERIAL_NAMES: Final[dict[str, str]] = {"straw": N_("straw"), "wood": N_("wood"), "stone": N_("stone"),
                                         "incendiary": N_("incendiary")}


def _build() -> tuple[Tile, ...]:
    tiles = [
        Tile(f"{colour}{weight}", colour, weight, material, "regular")
        for colour in COLOURS
        for weight, material in REGULAR_WEIGHTS.items()
    ]
    tiles.extend(Tile(*row) for row in SPECIAL_TILES)
    return tuple(tiles)


#: Every tile, regular tiles first (by colour, then weight), then the specials.
TILES: Final[tuple[Tile, ...]] = _build()
TILE: Final[dict[str, Tile]] = {t.code: t for t in TILES}
ALL_CODES: Final[frozenset[str]] = frozenset(TILE)
TILE_COUNT: Final[int] = len(TILES)

# Flat lookups for the hot loops (one dict hit each, no attribute access).
WEIGHT: Final[dict[str, int]] = {t.code: t.weight for t in TILES}
COLOUR_MASK: Final[dict[str, int]] = {
    t.code: sum(1 << COLOURS.index(c) for c in t.colours) for t in TILES
}
MATERIAL: Final[dict[str, str]] = {t.code: t.material for t in TILES}
INCENDIARY: Final[frozenset[str]] = frozenset(t.code for t in TILES if t.incendiary)
#: For each incendiary, the set of tile codes it can ignite.
IGNITABLE: Final[dict[str, frozenset[str]]] = {
    t.code: frozenset(u.code for u in TILES if u.material in IGNITES[t.kind]) for t in TILES if t.incendiary
}


def tile_table() -> dict[str, dict[str, object]]:
    """The table as plain data for the renderer and the bot: code -> colours, weight,
    material, kind and (for incendiaries) what it ignites."""
    table: dict[str, dict[str, object]] = {}
    for t in TILES:
        row: dict[str, object] = {
            "colours": t.colours,
            "weight": t.weight,
            "material": t.material,
            "kind": t.kind,
        }
        if t.incendiary:
            row["ignites"] = sorted(IGNITES[t.kind])
        table[t.code] = row
    return table


def normalise_code(text: str) -> str | None:
    """The canonical code for a player's spelling ('r40', ' m200 '), or None if unknown."""
    code = text.strip().upper()
    return code if code in TILE else None
