"""Pebble Pyramid's pieces, options and state: plain tuples, so a state is a value.

A pyramid of ten coloured stones sits on cells ``r,c`` (row ``r`` = 0..3 counted from
the base, ``c`` = 0..3-r); the stone at ``r,c`` rests on ``r-1,c`` and ``r-1,c+1``. A
shuffled deck of colour tokens is hidden, and each player holds a hidden hand of two.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field

T = TypeVar("T")

COLOURS = ("R", "G", "B")
COLOUR_NAMES = {"R": "red", "G": "green", "B": "blue"}
ROWS = 4
#: Every cell, base row first, left to right.
CELLS = tuple(f"{r},{c}" for r in range(ROWS) for c in range(ROWS - r))
CELL_SET = frozenset(CELLS)
HAND_SIZE = 2


class PebbleOptions(BaseModel):
    """What players choose in the lobby: how many tokens of each colour the deck holds
    (fewer tokens: more passing, a shorter game)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tokens_per_colour: int = Field(default=4, ge=3, le=6, description="tokens of each colour in the deck")


@dataclass(frozen=True, slots=True)
class PebbleState:
    """One moment of a game. ``stones`` maps the occupied cells (in :data:`CELLS` order)
    to colours; ``taken`` the colours of the stones each seat won; ``lost`` those of
    stones taken with a token of another colour; ``deck`` lists top first;
    ``discards`` (public) every token spent or thrown away, oldest first; ``passes``
    the passes in a row made while the deck was empty (two end the game)."""

    tokens_per_colour: int
    stones: tuple[tuple[str, str], ...]
    taken: tuple[tuple[str, ...], tuple[str, ...]]
    lost: tuple[str, ...]
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    deck: tuple[str, ...]
    discards: tuple[str, ...]
    turn: int
    passes: int
    moves: int

    @property
    def over(self) -> bool:
        return not self.stones or self.passes >= 2

    def stone_at(self, cell: str) -> str | None:
        return dict(self.stones).get(cell)

    def free_cells(self) -> list[str]:
        """Occupied cells with no stone resting on them, in :data:`CELLS` order."""
        occupied = {cell for cell, _ in self.stones}
        return [cell for cell, _ in self.stones if not (covers(cell) & occupied)]


def covers(cell: str) -> set[str]:
    """The cells whose stones would rest on ``cell``."""
    r, c = (int(n) for n in cell.split(","))
    return {f"{r + 1},{x}" for x in (c - 1, c) if f"{r + 1},{x}" in CELL_SET}


def supports(cell: str) -> set[str]:
    """The cells a stone on ``cell`` rests on (none for the base row)."""
    r, c = (int(n) for n in cell.split(","))
    return set() if r == 0 else {f"{r - 1},{c}", f"{r - 1},{c + 1}"}



def with_seat(pair: tuple[T, T], seat: int, value: T) -> tuple[T, T]:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def without_one(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    index = items.index(item)
    return items[:index] + items[index + 1 :]
