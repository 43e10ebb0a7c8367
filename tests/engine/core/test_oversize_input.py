"""Hostile input, every game: an oversize move is refused with a short sentence a
player can read, never an internal error (Python refuses ``int()`` of more than 4300
digits), and a move over the length limit says what the limit is."""

from __future__ import annotations

from importlib import import_module
from typing import Any

import pytest

from engine.core import IllegalMove, game_ids, get_game
from engine.core.notation import MAX_MOVE_LENGTH
from engine.core.registry import package_of

HUGE = "9" * 5000
#: Garbage no notation reads, for every game.
GARBAGE = ("x" * 100_000, "z" * 100_000)

#: Each game's oversize moves in its own notation, aimed at the steps of its parser.
OVERSIZE: dict[str, tuple[str, ...]] = {
    "continuous-pyramid": (
        f"play B5 1:{HUGE},0",
        "play " + "B" * 5000 + " 1:0,0",
    ),
    "flaming-pyramids": (
        f"play R40 {HUGE},0",
        f"play R40 1,{HUGE}",
        "play R40 " + "1" * 40 + ",0",
        "play " + "R" * 5000 + " 1,0",
        "fall " + "left " * 1000,
    ),
    "pyramido": (
        f"place R 1:{HUGE},0",
        f"take R {HUGE}:1,1",
        "place R 1:0," + "1" * 90,
        "discard " + "R" * 5000,
        "place " + " " * 5000 + "R 1:0,0",
    ),
    "pyrinoes": (
        f"play {'6' * 5000}-4 right",
        f"build Y{'6' * 5000}|R1",
        "play " + "6-4 " * 2000 + "right",
        "draw " + "x" * 5000,
    ),
}

#: Each game's move just over the length limit that its parser would otherwise read on.
TOO_LONG: dict[str, str] = {
    "continuous-pyramid": "play B5 " + " " * 200 + "1:0,0",
    "flaming-pyramids": "play R40 " + "1" * 200 + ",0",
    "pyramido": "place R " + "1" * 200,
    "pyrinoes": "build " + "Y" * 200,
}

def opening(kind: str) -> tuple[Any, int]:
    """A new game of ``kind`` with the fewest players and default options, and the
    seat it waits for."""
    game = get_game(kind)
    state = game.setup(game.min_players, None, 7)
    seat = game.to_act(state)
    assert seat is not None
    return state, seat


def test_the_tables_name_only_games_of_the_registry() -> None:
    assert set(OVERSIZE) | set(TOO_LONG) <= set(game_ids())


@pytest.mark.parametrize(("kind", "move"), [(kind, move) for kind in game_ids()
                                               for move in (*OVERSIZE.get(kind, ()), *GARBAGE)],
                         ids=lambda value: value[:24])
def test_oversize_moves_are_refused_with_a_short_reason(kind: str, move: str) -> None:
    state, seat = opening(kind)
    with pytest.raises(IllegalMove) as caught:
        get_game(kind).play(state, seat, move)
    assert len(str(caught.value)) < 200


@pytest.mark.parametrize(("kind", "move"), TOO_LONG.items(), ids=lambda value: value[:24])
def test_the_length_limit_is_stated(kind: str, move: str) -> None:
    notation = import_module(f"engine.{package_of(kind)}.notation")
    with pytest.raises(IllegalMove, match=f"at most {MAX_MOVE_LENGTH} characters"):
        notation.parse_move(move)
