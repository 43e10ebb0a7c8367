"""How a game's results count, as the game's presenter declares it (``Presenter.rating``).

A game is rated (a skill rating per seat, ranked winners first, then by the result's
scores, ``better``) or recorded (a completion record: games finished, won, the best score)
by its own rule; it may call a game too short to measure skill (played, counted for
nothing); and it carries what the AI levels measured in it (``python -m tools.ai_ratings``
and ``python -m tools.rated_moves`` print the figures pasted into the game's module): the
wins of each pairing of levels, from which the levels' ratings are fitted, and the fewest
moves of its own a losing seat made, from which the minimum of play before anyone is
rated against a seat comes (half of it: :func:`fewest_rated_moves`).

**The default** (:data:`DEFAULT_RATING`, a presenter that declares nothing, such as the
test-only Pebble Pyramid): rated when it has two seats or more, ranked by its winners
alone; recorded as "solo" when played alone; never too short; one move of one's own
before anyone is rated against a seat; its AI levels at fixed, unmeasured ratings
(``bot.ratings.model.UNMEASURED``). ``bot.ratings`` reads these from the presenter and
holds the maths; nothing there names a game."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from engine.core import Result

Better = Literal["higher", "lower"]
#: Per pairing of AI levels: (first level, second level, wins of the first, games), two seats.
Pairing = tuple[str, str, float, int]
#: Per pairing of AI levels (each against itself too): (first level, second level, the fewest
#: moves of its own a losing seat made, losing seats measured).
LoserMoves = tuple[str, str, int, int]
#: A game nobody measured: at least one move of one's own.
FEWEST_MOVES_UNMEASURED = 1


@dataclass(frozen=True)
class Counting:
    """How one game counts: ``rated`` (a rating per seat) or not (a completion record
    of ``variant``, e.g. "solo" or "co-op (small)"). ``better``: which way the result's
    scores rank the seats that did not win (None: they don't)."""

    rated: bool
    better: Better | None = None
    #: Too short to measure skill: played, but counted neither as rated nor as a record.
    short: bool = False
    variant: str = ""
    #: The ``Result.details`` key a completion record keeps the best of (None: the seat's score).
    record_detail: str | None = None

    def record_score(self, result: Result, seat: int) -> float | None:
        """What a completion record keeps the best of, for ``seat`` (higher is better)."""
        if self.record_detail is not None and self.record_detail in result.details:
            return result.details[self.record_detail]
        return result.scores[seat] if seat < len(result.scores) else None


def by_seats(options: Mapping[str, Any], seats: int) -> Counting:
    """The default counting: rated with two seats or more (winners first), a solo record alone."""
    if seats >= 2:
        return Counting(rated=True)
    return Counting(rated=False, variant="solo")


def never_short(options: Mapping[str, Any]) -> int | None:
    """The default: no game is too short to be rated."""
    return None


def shortest_rated(turns: Sequence[int]) -> int:
    """The shortest game length that is rated: the lower decile of real games'
    ``turns``, rounded down to a multiple of 5 (at least 1)."""
    if not turns:
        raise ValueError("no game reached its natural end")
    ordered = sorted(turns)
    decile = ordered[max(0, (len(ordered) - 1) // 10)]
    return max(1, decile - decile % 5)


def fewest_rated_moves(fewest: Sequence[int]) -> int:
    """The moves of its own a losing seat must have made for a game to rate anyone
    against it: half the fewest a losing seat made in any measured pairing (``fewest``,
    one figure per pairing), at least 1. Half, because a real game's quickest loss may
    be quicker than any of the measured deals', and such a game must still be rated;
    an account that never moves stays far below it."""
    if not fewest:
        raise ValueError("no measured game had a loser")
    return max(1, min(fewest) // 2)


@dataclass(frozen=True)
class RatingRules:
    """A game's rating rules and measurements (the module docstring; every field has the default)."""

    #: ``count(options, seats)``: rated or recorded, and how.
    count: Callable[[Mapping[str, Any], int], Counting] = by_seats
    #: ``too_short(options)``: the shortest rated length when these options are too short to be
    #: rated, else None.
    too_short: Callable[[Mapping[str, Any]], int | None] = never_short
    #: What the AI levels won against each other, two seats (empty: unmeasured levels).
    pairings: tuple[Pairing, ...] = ()
    #: The fewest moves of its own a losing seat made, per pairing of levels, two seats.
    fewest_loser_moves: tuple[LoserMoves, ...] = ()
    #: The same at bigger tables (seats → the fewest at any mix of levels that size).
    fewest_loser_moves_at: Mapping[int, int] | None = None

    def counting(self, options: Mapping[str, Any], seats: int) -> Counting:
        return self.count(options, seats)

    def fewest_moves(self, seats: int) -> int:
        """The moves of their own a losing person must have made at a table of ``seats`` for
        anyone to be rated against them: the least measured at that many seats or fewer (a seat
        makes fewer moves at a bigger table, so an unmeasured size takes the smallest figure
        that could apply); :data:`FEWEST_MOVES_UNMEASURED` when nothing was measured."""
        measured = {}
        if self.fewest_loser_moves:
            measured[2] = fewest_rated_moves([fewest for _, _, fewest, _ in self.fewest_loser_moves])
        for size, fewest in (self.fewest_loser_moves_at or {}).items():
            measured[size] = fewest_rated_moves([fewest])
        applying = [least for size, least in measured.items() if size <= seats]
        return min(applying) if applying else FEWEST_MOVES_UNMEASURED


#: What a presenter that declares nothing gets (the module docstring).
DEFAULT_RATING = RatingRules()
