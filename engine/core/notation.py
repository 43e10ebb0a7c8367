"""Notation every game shares: which move tokens name a place on the board.

One rule for the whole project: the bot letters these tokens on its buttons and the
renderer draws the same letters on the same places, so both must agree on what a
cell is. A cell is ``row,col`` or ``level:row,col`` (FP, CP, Pyramido and the
Pyrinoes line ends all write places this way in their rules files)."""

from __future__ import annotations

import re
from collections.abc import Iterable

_CELL = re.compile(r"^(\d+:)?-?\d+,-?\d+$")


def is_cell(token: str) -> bool:
    return bool(_CELL.match(token))


def cells_in(moves: Iterable[str]) -> list[str]:
    """The cell tokens of ``moves``, in order, repeats kept (callers dedupe if they must)."""
    return [token for move in moves for token in move.split() if is_cell(token)]
