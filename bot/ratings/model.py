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

**AI seats** play with these fixed ratings, never updated, so beating a hard AI moves
a rating more than beating an easy one:

========  =====  =======
level     mu     sigma
========  =====  =======
easy      17.0   2.0
normal    25.0   2.0
hard      33.0   2.0
========  =====  =======

Normal is pitched at a newcomer's starting skill, easy and hard about two "betas"
(25/6 each: the skill gap at which the better side wins roughly three games in four)
below and above it. The small sigma says the bot knows its AIs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

#: A newcomer's rating: the library's defaults.
START_MU = 25.0
START_SIGMA = 25.0 / 3.0
#: The fixed ratings of the AI levels (mu, sigma); see the module docstring.
AI_RATINGS: Mapping[str, tuple[float, float]] = {
    "easy": (17.0, 2.0),
    "normal": (25.0, 2.0),
    "hard": (33.0, 2.0),
}
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


def ai_skill(level: str) -> Skill:
    """The fixed rating of an AI level (an unknown level plays as normal)."""
    mu, sigma = AI_RATINGS.get(level, AI_RATINGS["normal"])
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
