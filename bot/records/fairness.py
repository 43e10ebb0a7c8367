"""Provably fair deals: the seal a game shows at its start, over its hidden shuffle.

Every game's deal is a function of its kind, options, players and seed, and the
seed is secret while the game runs (it rebuilds every hidden hand and stock, CP-3).
So at the start the thread shows a *commitment*: SHA-256 over the kind, the seed and
a random salt the game got when it was created. At the end the seed and salt are
revealed, and anyone can hash them again (``pyramid-bot verify``, or by hand with
``printf`` and ``sha256sum``) to see that the deal they played was fixed before the
first move. The salt is what keeps the seal from being reversed: without it, a
seal over a seed alone could be matched by trying seeds.

The hashed bytes are fixed and documented (docs/game-record.md): the UTF-8 text of
four lines joined by ``\\n``, no trailing newline::

    pyramid-bot deal v1
    <game kind>          e.g. flaming-pyramids
    <seed in decimal>    e.g. 1000
    <salt>               32 lowercase hex digits

These are pure functions: no I/O, no clock.
"""

from __future__ import annotations

import hashlib
import hmac

#: The first line of the sealed text; a different scheme would get another.
SCHEME = "pyramid-bot deal v1"
#: How a commitment is written: ``sha256:`` and 64 lowercase hex digits.
PREFIX = "sha256:"


def sealed_bytes(kind: str, seed: int, salt: str) -> bytes:
    """The exact bytes the commitment hashes (see the module's docstring)."""
    return "\n".join((SCHEME, kind, str(int(seed)), salt)).encode("utf-8")


def commitment(kind: str, seed: int, salt: str) -> str:
    """``sha256:<hex>`` over :func:`sealed_bytes`."""
    return PREFIX + hashlib.sha256(sealed_bytes(kind, seed, salt)).hexdigest()


def matches(sealed: str, kind: str, seed: int, salt: str) -> bool:
    """Whether ``sealed`` is the commitment to ``kind``, ``seed`` and ``salt``."""
    return hmac.compare_digest(sealed.strip().lower().encode(), commitment(kind, seed, salt).encode())


def seal_line(sealed: str, *, challenge: bool = False) -> str:
    """The line the game's first board carries. A challenge's deal is never revealed
    (others may still be playing it), and its seal says so rather than promise it."""
    if challenge:
        return (f"🔒 Deal sealed: `{sealed}` (a shared deal: others may still play it, so its seed and salt "
                "stay secret)")
    return (f"🔒 Deal sealed: `{sealed}` (the seed and salt are revealed when the game ends; "
            "check them with `pyramid-bot verify`)")


def reveal_line(seed: int, salt: str) -> str:
    """The line that reveals a finished game's deal."""
    return (f"🔓 Deal revealed: seed `{seed}` · salt `{salt}` — `pyramid-bot verify` on the `/pyramid history` "
            "file checks them against the 🔒 seal fixed before the first move")


#: What a challenge game's last board says instead of revealing its deal.
CHALLENGE_SEALED = ("🔒 This deal stays sealed: it is shared (a challenge's or the daily deal's), and others may "
                    "still be playing it, so its seed and salt are never shown (CP-3).")
