"""``hint(state)``: the play a good player would pick, from public information only.

The hint never reads the stock's order (a hint that peeked would be cheating in a
channel challenge); it does count which tiles are still unseen, as a careful player
would. Each legal play is tried on the solver's incremental board and the position
after it is scored:

* never make an empty cell that no unseen or reserve tile can fit (a certain loss);
* keep tiles in hand playable (and, when none are, the odds that the unseen refill
  fits somewhere);
* keep many of the tiles still to come placeable somewhere (frontier variety);
* don't leave walled-in holes that few remaining tiles fit;
* keep dragons in hand: they are the only tiles that always fit;
* in the opening (where nearly all lost games are lost), prefer plays after which
  the hand keeps going in a geometry-free replay against sampled stock orders
  (seeded from public facts, so the hint is deterministic and never sees the real
  order).
"""

from __future__ import annotations

from functools import lru_cache

from engine.continuous_pyramid import rules
from engine.continuous_pyramid.notation import play_text
from engine.continuous_pyramid.solver import Budget, _Search, relaxed_replay
from engine.continuous_pyramid.state import CPState
from engine.continuous_pyramid.tiles import FIRST_DRAGON
from engine.core.rng import Rng, derive_seed


@lru_cache(maxsize=1 << 16)
def _bits(mask: int) -> tuple[int, ...]:
    """Type ids in a mask; memoised because the same few masks recur across plays."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


CHAIN_W = 3.0


def _chain(search: _Search, acc: int) -> int:
    """Reserve tiles playable one after another from here with no help from the stock
    (geometry ignored): how long the hand can keep going on its own."""
    return relaxed_replay(search.rc[:], search.rmask, acc, (), 0)


EARLY = 20
SAMPLES = 16
REACH_CAP = 40
ROLL_W = 3.0


def _samples(state: CPState) -> list[list[int]]:
    """Stock orders a player might face: the unseen tiles (sorted, so the real order
    cannot leak in) shuffled by an RNG seeded from public facts only."""
    unseen = sorted(state.stock)
    rng = Rng(derive_seed(len(unseen), "continuous-pyramid/hint"))
    out = []
    for _ in range(SAMPLES):
        order = unseen[:]
        rng.shuffle(order)
        out.append(order[:REACH_CAP])
    return out


def _rollout_reach(search: _Search, acc: int, samples: list[list[int]]) -> float:
    """Mean number of tiles (capped) the relaxed game (geometry ignored) gets through
    with each sampled stock: how likely the opening is to keep going."""
    total = 0
    for order in samples:
        wait = search.rc[:]
        waitmask = search.rmask
        sp = 0
        if order:  # the refill of the slot just played from comes first
            wait[order[0]] += 1
            waitmask |= 1 << order[0]
            sp = 1
        total += min(relaxed_replay(wait, waitmask, acc, order, sp, REACH_CAP), REACH_CAP)
    return total / len(samples)


def _score(search: _Search, tile: int, unseen: int) -> float:
    if search.doomed():
        return -1e9
    if not search.empties:
        return 1e9
    accept = search.accept
    union = 0
    for c in search.opens:
        union |= accept[c]
    rc = search.rc
    left = search.left
    in_hand = sum(rc[u] for u in _bits(search.rmask & union))
    reachable = search.leftmask & union
    coming = sum(left[u] - rc[u] for u in _bits(reachable))
    coverage = sum(left[u] for u in _bits(reachable))
    chain = _chain(search, union)
    score = 3.0 * in_hand + CHAIN_W * chain + 0.15 * coverage
    if not in_hand:
        score -= 60.0 * (1.0 - coming / unseen) if unseen else 1e6
    for h in search.holes:
        supply = sum(left[u] for u in _bits(accept[h] & search.leftmask))
        score -= 6.0 / supply
    if tile >= FIRST_DRAGON:
        score -= 12.0
    return score


def ranked_plays(state: CPState) -> list[tuple[float, str]]:
    """Every legal play with its score, best first (ties keep the legal-move order)."""
    plays = rules.legal_plays(state)
    if not plays:
        return []
    search = _Search(state, Budget(nodes=None), hidden_stock=True)
    unseen = len(state.stock)
    samples = _samples(state) if state.placed < EARLY else []
    scored: list[tuple[float, str]] = []
    for _slot, t, c in plays:
        undo = search.place(t, c)
        score = _score(search, t, unseen)
        if samples and score > -1e8:
            union = 0
            for oc in search.opens:
                union |= search.accept[oc]
            score += ROLL_W * _rollout_reach(search, union, samples)
        search.unplace(t, c, *undo)
        scored.append((score, play_text(t, c)))
    scored.sort(key=lambda item: item[0], reverse=True)  # stable: ties keep the legal order
    return scored


def hint(state: CPState) -> str | None:
    """One legal play a good player would prefer, or None when there is none."""
    ranked = ranked_plays(state)
    return ranked[0][1] if ranked else None


__all__ = ["hint", "ranked_plays"]
