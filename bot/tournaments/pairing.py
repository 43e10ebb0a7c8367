"""Who plays whom in a tournament's round: pure functions, no I/O.

**Swiss** (two-player games). Players are ordered by points, then rating, then sign-up
(``swiss_order``) and paired down that order, each with the nearest player below not
met before (the Monrad system: 1–2, 3–4, … within what the history allows). With an
odd number, one player sits out with a bye worth a win: the lowest in the order who has
had no bye yet. No two players meet twice while any pairing without a repeat (and with
the bye to a player without one) exists: when the quick pass down the order gets stuck,
a maximum matching (Edmonds' blossom algorithm) over the pairs not yet met decides, and
only when that finds no complete pairing are repeats allowed, fewest first by the same
quick pass. No player ever gets a second bye: when every player still in has had one,
``NoBye`` is raised and the tournament ends.

**Round robin.** The circle method: every pair of entrants meets exactly once over
*n* − 1 rounds (*n* with an odd number, each player sitting out once).

**Multi-player rounds** (3–6 player games). The tables are re-drawn every round by the
standings: the best players sit at the first table, the next at the second, and so on,
with table sizes as equal as the game allows. Players who cannot be seated (too few for
another table) sit out, lowest first among those who have sat out least.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

#: A pair of players who met, in either order.
Pair = frozenset[int]


class NoBye(Exception):
    """An odd number of players, every one of whom has had a bye already."""


@dataclass(frozen=True)
class SwissRound:
    """A Swiss round: its pairs (the better-placed player first) and who has the bye."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None


def swiss_order(players: Iterable[int], points: Mapping[int, float], ratings: Mapping[int, float]) -> list[int]:
    """The pairing order: points, then rating (higher first), then sign-up (lower first)."""
    return sorted(players, key=lambda p: (-points.get(p, 0.0), -ratings.get(p, 0.0), p))


def swiss_round(order: Sequence[int], met: Collection[Pair], had_bye: Collection[int]) -> SwissRound:
    """Pair ``order`` (best first) for one Swiss round; see the module's rules."""
    players = list(order)
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    met_set = met if isinstance(met, (set, frozenset)) else set(met)
    byes = set(had_bye)
    bye: int | None = None
    if len(players) % 2:
        free = [p for p in reversed(players) if p not in byes]
        if not free:
            raise NoBye
        # The quick pass: the lowest player without a bye sits out, the rest pair down.
        for candidate in free[:3]:
            rest = [p for p in players if p != candidate]
            quick = _down_the_order(rest, met_set)
            if quick is not None:
                return SwissRound(quick, candidate)
        exact = _exact(players, met_set, byes)
        if exact is not None:
            return exact
        bye = free[0]
        players = [p for p in players if p != bye]
    else:
        quick = _down_the_order(players, met_set)
        if quick is not None:
            return SwissRound(quick, None)
        exact = _exact(players, met_set, byes)
        if exact is not None:
            return exact
    return SwissRound(_fewest_repeats(players, met_set), bye)


def _down_the_order(players: Sequence[int], met: Collection[Pair]) -> tuple[tuple[int, int], ...] | None:
    """Each unpaired player with the nearest unpaired one below not met; None when one is stuck."""
    left = list(players)
    pairs: list[tuple[int, int]] = []
    while left:
        first = left.pop(0)
        for index, other in enumerate(left):
            if frozenset((first, other)) not in met:
                pairs.append((first, other))
                del left[index]
                break
        else:
            return None
    return tuple(pairs)


def _fewest_repeats(players: Sequence[int], met: Collection[Pair]) -> tuple[tuple[int, int], ...]:
    """No pairing without a repeat exists: pair down the order, an unmet player when there is one."""
    left = list(players)
    pairs: list[tuple[int, int]] = []
    while left:
        first = left.pop(0)
        index = next((i for i, other in enumerate(left) if frozenset((first, other)) not in met), 0)
        pairs.append((first, left.pop(index)))
    return tuple(pairs)


def _exact(order: Sequence[int], met: Collection[Pair], had_bye: Collection[int]) -> SwissRound | None:
    """A complete pairing without a repeat (and the bye, if any, to a player without one), if any exists.

    A maximum matching on the graph of pairs not yet met; with an odd number a vertex
    "bye" joins every player without a bye. It starts from the quick pass's pairs, so
    the pairs it keeps are near in the order."""
    players = list(order)
    count = len(players)
    bye_vertex = count if count % 2 else -1
    size = count + (1 if bye_vertex >= 0 else 0)
    may_bye = [p not in had_bye for p in players]

    def neighbours(v: int) -> Iterable[int]:
        if v == bye_vertex:
            return (u for u in range(count) if may_bye[u])
        them = players[v]
        found = (u for u in range(count) if u != v and frozenset((them, players[u])) not in met)
        if bye_vertex >= 0 and may_bye[v]:
            return _chain(found, bye_vertex)
        return found

    mate = [-1] * size
    # Seed with a greedy pass down the order (skipping the stuck), then augment.
    for v in range(count):
        if mate[v] != -1:
            continue
        for u in range(v + 1, count):
            if mate[u] == -1 and frozenset((players[v], players[u])) not in met:
                mate[v], mate[u] = u, v
                break
    matching = maximum_matching(size, neighbours, mate)
    if any(m == -1 for m in matching):
        return None
    pairs: list[tuple[int, int]] = []
    bye: int | None = None
    for v in range(count):
        u = matching[v]
        if u == bye_vertex:
            bye = players[v]
        elif v < u:
            pairs.append((players[v], players[u]))
    return SwissRound(tuple(pairs), bye)


def _chain(first: Iterable[int], last: int) -> Iterable[int]:
    yield from first
    yield last


def maximum_matching(size: int, neighbours: Callable[[int], Iterable[int]], mate: list[int]) -> list[int]:
    """Edmonds' blossom algorithm: grow ``mate`` (vertex → its partner, -1 for none) to a maximum matching.

    Each unmatched vertex is the root of one search for an augmenting path; odd cycles
    (blossoms) are shrunk onto their base as they are found."""
    match = list(mate)
    for root in range(size):
        if match[root] != -1:
            continue
        end, parent = _augmenting_path(size, neighbours, match, root)
        while end != -1:
            previous = parent[end]
            after = match[previous]
            match[end], match[previous] = previous, end
            end = after
    return match


def _augmenting_path(size: int, neighbours: Callable[[int], Iterable[int]], match: list[int],
                     root: int) -> tuple[int, list[int]]:
    used = [False] * size
    parent = [-1] * size
    base = list(range(size))
    used[root] = True
    queue = deque([root])

    def common_base(a: int, b: int) -> int:
        seen = [False] * size
        while True:
            a = base[a]
            seen[a] = True
            if match[a] == -1:
                break
            a = parent[match[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[match[b]]

    def mark(v: int, stop: int, child: int, blossom: list[bool]) -> None:
        while base[v] != stop:
            blossom[base[v]] = blossom[base[match[v]]] = True
            parent[v] = child
            child = match[v]
            v = parent[match[v]]

    while queue:
        v = queue.popleft()
        for to in neighbours(v):
            if base[v] == base[to] or match[v] == to:
                continue
            if to == root or (match[to] != -1 and parent[match[to]] != -1):
                current = common_base(v, to)
                blossom = [False] * size
                mark(v, current, to, blossom)
                mark(to, current, v, blossom)
                for i in range(size):
                    if blossom[base[i]]:
                        base[i] = current
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if match[to] == -1:
                    return to, parent
                used[match[to]] = True
                queue.append(match[to])
    return -1, parent


def round_robin(players: Sequence[int]) -> list[list[tuple[int, int | None]]]:
    """Every round of a round robin (circle method); ``None`` is the bye of an odd number."""
    seats: list[int | None] = list(players)
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    if len(seats) % 2:
        seats.append(None)
    count = len(seats)
    rounds: list[list[tuple[int, int | None]]] = []
    for number in range(count - 1):
        games: list[tuple[int, int | None]] = []
        for i in range(count // 2):
            a, b = seats[i], seats[count - 1 - i]
            if number % 2 and i == 0:
                a, b = b, a  # the fixed player alternates sides
            if a is None:
                a, b = b, a
            assert a is not None
            games.append((a, b))
        rounds.append(games)
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return rounds


@dataclass(frozen=True)
class TablesRound:
    """A multi-player round: its tables (best players first) and who sits out."""

    tables: tuple[tuple[int, ...], ...]
    sitting_out: tuple[int, ...]


def table_sizes(count: int, smallest: int, largest: int) -> list[int]:
    """Sizes of the tables for ``count`` players: as few tables as the largest size allows,
    sizes as equal as possible, none below ``smallest``; the seats left over sit out."""
    if smallest < 2 or largest < smallest:
        raise ValueError("table sizes out of range")
    tables = -(-count // largest)
    while tables and tables * smallest > count:
        tables -= 1
    if not tables:
        return []
    seated = min(count, tables * largest)
    base, extra = divmod(seated, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def tables_round(order: Sequence[int], smallest: int, largest: int,
                 sat_out: Mapping[int, int] | None = None) -> TablesRound:
    """Seat ``order`` (the standings, best first) at tables for one multi-player round."""
    players = list(order)
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    sizes = table_sizes(len(players), smallest, largest)
    out_count = len(players) - sum(sizes)
    counts = sat_out or {}
    rank = {p: i for i, p in enumerate(players)}
    # Sit out: fewest sit-outs so far first, then the lowest placed.
    out = sorted(players, key=lambda p: (counts.get(p, 0), -rank[p]))[:out_count]
    seated = [p for p in players if p not in set(out)]
    tables: list[tuple[int, ...]] = []
    start = 0
    for size in sizes:
        tables.append(tuple(seated[start:start + size]))
        start += size
    return TablesRound(tuple(tables), tuple(sorted(out, key=rank.__getitem__)))
