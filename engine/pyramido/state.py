"""The game state: one immutable value, cheap to copy.

Pyramids are dicts that are never changed once a state holds them; a move builds a
new dict for the one pyramid it touches and shares the rest.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.core.result import Result
from engine.pyramido.geometry import Cell


@dataclass(frozen=True, slots=True)
class State:
    mode: str
    size: int
    players: int
    turn: int
    pyramids: tuple[dict[Cell, str], ...]
    hands: tuple[tuple[str, ...], ...]
    reserves: tuple[tuple[str, ...], ...]
    quarry: tuple[str, ...]
    #: Top of the bag first.
    bag: tuple[str, ...]
    out: tuple[str, ...]
    #: Stones the seat to act has placed so far this turn (solo/coop).
    placed: int = 0
    #: Consecutive solo/coop turns that began with the bag empty and placed no stone.
    idle: int = 0
    #: Consecutive competitive passes.
    passes: int = 0
    #: The seat that starts each round of turns (competitive tie-break, PD-6 rounds).
    first: int = 0
    rounds: int = 1
    round: int = 1
    #: Competitive tallies over finished rounds (PD-6, second edition): plus points
    #: (1 for the first completer of a round) and minus points (the stones a player
    #: still missed when a round ended), both as non-negative counts per seat. They are
    #: kept apart because the ranking is lexicographic (fewest minus, then most plus),
    #: which no net total can reproduce.
    plus: tuple[int, ...] = ()
    minus: tuple[int, ...] = ()
    #: The first seat to complete in this competitive round, while the round is finished.
    closer: int | None = None
    result: Result | None = None
    moves: int = 0
    rng: int = 0

    @property
    def competitive(self) -> bool:
        return self.mode == "competitive"

    def with_(self, **changes: object) -> State:
        return replace(self, **changes)  # type: ignore[arg-type]
