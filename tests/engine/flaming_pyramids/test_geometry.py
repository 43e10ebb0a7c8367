"""FP-2 geometry and FP-3 open spaces."""

from __future__ import annotations

from engine.flaming_pyramids import GAME, open_spaces
from engine.flaming_pyramids.geometry import Cell, parse_cell, scan_sorted, touching
from engine.flaming_pyramids.geometry import open_spaces as open_cells

from .helpers import load


def _pyr(*cells: Cell) -> dict[Cell, str]:
    codes = ["R2", "R4", "R6", "R10", "R20", "R30", "R40", "R60", "R100", "R120", "G2", "G4"]
    return {c: codes[i] for i, c in enumerate(cells)}


def test_fp2_touching_is_symmetric_and_six() -> None:
    cell = (2, 3)
    around = touching(cell)
    assert set(around) == {(2, 2), (2, 4), (1, 3), (1, 4), (3, 2), (3, 3)}
    for other in around:
        assert cell in touching(other)


def test_fp2_scan_order_top_row_first_then_left() -> None:
    assert scan_sorted([(0, 1), (1, 0), (0, -1), (2, 5), (1, -3)]) == [(2, 5), (1, -3), (1, 0), (0, -1), (0, 1)]


def test_cell_text_parsing() -> None:
    assert parse_cell("1,0") == (1, 0)
    assert parse_cell(" 0 , -2 ") == (0, -2)
    assert parse_cell("1;0") is None
    assert parse_cell("a,b") is None


def test_fp3_empty_table() -> None:
    assert open_cells({}) == [(0, 0)]


def test_fp3_single_tile_extends_both_ways() -> None:
    assert open_cells(_pyr((0, 0))) == [(0, -1), (0, 1)]


def test_fp3_two_supports_make_a_space() -> None:
    assert open_cells(_pyr((0, 0), (0, 1))) == [(1, 0)]


def test_fp3_complete_pyramid_extends() -> None:
    assert open_cells(_pyr((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 0))) == [(0, -1), (0, 3)]


def test_fp3_base_gaps_and_upper_spaces_together_in_scan_order() -> None:
    pyr = _pyr((0, 0), (0, 1), (0, 3), (0, 6), (0, 7), (1, 6))
    assert open_cells(pyr) == [(1, 0), (0, 2), (0, 4), (0, 5)]


def test_fp3_only_full_support_pairs() -> None:
    # (1,0) and (1,2) with (1,1) empty: nothing opens on row 2; the base gap and (1,1) do.
    pyr = _pyr((0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 2))
    assert open_cells(pyr) == [(1, 1)]


def test_open_spaces_helper_and_legal_moves_agree() -> None:
    state = load(pyramid={"0,0": "R40", "0,2": "B20"}, hands=[["G4", "R6"], ["Y4"]])
    assert open_spaces(state) == ["0,1"]
    assert GAME.legal_moves(state) == ["play R6 0,1", "play G4 0,1"]


def test_open_spaces_helper_is_empty_during_a_fall() -> None:
    state = load(pyramid={"0,0": "B30", "0,1": "R4"}, hands=[["Y60", "G2"], ["R2"]])
    state, _ = GAME.play(state, 0, "play Y60 1,0")
    assert open_spaces(state) == []
    assert GAME.legal_moves(state) == ["fall left", "fall right"]
