from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from engine.pyrinoes.notation import parse_move
from engine.pyrinoes.pieces import DOMINO_SET, OWNER_PYRINOES, PYRINOES, domino, pyrino


def test_full_sets() -> None:
    assert len(DOMINO_SET) == 28 == len(set(DOMINO_SET))
    assert [len(OWNER_PYRINOES[s]) for s in (0, 1)] == [135, 135]
    assert len(PYRINOES) == 270


@pytest.mark.parametrize("seat", [0, 1])
def test_pyrinoes_stand_in_for_every_domino_but_double_blank(seat: int) -> None:
    groups = {p.group for p in OWNER_PYRINOES[seat]}
    values = {(hi, lo) for hi in range(7) for lo in range(hi + 1)}
    assert groups == values - {(0, 0)}


def test_canonical_codes_and_spellings() -> None:
    for spelling in ("Y21|R1", "R1|Y21", "r1 | y12", "Y12|R1"):
        found = pyrino(spelling)
        assert found is not None and found[0].code == "Y21|R1"
    p, flipped = pyrino("R1|G3") or (None, False)
    assert p is not None and p.code == "G3|R1" and flipped
    assert p.spots == (0, 1) and p.pips == 4 and p.green_pips == 3
    assert pyrino("K1|B1") == (PYRINOES["B1|K1"], True)
    for bad in ("R1|R2", "B1|R1", "G1|G2", "G21|R1", "R111|Y1", "R4|Y1", "R1", "R1|Y1|B1"):
        assert pyrino(bad) is None


def test_dominoes() -> None:
    d = domino("5 - 3")
    assert d is not None and d.key == "5-3" and d.weight == 8
    assert domino("3-5") is not None and domino("3-5").key == "5-3"  # type: ignore[union-attr]
    assert domino("7-1") is None


@pytest.mark.parametrize(
    "text",
    ["", "jump", "draw 1", "play", "build", "play 6-4 sideways", "build 6-4", "build R1|R2", "play Q1|R1 left",
     "build G21|R1", "build R1Y1"],
)
def test_bad_notation_is_refused_with_a_reason(text: str) -> None:
    with pytest.raises(IllegalMove) as info:
        parse_move(text)
    assert info.value.reason.strip()


def test_notation_is_lenient_about_case_and_space() -> None:
    move = parse_move("  PLAY   y21 | r1   LEFT ")
    assert move.kind == "play" and move.pyrino is not None and move.pyrino.code == "Y21|R1" and move.side == "left"
    assert parse_move("Draw").kind == "draw"
