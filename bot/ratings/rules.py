"""How each game's results count: a skill rating, or a completion record.

Competitive games (Flaming Pyramids, Pyrinoes, Pyramido's competitive mode) are rated:
every seat is its own side in a free-for-all, ranked winners first, then by the game's
score. Solo and co-op games (Continuous Pyramid, its challenges, Pyramido solo and
co-op) have nobody to be ranked against, so they count as completion records: games
finished, games won, the best score.

Which way a score points is read from each engine's result code:

* Flaming Pyramids scores the tiles a seat still holds (hand and piles): fewer is
  better (``engine/flaming_pyramids/rules.py``);
* Pyrinoes scores the points each side made: more is better (``engine/pyrinoes/game.py``);
* Pyramido competitive scores plus minus minus points (one round) or minus the minus
  points (several rounds): more is better (``engine/pyramido/competitive.py``);
* Continuous Pyramid records the tiles placed and Pyramido solo/co-op the stones in
  the pyramid (their results' ``details``): more is better.

A game no rule names (a game only a test knows) is rated when it has two seats or
more, ranked by its winners alone, and recorded when it is played alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from engine.core import Result

Better = Literal["higher", "lower"]


@dataclass(frozen=True)
class Counting:
    """How one game counts: ``rated`` (a rating per seat) or not (a completion record
    of ``variant``, e.g. "solo" or "co-op (small)"). ``better``: which way the result's
    scores rank the seats that did not win (None: they don't)."""

    rated: bool
    better: Better | None = None
    variant: str = ""
    #: The ``Result.details`` key a completion record keeps the best of (None: the seat's score).
    record_detail: str | None = None

    def record_score(self, result: Result, seat: int) -> float | None:
        """What a completion record keeps the best of, for ``seat`` (higher is better)."""
        if self.record_detail is not None and self.record_detail in result.details:
            return result.details[self.record_detail]
        return result.scores[seat] if seat < len(result.scores) else None


def counting(kind: str, options: Mapping[str, Any], seats: int) -> Counting:
    """How a game of ``kind`` with these options and ``seats`` seats counts."""
    if kind == "flaming-pyramids":
        return Counting(rated=True, better="lower")
    if kind == "pyrinoes":
        return Counting(rated=True, better="higher")
    if kind == "continuous-pyramid":
        return Counting(rated=False, variant="solo", record_detail="tiles_placed")
    if kind == "pyramido":
        mode = options.get("mode", "solo")
        if mode == "competitive":
            return Counting(rated=True, better="higher")
        variant = "co-op" if mode == "coop" else "solo"
        if options.get("size") == 4:
            variant += " (small)"
        return Counting(rated=False, variant=variant, record_detail="stones")
    if seats >= 2:
        return Counting(rated=True)
    return Counting(rated=False, variant="solo")
