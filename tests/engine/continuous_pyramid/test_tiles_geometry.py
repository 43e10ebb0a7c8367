"""CP-1 tiles and fits, CP-2 layout."""

from __future__ import annotations

from collections import Counter

from engine.continuous_pyramid.geometry import (
    BELOW,
    CELL_INDEX,
    CELLS,
    CENTRE,
    NAMES,
    NUM_CELLS,
    OPEN_NEEDS,
    SIDES,
    TOP,
    cell_name,
    describe_missing_cell,
    geometry,
    geometry_table,
    parse_cell,
)
from engine.continuous_pyramid.tiles import CODES, COPIES, FIT, NUM_TYPES, TOTAL_TILES, TYPE_OF, fits, full_set


def t(code: str) -> int:
    return TYPE_OF[code]


def test_set_has_144_tiles_in_the_right_copies() -> None:
    assert TOTAL_TILES == 144 == len(full_set())
    counts = Counter(CODES[x] for x in full_set())
    assert counts["B5"] == 4 and counts["DR"] == 4 and counts["WE"] == 3 and counts["SP"] == 3
    assert sum(COPIES[x] for x in range(NUM_TYPES) if CODES[x][0] in "BCO" and CODES[x][1].isdigit()) == 108


def test_fit_relation_is_symmetric_and_matches_cp5() -> None:
    for x in range(NUM_TYPES):
        for y in range(NUM_TYPES):
            assert fits(x, y) == fits(y, x)
            assert bool(FIT[y] >> x & 1) == fits(x, y)
    assert fits(t("C4"), t("B5")) and fits(t("O6"), t("B5"))
    assert not fits(t("B4"), t("B5")) and not fits(t("C7"), t("B5"))
    assert fits(t("WE"), t("O1")) and fits(t("WE"), t("SP")) and not fits(t("WE"), t("WS"))
    assert fits(t("SU"), t("C9")) and fits(t("SU"), t("WN")) and not fits(t("SU"), t("AU"))
    assert not fits(t("WE"), t("B9")) and not fits(t("SP"), t("B1"))
    assert all(fits(t("DG"), y) for y in range(NUM_TYPES))


def test_layout_has_77_45_21_1_cells_without_corners() -> None:
    levels = Counter(cell.level for cell in CELLS)
    assert (NUM_CELLS, levels[1], levels[2], levels[3], levels[4]) == (144, 77, 45, 21, 1)
    for level, n in ((1, 9), (2, 7), (3, 5)):
        for r, c in ((0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)):
            assert cell_name(level, r, c) not in CELL_INDEX
    assert NAMES[CENTRE] == "1:4,4"


def test_upper_cells_sit_on_the_cell_one_row_and_col_in() -> None:
    assert NAMES[BELOW[CELL_INDEX["2:3,3"]]] == "1:4,4"
    assert NAMES[BELOW[CELL_INDEX["2:0,1"]]] == "1:1,2"
    assert NAMES[BELOW[CELL_INDEX["3:2,2"]]] == "2:3,3"
    # CP-2 (second edition): level 4 rests on the level-3 centre, as the seed has it
    assert NAMES[BELOW[CELL_INDEX["4:0,0"]]] == "3:2,2"
    for cell in CELLS:
        if cell.below is not None:
            assert TOP[cell.below] == cell.index
            assert len(OPEN_NEEDS[cell.index]) == 5


def test_parse_cell_is_lenient_about_spaces_only() -> None:
    assert parse_cell(" 1 : 4 , 4 ") == CENTRE
    assert parse_cell("1:0,0") is None and parse_cell("14,4") is None and parse_cell("4:0,0") == NUM_CELLS - 1


def test_geometry_table_lists_every_cell() -> None:
    table = geometry_table()
    assert len(table) == 144
    top = table[-1]
    assert top["cell"] == "4:0,0" and top["below"] == "3:2,2" and top["sides"] == []
    first = geometry_table(1)[-1]
    assert first["cell"] == "4:0,0" and first["below"] == "3:1,1"


def test_editions_differ_only_around_the_top_cell() -> None:
    """Games stored before the second edition replay on the first edition's tables;
    every relation that does not involve the top cell is the same in both."""
    old, new = geometry(1), geometry(2)
    top = CELL_INDEX["4:0,0"]
    centre3, old3 = CELL_INDEX["3:2,2"], CELL_INDEX["3:1,1"]
    assert old.below[top] == old3 and new.below[top] == centre3
    assert old.top[old3] == top and old.top[centre3] == -1
    assert new.top[centre3] == top and new.top[old3] == -1
    assert new.open_needs[top] == (centre3, *SIDES[centre3])
    assert new.fit_neighbours[top] == (centre3,)
    for c in range(NUM_CELLS):
        if c not in (top, centre3, old3):
            assert old.below[c] == new.below[c] and old.top[c] == new.top[c]
            assert old.fit_neighbours[c] == new.fit_neighbours[c]
            assert old.open_needs[c] == new.open_needs[c]


def test_oversize_numbers_are_not_cells() -> None:
    """A 5000-digit number must be refused with a sentence, not an internal error."""
    huge = "9" * 5000
    assert parse_cell(f"{huge}:1,1") is None
    assert "is not a cell" in describe_missing_cell(f"1:{huge},1").english()
    assert len(describe_missing_cell(f"1:{huge},1").english()) < 120
