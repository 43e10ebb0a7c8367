"""How each game's results count: a skill rating, or a completion record.

Competitive games (Flaming Pyramids, Pyrinoes, Pyramido's competitive mode) are rated:
every seat is its own side in a free-for-all, ranked winners first, then by the game's
score. Solo and co-op games (Continuous Pyramid, its challenges, Pyramido solo and
co-op) have nobody to be ranked against, so they count as completion records: games
finished, games won, the best score.

Each game declares its own rule on its presenter (``Presenter.rating``, a
:class:`bot.games.rating.RatingRules`, in ``bot/games/<game>.py``), beside the figures its AI
levels measured; this module asks the presenter and holds what every game shares. Which way
a score points is read from each engine's result code:

* Flaming Pyramids scores the tiles a seat still holds (hand and piles): fewer is
  better (``engine/flaming_pyramids/rules.py``);
* Pyrinoes scores the points each side made: more is better (``engine/pyrinoes/game.py``);
* Pyramido competitive scores plus minus minus points (one round) or minus the minus
  points (several rounds): more is better (``engine/pyramido/competitive.py``);
* Continuous Pyramid records the tiles placed and Pyramido solo/co-op the stones in
  the pyramid (their results' ``details``): more is better.

A game that declares nothing (a game only a test knows) gets the documented default
(``bot.games.rating.DEFAULT_RATING``): rated when it has two seats or more, ranked by its
winners alone, and recorded when it is played alone.

**Games too short to measure skill are played but not rated.** A Flaming Pyramids game
with a ``turn_limit`` shorter than real games last is decided by the deal more than by
play: a player moving at random wins many one-turn games against the hard AI, and
none of the full ones (README, "Ratings"). The shortest rated ``turn_limit``
(``bot.games.flaming_pyramids.SHORTEST_RATED_TURNS``) is the lower decile of the length of real games, as
measured by ``python -m tools.ai_ratings`` (games of the normal and hard AIs played to
their natural end, ``bot.games.flaming_pyramids.TURNS``). Such a game counts for nothing: no
rating and no completion record; the lobby and the game's end say so.

**Nobody is rated against a seat that hardly played.** A rated game needs play on both
sides: a losing seat whose person made fewer than :func:`fewest_moves` moves of their
own (an account that resigns at once, or never moves and times out) is nobody's
opponent. Otherwise a second account that gives up at once lifts its owner to the top
of a leaderboard, six "wins" in a few seconds (issue #37). The minimum is measured per
game as the turn limit is: ``python -m tools.rated_moves`` plays every pairing of the AI
levels (a random mover losing to the hard AI is a real beginner's quickest loss) and
records the fewest moves of its own a losing seat made (the game's ``FEWEST_LOSER_MOVES``), at
two seats and at each bigger table the game allows (a seat makes fewer moves there);
the minimum is half that, so a real game's quickest loss is still rated (``bot.games.rating
.fewest_rated_moves``). A game only a test knows needs one move. The rule is asked of
the losers only: whoever won moved enough to win. How it counts is the ledger's
(``bot.ratings.ledger``): nobody gains or loses by beating such a seat (their game counts
for nothing), while a person who *left* with fewer moves still takes their loss, so
resigning at the first sight of a bad deal dodges nothing.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from bot.games.catalogue import Catalogue
from bot.games.rating import DEFAULT_RATING, FEWEST_MOVES_UNMEASURED, Better, Counting, RatingRules
from engine.core import EngineError

__all__ = ["FEWEST_MOVES_UNMEASURED", "Better", "Counting", "counting", "fewest_moves", "idle_seats", "rating_rules",
           "too_short"]

_SHIPPED = Catalogue.default()


def rating_rules(kind: str, catalogue: Catalogue | None = None) -> RatingRules:
    """The rules the presenter of ``kind`` declares: in ``catalogue`` when given, else among the
    games the bot ships; a game neither holds gets the documented default (``DEFAULT_RATING``)."""
    for where in (catalogue, _SHIPPED):
        if where is None:
            continue
        try:
            return where.presenter(kind).rating
        except EngineError:
            continue
    return DEFAULT_RATING


def counting(kind: str, options: Mapping[str, Any], seats: int, catalogue: Catalogue | None = None) -> Counting:
    """How a game of ``kind`` with these options and ``seats`` seats counts."""
    return rating_rules(kind, catalogue).counting(options, seats)


def too_short(kind: str, options: Mapping[str, Any], catalogue: Catalogue | None = None) -> int | None:
    """The shortest rated length when a game of ``kind`` with ``options`` is too short to be
    rated; None when its length rates it."""
    return rating_rules(kind, catalogue).too_short(options)


def fewest_moves(kind: str, seats: int, catalogue: Catalogue | None = None) -> int:
    """The moves of their own a losing person must have made in a rated game of ``kind``
    at a table of ``seats`` for anyone to be rated against them (module docstring;
    ``RatingRules.fewest_moves``)."""
    return rating_rules(kind, catalogue).fewest_moves(seats)


def idle_seats(kind: str, seats: int, people: Mapping[int, int], winners: Collection[int],
               catalogue: Catalogue | None = None) -> frozenset[int]:
    """The seats of ``people`` (seat → moves of its person's own) at a table of ``seats``
    that lost having made fewer than :func:`fewest_moves`: nobody is rated against them.
    The one place the minimum of play is asked (``bot.ratings.outcome.outcome_of``, which
    every way a game is counted goes through)."""
    least = fewest_moves(kind, seats, catalogue)
    return frozenset(seat for seat, moves in people.items() if seat not in winners and moves < least)
