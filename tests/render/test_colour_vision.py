"""Every colour pair a player must tell apart stays apart under protanopia,
deuteranopia and tritanopia (Machado 2009 simulation, severity 1): the two
colours are at least THRESHOLD apart in OKLab as simulated; and every piece of those
colours also carries a mark of its own (a shape, dots, a dash pattern), so colour is
never the only cue."""

from __future__ import annotations

from itertools import combinations

import pytest

from render import canvas as cv
from render import dominoes as dm
from render import flaming_pyramids as fp
from render import mahjong as mj
from render import pyramido as pd
from tests.render.colour_vision import MACHADO, distance

#: OKLab distance two colours need to be told apart by colour alone (0.08 is a
#: clearly visible difference between flat areas; 0.02 is about a just-noticeable one).
THRESHOLD = 0.08

RGB = tuple[int, int, int]
#: Per family: its colours and the mark each colour's pieces always carry.
FAMILIES: dict[str, tuple[dict[str, RGB], dict[str, str]]] = {
    "Flaming Pyramids tiles": (fp.COLOURS, fp.SYMBOLS),
    "Pyramido stones": (pd.STONE_COLOURS, pd.STONE_SYMBOLS),
    "Pyrinoes pyramids": (dm.PYRAMID_COLOURS, dm.PYRAMID_MARKS),
    "MahJongg suits": (mj.SUIT_COLOURS, {"B": "bamboo stalks", "C": "seal", "O": "ring"}),
    "Continuous Pyramid levels": ({str(k): v for k, v in mj.LEVEL_EDGES.items()},
                                  {str(k): f"{k - 1} dots" for k in mj.LEVEL_EDGES}),
    "board markers": ({"spot": cv.SPOT, "last": cv.LAST, "gone": cv.GONE, "active": cv.ACTIVE},
                      {"spot": "thin dashes and a letter", "last": "solid ring with a white line",
                       "gone": "dashes and a cross", "active": "filled chip with a ▶"}),
}
def close_pairs() -> set[tuple[str, str, str]]:
    found = set()
    for family, (colours, _) in FAMILIES.items():
        for (a, ca), (b, cb) in combinations(colours.items(), 2):
            if any(distance(ca, cb, kind) < THRESHOLD for kind in MACHADO):
                found.add((family, a, b))
    return found


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_colour_has_its_own_mark(family: str) -> None:
    colours, marks = FAMILIES[family]
    assert set(colours) <= set(marks)
    assert len({marks[c] for c in colours}) == len(colours), "two colours share a mark"


def test_no_two_colours_of_a_family_merge_under_a_deficiency() -> None:
    assert close_pairs() == set()


def test_every_board_marker_stands_out_from_the_card() -> None:
    """The markers are lines drawn on the card (pieces have dark outlines of their own)."""
    colours, _ = FAMILIES["board markers"]
    for name, colour in colours.items():
        for kind in (*MACHADO, "normal"):
            for card in (cv.BG, cv.PANEL, cv.SPOT_FILL):
                assert distance(colour, card, kind) >= THRESHOLD, (name, card, kind)


def test_the_simulation_is_right_for_known_colours() -> None:
    """Pure red and green merge for a deuteranope; blue and yellow stay apart for everyone."""
    assert distance((255, 0, 0), (0, 128, 0), "deuteranopia") < distance((255, 0, 0), (0, 128, 0), "normal")
    for kind in MACHADO:
        assert distance((0, 0, 255), (255, 255, 0), kind) > 0.3
