"""Who the queue matches: a pure function of the players waiting and the time.

Each player waiting for a two-player game accepts an opponent whose rating is within their
**window**: ``WIDTH`` rating points at first, widening by ``WIDENING`` points for every
minute they have waited, so a player nobody near them joins is matched further away the
longer they wait. Two players are matched when each is within the other's window. The
queue is matched oldest first: the player who has waited longest takes the nearest rating
among those who accept them (the one waiting longer on a tie), and both leave the queue.

An entry lives at most ``MOST_WAIT`` (two hours): by then its window is 122 points wide,
wider than the gap between almost any two rated players, so nobody who would ever match it
has come, and a player who asked for "a game now" two hours ago has most likely moved on.
An expired entry is matched with nobody (the sweep drops it and tells its player).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

#: The window at first, and its widening per minute waited, in rating points (mu - 3 sigma).
WIDTH = 2.0
WIDENING = 1.0
#: How long an entry waits at most before it expires.
MOST_WAIT = timedelta(hours=2)


@dataclass(frozen=True)
class Waiting:
    user_id: int
    rating: float
    since: datetime
    #: The server the entry was made in (what ``matches(apart=True)`` keeps apart).
    home: int = 0


def window(waiting: Waiting, now: datetime) -> float:
    """How far from their rating ``waiting`` accepts an opponent at ``now``."""
    minutes = max(0.0, (now - waiting.since).total_seconds() / 60)
    return WIDTH + WIDENING * minutes


def expired(waiting: Waiting, now: datetime) -> bool:
    """Whether ``waiting`` has waited longer than ``MOST_WAIT``: it is matched with nobody."""
    return now - waiting.since > MOST_WAIT


def accepts(a: Waiting, b: Waiting, now: datetime) -> bool:
    gap = abs(a.rating - b.rating)
    return gap <= window(a, now) and gap <= window(b, now)


def matches(queue: Sequence[Waiting], now: datetime, *, apart: bool = False) -> list[tuple[Waiting, Waiting]]:
    """The pairs to start now (each player in at most one, none expired), oldest first; with
    ``apart``, never two of the same ``home``."""
    left = sorted((w for w in queue if not expired(w, now)), key=lambda w: (w.since, w.user_id))
    pairs: list[tuple[Waiting, Waiting]] = []
    while left:
        first = left.pop(0)
        takers = [w for w in left if w.user_id != first.user_id and accepts(first, w, now)
                  and not (apart and w.home == first.home)]
        if not takers:
            continue
        best = min(takers, key=lambda w: (abs(w.rating - first.rating), w.since, w.user_id))
        left.remove(best)
        pairs.append((first, best))
    return pairs


@dataclass(frozen=True)
class Seeker:
    """A queue entry as the cross-server matching sees it: ``home`` is the server it was made in,
    ``rating`` the player's rating there, ``wide`` their rating across servers (None: they did
    not opt in to be matched with players of other servers)."""

    user_id: int
    home: int
    rating: float
    since: datetime
    wide: float | None = None


def pairings(queue: Sequence[Seeker], now: datetime) -> list[tuple[Seeker, Seeker, bool]]:
    """The pairs to start now, each with whether it is played across servers.

    A match in one's own server comes first: each server's waiting players (those opted in too)
    are matched by :func:`matches` on their ratings there. The opted-in players left over are
    then matched the same way on their ratings across servers, never two of one server (their
    own server's pass found them too far apart: its ratings are the ones that count between
    them). Each player is in at most one pair (a player queued in two servers is matched once);
    nobody expired is matched."""
    homes: dict[int, list[Seeker]] = {}
    for seeker in queue:
        homes.setdefault(seeker.home, []).append(seeker)
    pairs: list[tuple[Seeker, Seeker, bool]] = []
    taken: set[int] = set()
    for home in sorted(homes):
        members = {s.user_id: s for s in homes[home] if s.user_id not in taken}
        for a, b in matches([Waiting(s.user_id, s.rating, s.since) for s in members.values()], now):
            pairs.append((members[a.user_id], members[b.user_id], False))
            taken.update((a.user_id, b.user_id))
    left = {s.user_id: s for s in queue if s.wide is not None and s.user_id not in taken}
    for a, b in matches([Waiting(s.user_id, s.wide, s.since, s.home) for s in left.values() if s.wide is not None],
                        now, apart=True):
        pairs.append((left[a.user_id], left[b.user_id], True))
    return pairs
