"""Forecasts: "if the others play these moves, I answer with this one" (issue #41).

A seat waiting for its turn lines up to :data:`MAX_LINES` lines, each naming up to
:data:`MAX_OTHERS` moves of the others in the order they are made, as the board tells them
(move texts in the rules' notation: what every seat sees once a move is made) and the
answer. When the seat's turn comes, the line whose moves are exactly the moves made since
the forecast was set decides: its answer is played if it is legal in the position as it
stands; otherwise nothing is, and the seat plays its turn as usual.

What decides is public (the moves made) or the seat's own (its legal moves come from its
hand and the board), so two states the seat cannot tell apart choose alike; the property
tests check that on re-deals (:meth:`Game.determinize`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.core.contract import Game

MAX_LINES = 10
MAX_OTHERS = 5


@dataclass(frozen=True)
class Line:
    """The others' moves, in order (at least one), and the answer to them."""

    others: tuple[str, ...]
    answer: str


def still_open(lines: Sequence[Line], since: Sequence[str]) -> bool:
    """Whether some line can still match: the moves made so far start one of them."""
    made = tuple(since)
    return any(line.others[:len(made)] == made for line in lines)


def chosen(game: Game[Any], state: Any, seat: int, lines: Sequence[Line], since: Sequence[str]) -> str | None:
    """The answer to play for ``seat`` now (its turn; the moves ``since`` its forecast match a
    line whose answer is legal here), else None: the forecast is then dropped."""
    if game.waiting_for(state) != seat:
        return None
    made = tuple(since)
    for line in lines:
        if line.others == made:
            return line.answer if line.answer in game.legal_moves(state) else None
    return None
