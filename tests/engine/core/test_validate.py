from __future__ import annotations

import pytest
from pydantic import BaseModel, Field

from engine.core import BadPosition
from engine.core.validate import only_keys, options_in, position_object, whole, whole_at


class _Options(BaseModel):
    size: int = Field(default=3, ge=1, le=5)


@pytest.mark.parametrize(("value", "low", "high", "why"), [
    ("2", None, None, "must be a whole number, not '2'"),
    (True, None, None, "must be a whole number, not True"),
    (7, 2, 6, "must be 2 to 6, not 7"),
    (-1, 0, None, "must be a whole number of at least 0, not -1"),
    (9, None, 8, "must be a whole number of at most 8, not 9"),
])
def test_whole_names_the_problem(value: object, low: int | None, high: int | None, why: str) -> None:
    with pytest.raises(BadPosition, match=why):
        whole(value, "turn", low, high)


def test_whole_at_reads_defaults_and_quotes_the_key() -> None:
    assert whole_at({}, "moves", 4, 0) == 4
    assert whole_at({"moves": 0}, "moves", 4, 0) == 0
    with pytest.raises(BadPosition, match="'moves' must be"):
        whole_at({"moves": -2}, "moves", 0, 0)


def test_only_keys_and_options() -> None:
    only_keys({"a": 1}, ("a", "b"))
    with pytest.raises(BadPosition, match="Unknown position key\\(s\\): 'c', 'd'"):
        only_keys({"d": 1, "c": 2, "a": 3}, ("a",))
    assert options_in({}, _Options).size == 3
    assert options_in({"options": None}, _Options).size == 3
    assert options_in({"options": {"size": 5}}, _Options).size == 5
    with pytest.raises(BadPosition, match="options are not valid \\(size: "):
        options_in({"options": {"size": 9}}, _Options)
    with pytest.raises(BadPosition, match="'options' must be an object"):
        options_in({"options": [1]}, _Options)


def test_position_object_checks_the_envelope() -> None:
    position = {"players": 2, "turn": 0}
    assert position_object(position, "Pyrinoes", ("players", "turn"), players=2) is position
    assert position_object({"turn": 0}, "Pyrinoes", ("players", "turn"), players=2) == {"turn": 0}
    assert position_object({"players": 5}, "Flaming Pyramids", ("players",)) == {"players": 5}
    with pytest.raises(BadPosition, match=r"^A Pyrinoes position must be a JSON object\.$"):
        position_object([1, 2], "Pyrinoes", ("players",))
    with pytest.raises(BadPosition, match="Unknown position key\\(s\\): 'extra'"):
        position_object({"extra": 1}, "Pyrinoes", ("players",))
    with pytest.raises(BadPosition, match=r"^Pyrinoes is for exactly 2 players\.$"):
        position_object({"players": 3}, "Pyrinoes", ("players",), players=2)
    with pytest.raises(BadPosition, match=r"^Solo is for exactly 1 player\.$"):
        position_object({"players": 2}, "Solo", ("players",), players=1)
