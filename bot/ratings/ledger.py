"""Ratings and completion records, worked out from finished games in order.

A :class:`Ledger` starts from the standings it is given (none, for a rebuild) and
applies games one at a time. The bot applies each game as it ends to the standings
stored for its players; ``pyramid-bot rebuild-ratings`` applies every game to an
empty ledger. Both run the same steps on the same numbers in the same order, so they
agree to the last bit.

A rated game moves the ratings of those who stayed by where everyone finished (the
leavers last). A person who left (``SeatOutcome.left``) is rated by a game of their
own: last, behind everyone who was still playing when they left (those who stayed,
who left later, and the AIs already standing in for who left earlier). So leaving
never gains anything, not even over someone who left before; with nobody left to
lose to (a game counted before departures were noted), their rating stays as it was,
and the game counts as a loss. A game too short to be rated (``short``) counts for
nothing.

Nobody is rated against an ``idle`` seat (a person who lost having made fewer moves of
their own than the game's minimum, ``bot.ratings.rules.idle_seats``): it is left out of
the sides the others are ranked among, and of those a leaver loses to. Whoever is left
with no side to be ranked against (the winner of a two-seat game whose opponent gave up
at once) gains nothing and loses nothing: the game counts for nothing for them, not even
as a game played. An idle seat that stayed counts for nothing either; one that left
still takes its loss, as every leaver does (so resigning at once dodges no loss).

Every game counts twice: in its server's standings (``scope`` = the server's id) and
in the standings across servers (``scope`` = :data:`EVERYWHERE`). Standings are per
player and per game; completion records also per variant ("solo", "co-op (small)").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from bot.ratings.model import Skill, ai_skill, rate
from bot.ratings.outcome import LEFT_UNNOTED, GameOutcome, SeatOutcome

#: The scope of the standings across every server (Discord ids are never 0).
EVERYWHERE = 0


@dataclass(frozen=True)
class Standing:
    """A player's rating in one game, in one scope."""

    scope: int
    kind: str
    user_id: int
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    losses: int = 0
    #: Wins in a row, up to the last game (0 after a loss), and the most ever.
    streak: int = 0
    best_streak: int = 0
    last_game_id: int = 0
    updated_at: str = ""

    @property
    def skill(self) -> Skill:
        return Skill(self.mu, self.sigma)

    @property
    def key(self) -> tuple[int, str, int]:
        return (self.scope, self.kind, self.user_id)


@dataclass(frozen=True)
class Record:
    """A player's completion record of one solo or co-op game variant, in one scope."""

    scope: int
    kind: str
    variant: str
    user_id: int
    games: int = 0
    wins: int = 0
    #: The best score so far (tiles placed, stones built); None: no score yet.
    best_score: float | None = None
    streak: int = 0
    best_streak: int = 0
    last_game_id: int = 0
    updated_at: str = ""

    @property
    def key(self) -> tuple[int, str, str, int]:
        return (self.scope, self.kind, self.variant, self.user_id)


def scopes_of(outcome: GameOutcome) -> tuple[int, ...]:
    """Where a game counts: its server (if it has one), and across servers."""
    return (EVERYWHERE,) if outcome.guild_id is None else (outcome.guild_id, EVERYWHERE)


def order_key(outcome: GameOutcome) -> tuple[str, int]:
    """Games are applied by the time they ended, then by number."""
    return (outcome.finished_at, outcome.game_id)


class Ledger:
    """Standings and records as games are applied; ``changed`` names what moved."""

    def __init__(self, standings: Iterable[Standing] = (), records: Iterable[Record] = ()) -> None:
        self.standings = {s.key: s for s in standings}
        self.records = {r.key: r for r in records}
        self.changed_standings: set[tuple[int, str, int]] = set()
        self.changed_records: set[tuple[int, str, str, int]] = set()

    def apply_all(self, outcomes: Iterable[GameOutcome]) -> Ledger:
        for outcome in sorted(outcomes, key=order_key):
            self.apply(outcome)
        return self

    def apply(self, outcome: GameOutcome) -> None:
        if outcome.short:
            return
        for scope in scopes_of(outcome):
            if outcome.rated:
                self._rate(scope, outcome)
            else:
                self._record(scope, outcome)

    def standing(self, scope: int, kind: str, user_id: int) -> Standing:
        found = self.standings.get((scope, kind, user_id))
        return found if found is not None else Standing(scope, kind, user_id, *_start())

    def _rate(self, scope: int, outcome: GameOutcome) -> None:
        before = [self.standing(scope, outcome.kind, s.user_id) if s.user_id is not None else None
                  for s in outcome.seats]
        skills = [b.skill if b is not None else ai_skill(s.ai_level or "normal", outcome.kind)
                  for s, b in zip(outcome.seats, before, strict=True)]
        stand_ins = [ai_skill(s.ai_level or "normal", outcome.kind) for s in outcome.stand_ins]
        sides = [i for i, s in enumerate(outcome.seats) if not s.idle]  # nobody is rated against an idle seat
        after: dict[int, Skill] = {}
        if len(sides) + len(stand_ins) >= 2:
            new_skills = rate([skills[i] for i in sides] + stand_ins,
                              [outcome.seats[i].rank for i in sides] + [s.rank for s in outcome.stand_ins])
            after = dict(zip(sides, new_skills, strict=False))
        for index, (seat, old) in enumerate(zip(outcome.seats, before, strict=True)):
            if old is None:  # an AI seat keeps its fixed rating
                continue
            if seat.left:
                new = self._left(seat, old.skill, outcome, skills, stand_ins)
            elif index in after:
                new = after[index]
            else:  # idle, or nobody left to be ranked against: the game counts for nothing
                continue
            streak = old.streak + 1 if seat.won else 0
            updated = replace(old, mu=new.mu, sigma=new.sigma, games=old.games + 1,
                              wins=old.wins + int(seat.won), losses=old.losses + int(not seat.won),
                              streak=streak, best_streak=max(old.best_streak, streak),
                              last_game_id=outcome.game_id, updated_at=outcome.finished_at)
            self.standings[updated.key] = updated
            self.changed_standings.add(updated.key)

    @staticmethod
    def _left(seat: SeatOutcome, skill: Skill, outcome: GameOutcome, skills: list[Skill],
              stand_ins: list[Skill]) -> Skill:
        """A leaver's rating after their own game: last, behind everyone still playing
        when they left (see the module docstring)."""
        moment = _moment(seat)
        ahead = [skills[i] for i, other in enumerate(outcome.seats)
                 if other.seat != seat.seat and not other.idle and (not other.left or _moment(other) > moment)]
        ahead += [stand_ins[i] for i, other in enumerate(outcome.stand_ins)
                  if other.seat != seat.seat and _moment(other) < moment]
        if not ahead:
            return skill
        return rate([skill, *ahead], [1] + [0] * len(ahead))[0]

    def _record(self, scope: int, outcome: GameOutcome) -> None:
        for seat in outcome.people:
            assert seat.user_id is not None
            key = (scope, outcome.kind, outcome.variant, seat.user_id)
            old = self.records.get(key) or Record(scope, outcome.kind, outcome.variant, seat.user_id)
            streak = old.streak + 1 if seat.won else 0
            best = old.best_score
            if seat.score is not None and (best is None or seat.score > best):
                best = seat.score
            updated = replace(old, games=old.games + 1, wins=old.wins + int(seat.won), best_score=best,
                              streak=streak, best_streak=max(old.best_streak, streak),
                              last_game_id=outcome.game_id, updated_at=outcome.finished_at)
            self.records[key] = updated
            self.changed_records.add(key)


def _moment(seat: SeatOutcome) -> int:
    """When a leaver left, or a stand-in took over (unnoted: before anything noted)."""
    return seat.left_at if seat.left_at is not None else LEFT_UNNOTED


def _start() -> tuple[float, float]:
    start = Skill()
    return start.mu, start.sigma
