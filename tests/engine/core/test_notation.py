from __future__ import annotations

import pytest

from engine.core.notation import cell_parts, cells_in, is_cell


@pytest.mark.parametrize(("text", "parts"), [
    ("1,0", (None, 1, 0)),
    ("0,-1", (None, 0, -1)),
    ("1:4,4", (1, 4, 4)),
    (" 2 : 1 , 0 ", (2, 1, 0)),
    ("1:4", None),
    ("4,4,4", None),
    ("a,b", None),
    ("1:1234567,0", None),
    ("9" * 5000 + ",0", None),
])
def test_cell_parts(text: str, parts: tuple[int | None, int, int] | None) -> None:
    assert cell_parts(text) == parts


def test_cells_in_moves() -> None:
    assert cells_in(["play R6 1,0", "fall left", "place R 2:1,0", "play 6-4 L"]) == ["1,0", "2:1,0"]
    assert is_cell("3,0") and not is_cell("L")
