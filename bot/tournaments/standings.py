"""Tournament standings: a pure function of the entrants and the finished games.

No I/O and nothing from ``bot/`` outside this folder: the same function orders the
standings card, the pairing of the next round and the final podium, so what players
read is what the pairing used.

**Points.** A game is its finishing places (1 is best; equal places are a tie). Each
player scores, against every other player at the table, 1 for finishing above, ½ for
a tie and 0 for finishing below. In a two-player game that is the usual 1 / ½ / 0; at a
table of *k* the winner scores *k* − 1 and the last 0 ("points by finishing place").
A forfeited game is a game like any other: the player who withdrew finished last.
A bye scores the points it is given (a Swiss bye 1, a sit-out in multi-player rounds
a middle place) and has no opponent.

**Tie-breaks, in order** (the standings are a total order):

1. points;
2. Buchholz: the sum of the points of every opponent met, once per meeting (a bye
   adds nothing);
3. Sonneborn-Berger: for every meeting, the opponent's points times what the player
   scored against that opponent (1, ½ or 0);
4. rating at the start of the tournament (higher first);
5. sign-up order (the entrant's number, lower first), which no two entrants share.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Finished:
    """One finished game: each player's finishing place (1 best, equal places tie)."""

    places: Mapping[int, int]

    def against(self, player: int) -> Iterable[tuple[int, float]]:
        """``(opponent, what player scored against them)`` for every other player at the table."""
        mine = self.places[player]
        for other, theirs in self.places.items():
            if other != player:
                yield other, 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0

    def points(self, player: int) -> float:
        return sum(score for _, score in self.against(player))


@dataclass(frozen=True)
class Bye:
    """A round a player sat out, and the points it gave."""

    player: int
    points: float


@dataclass(frozen=True)
class Line:
    """One player's line in the standings."""

    player: int
    points: float
    buchholz: float
    sonneborn_berger: float
    rating: float
    played: int
    byes: int = 0
    opponents: tuple[int, ...] = field(default=(), compare=False)

    def key(self) -> tuple[float, float, float, float, int]:
        """The sort key: higher points, Buchholz, Sonneborn-Berger, rating first; then sign-up."""
        return (-self.points, -self.buchholz, -self.sonneborn_berger, -self.rating, self.player)


def points(ratings: Mapping[int, float], games: Sequence[Finished], byes: Sequence[Bye]) -> dict[int, float]:
    """Each entrant's points (entrants without a game have 0)."""
    total = dict.fromkeys(ratings, 0.0)
    for game in games:
        for player in game.places:
            total[player] = total.get(player, 0.0) + game.points(player)
    for bye in byes:
        total[bye.player] = total.get(bye.player, 0.0) + bye.points
    return total


def standings(ratings: Mapping[int, float], games: Sequence[Finished], byes: Sequence[Bye] = ()) -> list[Line]:
    """Every entrant (``ratings``: entrant number → rating at the start), best first."""
    total = points(ratings, games, byes)
    buchholz = dict.fromkeys(ratings, 0.0)
    berger = dict.fromkeys(ratings, 0.0)
    played = dict.fromkeys(ratings, 0)
    met: dict[int, list[int]] = {player: [] for player in ratings}
    for game in games:
        for player in game.places:
            played[player] = played.get(player, 0) + 1
            for other, score in game.against(player):
                buchholz[player] = buchholz.get(player, 0.0) + total.get(other, 0.0)
                berger[player] = berger.get(player, 0.0) + score * total.get(other, 0.0)
                met.setdefault(player, []).append(other)
    byes_of: dict[int, int] = {}
    for bye in byes:
        byes_of[bye.player] = byes_of.get(bye.player, 0) + 1
    lines = [
        Line(player, total.get(player, 0.0), buchholz.get(player, 0.0), berger.get(player, 0.0),
             ratings.get(player, 0.0), played.get(player, 0), byes_of.get(player, 0), tuple(met.get(player, ())))
        for player in set(ratings) | set(total)
    ]
    return sorted(lines, key=Line.key)
