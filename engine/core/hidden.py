"""Re-dealing what a seat cannot see, for ``Game.determinize``.

Every game samples hidden information the same way: pool the hidden groups (other
hands, face-down piles, a bag), sort the pool, shuffle it and deal it back in groups
of the same sizes. Sorting first is what makes the sample *canonical*: it depends
only on which things are hidden and on the Rng, never on where they really lie, so
an AI given two states that differ only in hidden things decides the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from engine.core.rng import Rng

T = TypeVar("T", str, int)


def redeal(groups: Sequence[Sequence[T]], rng: Rng) -> list[tuple[T, ...]]:
    """``groups`` re-dealt at random from their pooled contents, each keeping its size,
    dealt in the order given."""
    pool = sorted(item for group in groups for item in group)
    rng.shuffle(pool)
    dealt: list[tuple[T, ...]] = []
    at = 0
    for group in groups:
        dealt.append(tuple(pool[at:at + len(group)]))
        at += len(group)
    return dealt
