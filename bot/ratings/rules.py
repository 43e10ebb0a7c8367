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

**Games too short to measure skill are played but not rated.** A Flaming Pyramids game
with a ``turn_limit`` shorter than real games last is decided by the deal more than by
play: a player moving at random wins many one-turn games against the hard AI, and
none of the full ones (README, "Ratings"). The shortest rated ``turn_limit``
(:data:`SHORTEST_RATED_TURNS`) is the lower decile of the length of real games, as
measured by ``python -m tools.ai_ratings`` (games of the normal and hard AIs played to
their natural end, :mod:`bot.ratings.measured`). Such a game counts for nothing: no
rating and no completion record; the lobby and the game's end say so.

**Nobody is rated against a seat that hardly played.** A rated game needs play on both
sides: a losing seat whose person made fewer than :func:`fewest_moves` moves of their
own (an account that resigns at once, or never moves and times out) is nobody's
opponent. Otherwise a second account that gives up at once lifts its owner to the top
of a leaderboard, six "wins" in a few seconds (issue #37). The minimum is measured per
game as the turn limit is: ``python -m tools.rated_moves`` plays every pairing of the AI
levels (a random mover losing to the hard AI is a real beginner's quickest loss) and
records the fewest moves of its own a losing seat made (:mod:`bot.ratings.measured`), at
two seats and at each bigger table the game allows (a seat makes fewer moves there);
the minimum is half that, so a real game's quickest loss is still rated (``bot.ratings.fit
.fewest_rated_moves``). A game only a test knows needs one move. The rule is asked of
the losers only: whoever won moved enough to win. How it counts is the ledger's
(``bot.ratings.ledger``): nobody gains or loses by beating such a seat (their game counts
for nothing), while a person who *left* with fewer moves still takes their loss, so
resigning at the first sight of a bad deal dodges nothing.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from bot.ratings.fit import fewest_rated_moves, shortest_rated
from bot.ratings.measured import FEWEST_LOSER_MOVES, FEWEST_LOSER_MOVES_AT, FLAMING_PYRAMIDS_TURNS
from engine.core import Result

#: Flaming Pyramids games with a ``turn_limit`` below this are not rated (module docstring).
SHORTEST_RATED_TURNS: int = shortest_rated(FLAMING_PYRAMIDS_TURNS) if FLAMING_PYRAMIDS_TURNS else 1

#: Per rated game and number of seats: the moves of its own a losing seat's person must have
#: made for anyone to be rated against it (module docstring), from the measured fewest: two
#: seats from every pairing of the levels, bigger tables from theirs.
FEWEST_RATED_MOVES: Mapping[tuple[str, int], int] = {
    **{(kind, 2): fewest_rated_moves([fewest for _, _, fewest, _ in rows])
       for kind, rows in FEWEST_LOSER_MOVES.items()},
    **{(kind, seats): fewest_rated_moves([fewest]) for kind, at in FEWEST_LOSER_MOVES_AT.items()
       for seats, fewest in at.items()},
}
#: A game nobody measured (one only a test knows): at least one move.
FEWEST_MOVES_UNMEASURED = 1

Better = Literal["higher", "lower"]


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


def counting(kind: str, options: Mapping[str, Any], seats: int) -> Counting:
    """How a game of ``kind`` with these options and ``seats`` seats counts."""
    if kind == "flaming-pyramids":
        if too_short(kind, options) is not None:
            return Counting(rated=False, better="lower", short=True)
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


def too_short(kind: str, options: Mapping[str, Any]) -> int | None:
    """The shortest rated turn limit when a game of ``kind`` with ``options`` is too
    short to be rated; None when its length rates it."""
    if kind != "flaming-pyramids":
        return None
    limit = options.get("turn_limit")
    if isinstance(limit, int) and not isinstance(limit, bool) and limit < SHORTEST_RATED_TURNS:
        return SHORTEST_RATED_TURNS
    return None


def fewest_moves(kind: str, seats: int) -> int:
    """The moves of their own a losing person must have made in a rated game of ``kind``
    at a table of ``seats`` for anyone to be rated against them (module docstring): the
    least measured at that many seats or fewer (a seat makes fewer moves at a bigger
    table, so an unmeasured size takes the smallest figure that could apply)."""
    measured = [least for (game, size), least in FEWEST_RATED_MOVES.items() if game == kind and size <= seats]
    return min(measured) if measured else FEWEST_MOVES_UNMEASURED


def idle_seats(kind: str, seats: int, people: Mapping[int, int], winners: Collection[int]) -> frozenset[int]:
    """The seats of ``people`` (seat → moves of its person's own) at a table of ``seats``
    that lost having made fewer than :func:`fewest_moves`: nobody is rated against them.
    The one place the minimum of play is asked (``bot.ratings.outcome.outcome_of``, which
    every way a game is counted goes through)."""
    least = fewest_moves(kind, seats)
    return frozenset(seat for seat, moves in people.items() if seat not in winners and moves < least)
