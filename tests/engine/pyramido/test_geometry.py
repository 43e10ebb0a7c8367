"""Building rules (PD-2, PD-3) at the level of the geometry helpers."""

from __future__ import annotations

import pytest

from engine.pyramido import cell_colours, footprint, legal_cells, level_grids, missing, open_cells
from engine.pyramido.geometry import check_place, colours_for, matching

CROSS = {"1:2,2": "R", "1:1,2": "Y", "1:3,2": "G", "1:2,1": "B", "1:2,3": "W"}
FORCED = {"1:0,0": "G", "1:1,0": "B", "1:2,0": "W", "1:0,1": "G", "1:1,1": "R", "1:2,1": "B",
          "1:0,2": "Y", "1:1,2": "Y", "1:2,2": "R", "2:0,0": "G", "2:1,0": "B", "2:0,1": "Y"}


@pytest.mark.parametrize(
    ("square", "expected"),
    [
        ("RRRR", ("R",)),
        ("RRRY", ("R",)),
        ("RRYG", ("R",)),
        ("RYRY", ("R", "Y")),
        ("WBWB", ("B", "W")),
        ("RYGB", ("R", "Y", "G", "B")),
    ],
)
def test_matching(square: str, expected: tuple[str, ...]) -> None:
    assert matching(list(square)) == expected


def test_cross_open_cells_and_colours() -> None:
    cells = open_cells(CROSS, 5)
    assert "1:1,1" in cells and "1:0,0" not in cells and "2:1,1" not in cells
    # 1:1,1 completes Y-B-R + ?: G and W would make four colours.
    assert cell_colours(CROSS, 5, "1:1,1") == ["R", "Y", "B"]
    assert cell_colours(CROSS, 5, "1:0,0") == []
    assert cell_colours(CROSS, 5, "nonsense") == []
    assert "1:1,1" not in legal_cells(CROSS, 5, "G")
    assert "1:1,1" in legal_cells(CROSS, 5, "r")


def test_forced_exception_only_above_level_one() -> None:
    from engine.pyramido.helpers import _cells

    inner = _cells(FORCED)
    assert colours_for(inner, (2, 1, 1)) == ("R",)
    assert check_place(inner, 5, (2, 1, 1), "R") is None


def test_level_grids_and_footprint() -> None:
    pyramid = dict(CROSS, **{"1:1,1": "R", "2:1,1": "R"})
    grids = level_grids(pyramid)
    assert [g["level"] for g in grids] == [1, 2]
    base = grids[0]
    assert (base["x"], base["y"], base["width"], base["height"]) == (1, 1, 3, 3)
    assert base["rows"][0] == ["R", "B", None]
    assert grids[1]["rows"] == [["R"]]
    assert footprint(pyramid) == (1, 1, 3, 3)
    assert missing(pyramid, 5) == 55 - 7


def test_footprint_limit_in_both_directions() -> None:
    row = {f"1:{x},0": "R" for x in range(5)}
    assert cell_colours(row, 5, "1:5,0") == []
    assert cell_colours(row, 5, "1:-1,0") == []
    assert cell_colours(row, 5, "1:0,1") == ["R", "Y", "G", "B", "W"]
    assert cell_colours(row, 4, "1:0,1") == []  # already wider than 4
