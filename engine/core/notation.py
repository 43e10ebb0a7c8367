"""Notation every game shares: which move tokens name a place on the board.

One rule for the whole project: the bot letters these tokens on its buttons and the
renderer draws the same letters on the same places, so both must agree on what a
cell is. A cell is ``row,col`` or ``level:row,col`` (FP, CP, Pyramido and the
Pyrinoes line ends all write places this way in their rules files). The games'
parsers read cells through :func:`cell_parts` too, so no game keeps a cell pattern
of its own."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from engine.core.errors import IllegalMove
from engine.core.text import N_

#: Spaces are allowed around ``:`` and ``,``; each number has at most 6 digits, so a
#: hostile 5000-digit "cell" is simply not a cell (Python refuses to convert such
#: strings to int, which would surface as an internal error).
#: The longest move text any game reads at all. Real moves are under 30 characters;
#: refusing longer text up front keeps hostile input (a 5000-digit row, which Python
#: will not even convert to an int) out of the parsers, their caches and the error
#: messages that quote what the player wrote.
MAX_MOVE_LENGTH = 100

_CELL = re.compile(r"^\s*(?:(-?\d{1,6})\s*:\s*)?(-?\d{1,6})\s*,\s*(-?\d{1,6})\s*$")


@lru_cache(maxsize=4096)
def cell_parts(text: str) -> tuple[int | None, int, int] | None:
    """``(level, a, b)`` of a cell written ``a,b`` (level None) or ``level:a,b``; None
    when ``text`` is not written as a cell. Whether the board has that cell is the
    game's business.

    Kept for the 4,096 texts asked last: the chooser and the board's letters ask it of
    every token of every legal move, about 110 times a move, always of the same few
    hundred tokens (the answer is an immutable tuple or None, so sharing it is safe)."""
    match = _CELL.match(text)
    if match is None:
        return None
    level = match.group(1)
    return (None if level is None else int(level)), int(match.group(2)), int(match.group(3))


def is_cell(token: str) -> bool:
    return cell_parts(token) is not None


def cells_in(moves: Iterable[str]) -> list[str]:
    """The cell tokens of ``moves``, in order, repeats kept (callers dedupe if they must)."""
    return [token for move in moves for token in move.split() if is_cell(token)]


def refuse_oversize(text: str, example: str) -> None:
    """Raise :class:`IllegalMove` for text longer than any move; ``example`` shows a real one."""
    if len(text) > MAX_MOVE_LENGTH:
        raise IllegalMove(N_("That move is too long ({length} characters): moves are at most {limit} "
                             "characters, like {example}."), length=len(text), limit=MAX_MOVE_LENGTH,
                          example=example)
