"""The rating model: OpenSkill's Plackett-Luce, with fixed ratings for the AI seats.

Plackett-Luce (Weng & Lin 2011, as the ``openskill`` library implements it) rates a
free-for-all of any number of sides from the order they finished in, so one model
covers 2 to 6 seats. Each player's skill is a normal distribution: ``mu`` (the
estimate) and ``sigma`` (how unsure it still is). A newcomer starts at the library's
defaults, mu 25 and sigma 25/3; every game moves mu and shrinks sigma.

Shown to players: **mu ± 2·sigma** (the skill, and the range it lies in with about 95%
confidence). Leaderboards rank by OpenSkill's *ordinal*, mu − 3·sigma, a cautious
figure that only rises as the bot grows sure of a player, so one lucky win does not
top the board.

**AI seats** play with fixed ratings, never updated, so beating a hard AI moves a
rating more than beating an easy one. They are measured, per game, not assumed: the
AI levels played each other (``python -m tools.ai_ratings``), the wins of each pairing
are kept on each game's presenter (``Presenter.rating.pairings``, in ``bot/games/<game>.py``), and
:func:`bot.ratings.fit.fit` makes ratings
of them, with ``normal`` pinned at a newcomer's starting 25 (a scale of ratings has
no zero of its own; a newcomer is taken to play like the normal AI until their games
say otherwise). Each level's sigma is the standard error of that fit. The README's
"Ratings" section lists the figures. The ledger rates against the shipped games' levels
(:data:`AI_RATINGS`, fitted at import). A game nobody measured (only a test's own game
is one: a presenter that declares no pairings) plays with :data:`UNMEASURED`: easy and
hard two "betas" (25/6 each: the gap at which the better side wins about three games in four) below and above normal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from bot.games.catalogue import Catalogue
from bot.ratings.fit import Pairing, fit

#: A newcomer's rating: the library's defaults.
START_MU = 25.0
START_SIGMA = 25.0 / 3.0
#: The AI levels of a game nobody measured (mu, sigma); see the module docstring.
UNMEASURED: Mapping[str, tuple[float, float]] = {
    "easy": (17.0, 2.0),
    "normal": (25.0, 2.0),
    "hard": (33.0, 2.0),
}


#: What the AI levels won against each other, per shipped game that measured them, as their
#: presenters declare it (``bot.games.rating.RatingRules.pairings``).
PAIRINGS: Mapping[str, tuple[tuple[str, str, float, int], ...]] = {
    p.kind: p.rating.pairings for p in Catalogue.default() if p.rating.pairings}


def _measured() -> dict[str, dict[str, tuple[float, float]]]:
    ratings: dict[str, dict[str, tuple[float, float]]] = {}
    for kind, pairings in PAIRINGS.items():
        fitted = fit([Pairing(*p) for p in pairings], anchor="normal", anchor_mu=START_MU)
        ratings[kind] = {level: (round(f.mu, 2), round(f.sigma, 2)) for level, f in fitted.items()}
    return ratings


#: The fixed ratings of the AI levels, per game (mu, sigma), from the measured pairings.
AI_RATINGS: Mapping[str, Mapping[str, tuple[float, float]]] = _measured()
#: How many sigmas the cautious (leaderboard) figure takes off mu: OpenSkill's ordinal.
ORDINAL_SIGMAS = 3.0


@dataclass(frozen=True)
class Skill:
    mu: float = START_MU
    sigma: float = START_SIGMA

    @property
    def ordinal(self) -> float:
        """The cautious figure leaderboards rank by: mu − 3·sigma."""
        return self.mu - ORDINAL_SIGMAS * self.sigma


def ai_ratings(kind: str) -> Mapping[str, tuple[float, float]]:
    """The fixed ratings of the AI levels in ``kind`` (:data:`UNMEASURED` for a game
    nobody measured)."""
    return AI_RATINGS.get(kind, UNMEASURED)


def ai_skill(level: str, kind: str = "") -> Skill:
    """The fixed rating of an AI level in ``kind`` (an unknown level plays as normal)."""
    levels = ai_ratings(kind)
    mu, sigma = levels.get(level, levels["normal"])
    return Skill(mu, sigma)


def rate(skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """Every side's skill after one game in which side ``i`` finished ``ranks[i]``
    (0 first; equal ranks tie). The caller keeps the new skill of the sides it rates
    and drops the rest (the AI seats' fixed ratings)."""
    if len(skills) != len(ranks) or len(skills) < 2:
        raise ValueError("A rated game needs at least two sides, each with a rank.")
    model = PlackettLuce(mu=START_MU, sigma=START_SIGMA)
    teams = [[PlackettLuceRating(skill.mu, skill.sigma)] for skill in skills]
    rated = model.rate(teams, ranks=[float(r) for r in ranks])
    return [Skill(float(team[0].mu), float(team[0].sigma)) for team in rated]
