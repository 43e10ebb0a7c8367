"""Short labels for legal spots, shared by the picture and the buttons.

The renderer draws "A", "B", ... on the spots where the player to move may play, and
the bot writes the same letters on its buttons; both call this one function, so the
two can never disagree. Which move tokens are cells is the engine's one rule
(``engine.core.notation``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from engine.core.notation import cells_in

_NUMBERS = re.compile(r"-?\d+")


def cell_sort_key(cell: str) -> tuple[int, ...]:
    """Top first, then left to right: the first number is the row/level (higher is
    drawn higher), the rest are positions within it."""
    numbers = [int(n) for n in _NUMBERS.findall(cell)]
    if not numbers:
        return (0,)
    return (-numbers[0], *numbers[1:])


def letters(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA, ..."""
    text = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        text = chr(ord("A") + rem) + text
    return text


def spot_labels(cells: Iterable[str]) -> dict[str, str]:
    """Label each distinct cell, in scan order."""
    unique = sorted(set(cells), key=cell_sort_key)
    return {cell: letters(i) for i, cell in enumerate(unique)}


def move_labels(moves: Iterable[str]) -> dict[str, str]:
    """The letters of the cells named in ``moves``: what a board letters when its
    ``Art`` has no ``public_spots`` (the legal moves' cells are then public)."""
    return spot_labels(cells_in(moves))
