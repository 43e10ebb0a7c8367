"""Ratings of the AI levels from the games they played against each other.

The AI seats have fixed ratings, and those must come from how the levels actually
play, not from a guess: ``python -m tools.ai_ratings`` pits every two levels against
each other (``tools.arena``, seats rotated on each deal) and records the wins of each
pairing in the game's module (``bot.games.<game>.PAIRINGS``, on its presenter's ``rating``);
:func:`fit` turns those counts into ratings.

The model is the one the bot rates with. In OpenSkill's Plackett-Luce, two sides with
skills ``mu_a``, ``mu_b`` and uncertainties ``sigma_a``, ``sigma_b`` finish
``a`` before ``b`` with probability ``1 / (1 + exp(-(mu_a - mu_b) / c))``, with
``c = sqrt(sigma_a² + sigma_b² + 2·beta²)``. :func:`fit` finds the ``mu`` of each
level that makes the recorded wins most likely (maximum likelihood, by Newton's
method), with one anchor held fixed: a scale of ratings has no zero of its own, so the
``anchor`` level is pinned to a chosen figure (the bot pins ``normal`` to a newcomer's
start, 25). Each level's ``sigma`` is the standard error of its fitted ``mu`` (from
the curvature of the likelihood), so a level measured on few games is marked as
less certain, never more certain than the games show.

A level that won every game of a pairing would have an infinitely large gap; one
pseudo-game each way per pairing (half a win each) keeps the fit finite and moves a
well-measured gap by little.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.games.rating import fewest_rated_moves, shortest_rated

#: The measured minimums' maths lives beside the measurements (``bot.games.rating``); named here too.
__all__ = ["BETA", "Fitted", "Pairing", "fewest_rated_moves", "fit", "shortest_rated"]

#: OpenSkill's default beta (25/6): the skill gap at which the better side wins about three games in four.
BETA = 25.0 / 6.0
#: The half-win given to each side of a pairing (see the module docstring).
PRIOR_WINS = 0.5


@dataclass(frozen=True)
class Pairing:
    """The games of two levels against each other: ``wins`` of ``first`` (a shared win
    counts half), of ``games`` played."""

    first: str
    second: str
    wins: float
    games: int

    def __post_init__(self) -> None:
        if self.games < 0 or not 0 <= self.wins <= self.games:
            raise ValueError(f"{self.first} vs {self.second}: {self.wins} wins of {self.games} games")


@dataclass(frozen=True)
class Fitted:
    mu: float
    sigma: float


def fit(pairings: Sequence[Pairing], *, anchor: str, anchor_mu: float, sigma: float = 2.0,
        rounds: int = 50) -> dict[str, Fitted]:
    """Each level's rating from ``pairings``; ``anchor`` is held at ``anchor_mu``
    (its own sigma is the smallest of the others', since it is where the scale is
    pinned). ``sigma``: the levels' uncertainty assumed inside the scale ``c`` (the
    bot's AI sigma), refined once from the fit."""
    levels = sorted({p.first for p in pairings} | {p.second for p in pairings})
    if anchor not in levels:
        raise ValueError(f"the anchor {anchor!r} played no game")
    free = [level for level in levels if level != anchor]
    mu = {level: anchor_mu for level in levels}
    errors: dict[str, float] = {}
    scale_sigma = sigma
    for _ in range(2):  # the scale depends on sigma, which the fit gives: once more with the fitted one
        c = math.sqrt(2 * scale_sigma**2 + 2 * BETA**2)
        for _ in range(rounds):
            grad, hess = _derivatives(pairings, mu, free, c)
            step = _solve(hess, grad)
            for level, delta in zip(free, step, strict=True):
                mu[level] -= delta
            if max((abs(d) for d in step), default=0.0) < 1e-9:
                break
        _, hess = _derivatives(pairings, mu, free, c)
        inverse = _invert([[-h for h in row] for row in hess])
        errors = {level: math.sqrt(max(inverse[i][i], 0.0)) for i, level in enumerate(free)}
        scale_sigma = sum(errors.values()) / len(errors) if errors else sigma
    anchor_sigma = min(errors.values()) if errors else sigma
    return {level: Fitted(mu[level], errors.get(level, anchor_sigma)) for level in levels}


def _derivatives(pairings: Sequence[Pairing], mu: Mapping[str, float], free: Sequence[str],
                 c: float) -> tuple[list[float], list[list[float]]]:
    """Gradient and Hessian of the log-likelihood in the free levels' ``mu``."""
    index = {level: i for i, level in enumerate(free)}
    grad = [0.0] * len(free)
    hess = [[0.0] * len(free) for _ in free]
    for p in pairings:
        wins = p.wins + PRIOR_WINS
        games = p.games + 2 * PRIOR_WINS
        chance = 1.0 / (1.0 + math.exp(-(mu[p.first] - mu[p.second]) / c))
        slope = (wins - games * chance) / c  # d logL / d mu_first
        curve = games * chance * (1 - chance) / c**2
        for level, sign in ((p.first, 1.0), (p.second, -1.0)):
            if level in index:
                grad[index[level]] += sign * slope
        for a, sa in ((p.first, 1.0), (p.second, -1.0)):
            for b, sb in ((p.first, 1.0), (p.second, -1.0)):
                if a in index and b in index:
                    hess[index[a]][index[b]] -= sa * sb * curve
    return grad, hess


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    inverse = _invert(matrix)
    return [sum(inverse[i][j] * vector[j] for j in range(len(vector))) for i in range(len(vector))]


def _invert(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan on a small square matrix (a few levels)."""
    n = len(matrix)
    work = [list(row) + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(work[r][col]))
        if abs(work[pivot][col]) < 1e-15:
            raise ValueError("the pairings do not connect the levels")
        work[col], work[pivot] = work[pivot], work[col]
        lead = work[col][col]
        work[col] = [x / lead for x in work[col]]
        for r in range(n):
            if r != col:
                factor = work[r][col]
                work[r] = [x - factor * y for x, y in zip(work[r], work[col], strict=True)]
    return [row[n:] for row in work]
