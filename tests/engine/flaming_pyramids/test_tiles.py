"""FP-1: the tile table."""

from __future__ import annotations

from collections import Counter

from engine.flaming_pyramids import tile_info, tile_table
from engine.flaming_pyramids.tiles import ALL_CODES, COLOUR_MASK, IGNITABLE, INCENDIARY, TILES, normalise_code


def test_fp1_forty_five_unique_tiles() -> None:
    assert len(TILES) == 45
    assert len(ALL_CODES) == 45


def test_fp1_regular_tiles() -> None:
    regular = [t for t in TILES if t.kind == "regular"]
    assert len(regular) == 40
    assert Counter(t.colours for t in regular) == {"R": 10, "G": 10, "B": 10, "Y": 10}
    assert sorted({t.weight for t in regular}) == [2, 4, 6, 10, 20, 30, 40, 60, 100, 120]
    for t in regular:
        expected = "straw" if t.weight <= 10 else "wood" if t.weight <= 60 else "stone"
        assert t.material == expected, t
        assert t.code == f"{t.colours}{t.weight}"


def test_fp1_specials() -> None:
    assert {c: (tile_info(c).weight, tile_info(c).kind) for c in ("G1", "Y1", "R7", "B7", "M200")} == {
        "G1": (1, "coal"),
        "Y1": (1, "coal"),
        "R7": (7, "blowtorch"),
        "B7": (7, "blowtorch"),
        "M200": (200, "millstone"),
    }
    assert {"G1", "Y1", "R7", "B7"} == INCENDIARY
    assert tile_info("M200").material == "stone"
    assert tile_info("G1").describe() == "Coal G1"
    assert tile_info("R40").describe() == "R40"


def test_fp1_millstone_has_every_colour() -> None:
    for code in ALL_CODES:
        assert COLOUR_MASK["M200"] & COLOUR_MASK[code]


def test_fp1_what_incendiaries_ignite() -> None:
    straw = {t.code for t in TILES if t.material == "straw"}
    wood = {t.code for t in TILES if t.material == "wood"}
    assert IGNITABLE["G1"] == straw == IGNITABLE["Y1"]
    assert IGNITABLE["R7"] == straw | wood == IGNITABLE["B7"]


def test_tile_table_helper_is_plain_data() -> None:
    table = tile_table()
    assert len(table) == 45
    assert table["R40"] == {"colours": "R", "weight": 40, "material": "wood", "kind": "regular"}
    assert table["M200"]["colours"] == "RGBY"
    assert table["B7"]["ignites"] == ["straw", "wood"]
    assert table["G1"]["ignites"] == ["straw"]


def test_codes_are_case_insensitive() -> None:
    assert normalise_code(" m200 ") == "M200"
    assert normalise_code("r40") == "R40"
    assert normalise_code("R8") is None
