"""A tiny seeded RNG whose whole state is one integer.

Python's ``random.Random`` state is large and version-dependent; a splitmix64 state
fits in a position JSON, copies for free and gives the same stream on every Python,
which is what makes games replayable from their seed.
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


class Rng:
    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def copy(self) -> Rng:
        return Rng(self.state)

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def random(self) -> float:
        return (self.next64() >> 11) / float(1 << 53)

    def shuffle(self, items: MutableSequence[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: list[T] | tuple[T, ...]) -> T:
        return items[self.below(len(items))]


def derive_seed(seed: int, label: str) -> int:
    """A stable sub-seed, so independent streams (AI, deals) never share numbers.

    A cryptographic hash, because labels differ by a digit or two ("ai:12:0") and a
    home-made mix of them collided badly."""
    digest = hashlib.blake2b(f"{seed & _MASK}:{label}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")
