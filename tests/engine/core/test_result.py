"""Result JSON: one writer, and a reader for every shape stored so far."""

from __future__ import annotations

import pytest

from engine.core import BadPosition, Result


def test_to_json_keeps_the_stored_shape_and_adds_resigned_only_when_set() -> None:
    plain = Result((1,), (3.0, 5.0), "{1} wins.", {"rounds": 2.0})
    assert plain.to_json() == {"winners": [1], "scores": [3.0, 5.0], "summary": "{1} wins.",
                               "details": {"rounds": 2.0}}
    left = Result((1,), summary="{0} left the game.", resigned=(0,))
    assert left.to_json() == {"winners": [1], "scores": [], "summary": "{0} left the game.", "details": {},
                              "resigned": [0]}


@pytest.mark.parametrize("stored", [
    # what the bot stored for a finished move (sessions.result_json)
    {"winners": [0], "scores": [144.0, 150.0, 2.0], "summary": "{0} completed the pyramid.",
     "details": {"tiles_placed": 144.0, "moves": 150.0, "undos": 2.0, "final": 1.0}},
    # what the bot stored for a resignation (background.resign_seat): whole-number details
    {"winners": [], "scores": [], "summary": "Ann resigned.", "details": {"tiles_placed": 40, "undos": 3},
     "resigned": [0]},
    # a hand-written position's result: only the winners
    {"winners": [1]},
])
def test_from_json_reads_every_stored_shape(stored: dict[str, object]) -> None:
    result = Result.from_json(stored)
    again = Result.from_json(result.to_json())
    assert again == result
    assert list(result.winners) == stored["winners"]
    assert result.resigned == tuple(stored.get("resigned", []))  # type: ignore[arg-type]


@pytest.mark.parametrize(("bad", "why"), [
    ([1], "must be an object"),
    ({"scores": []}, "winners"),
    ({"winners": [True]}, "winners"),
    ({"winners": [0], "scores": ["x"]}, "scores"),
    ({"winners": [0], "details": {"a": "b"}}, "details"),
    ({"winners": [0], "summary": 3}, "summary"),
    ({"winners": [0], "resigned": [-1]}, "resigned"),
])
def test_from_json_names_what_is_wrong(bad: object, why: str) -> None:
    with pytest.raises(BadPosition, match=why):
        Result.from_json(bad)  # type: ignore[arg-type]
