"""Games of a shared deal (a challenge's, the daily deal's): who may see them, and when.

Everyone who enters a challenge plays the same deal, and each board tells what came
from the face-down stock, so one entrant's game shows another the stock order they
are about to meet (CP-3). So an entrant's game is seen only by that entrant until the
deal is *settled*: the challenge has closed (no new entries, :data:`CHALLENGE_DAYS`
after it was opened) and none of its games is still running. Until then:

- the game is played in a private thread of the entrant's (``bot.lobbies.challenges``),
  where its boards and its end-of-game replay are seen by the entrant alone;
- nothing shows it to anyone else: ``game:N`` (``/pyramid history``, ``status``,
  ``replay``), forged and stale clicks alike ask the visibility rule
  (:mod:`bot.core.visibility`), which asks :func:`settled`;
- it is never moved to a public place (``bot.posting.rescue``);
- the challenge's leaderboard shows scores only, never boards or moves.

The daily deal is played in each player's DMs and is never settled: a daily game's
moves are shown to nobody but its player.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.store import GameRecord, GameStore
from bot.store.records import ChallengeRecord

#: A challenge takes entries for this long after it is opened; then it is closed.
CHALLENGE_DAYS = 7


def closes_at(challenge: ChallengeRecord) -> datetime:
    """When ``challenge`` stops taking entries."""
    if challenge.closes_at is not None:
        return datetime.fromisoformat(challenge.closes_at)
    return datetime.fromisoformat(challenge.created_at) + timedelta(days=CHALLENGE_DAYS)


def is_daily(challenge: ChallengeRecord) -> bool:
    """The daily deal's challenge rows belong to no server (``bot.daily.deals``)."""
    return challenge.guild_id is None


def is_closed(challenge: ChallengeRecord, now: datetime) -> bool:
    return is_daily(challenge) or now >= closes_at(challenge)


async def settled(store: GameStore, record: GameRecord, now: datetime) -> bool:
    """Whether anyone may see ``record``: it plays no shared deal, or its challenge is
    closed and none of the deal's games is still running (the daily deal: never)."""
    if record.challenge_id is None:
        return True
    challenge = await store.get_challenge(record.challenge_id)
    if challenge is None or is_daily(challenge) or not is_closed(challenge, now):
        return False
    return not await store.challenge_running(challenge.id)

