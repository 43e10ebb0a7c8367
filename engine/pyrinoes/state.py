"""The game state: plain tuples and ints, so a copy is a dozen pointer copies."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field

from engine.core.text import N_

Pair = tuple[int, int]
T = TypeVar("T")


class PyrinoesOptions(BaseModel):
    """Match options (PY-6): the score that wins the match."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    #: 10..1000: below 10 a single round decides everything, above 1000 a match never ends.
    target: int = Field(default=100, title=N_("Target score"), ge=10, le=1000,
                        description=N_("points to win the match (default 100)"))


@dataclass(slots=True)
class PyrinoesState:
    """One moment of a match. Treated as immutable: rules work on :meth:`copy`.

    ``hands`` keep dominoes as spelled (identity is :attr:`Domino.key`); ``pyrinoes``
    hold canonical pyrino codes; ``line`` holds items oriented left to right, with the
    open spots cached in ``left``/``right``; ``supply`` is each seat's six counts in
    :data:`~engine.pyrinoes.pieces.SEAT_COLOURS` order; ``green`` counts G1..G3;
    ``boneyard`` lists top first.
    """

    round: int
    target: int
    scores: Pair
    turn: int
    line: tuple[str, ...]
    left: int
    right: int
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    pyrinoes: tuple[tuple[str, ...], tuple[str, ...]]
    supply: tuple[tuple[int, ...], tuple[int, ...]]
    green: tuple[int, ...]
    boneyard: tuple[str, ...]
    passes: int
    first: int  # who started this round; the other seat starts the next (PY-3)
    rng: int
    moves: int
    winner: int | None = None

    def copy(self) -> PyrinoesState:
        return PyrinoesState(
            self.round, self.target, self.scores, self.turn, self.line, self.left, self.right,
            self.hands, self.pyrinoes, self.supply, self.green, self.boneyard, self.passes,
            self.first, self.rng, self.moves, self.winner,
        )

    @property
    def over(self) -> bool:
        return self.winner is not None


def with_seat(pair: tuple[T, T], seat: int, value: T) -> tuple[T, T]:
    """``pair`` with one seat's entry replaced."""
    return (value, pair[1]) if seat == 0 else (pair[0], value)
