"""What to do when Discord (or the network) refuses an announcement.

Three kinds of trouble, three answers:

- passing trouble (429, 5xx, a dropped connection): try again soon, backing off;
- a refusal the bot cannot fix by trying again at once (missing permissions or
  access, an archived or locked thread, an unknown channel): keep the announcement, name the
  cause, and try again every few minutes, or at once when the cause is reported
  fixed (``OutboxStore.retry_blocked``);
- nothing left to do (the message to edit is gone): the item is done.

``uncertain`` says the request may have reached Discord even though it failed (a
timeout, a 5xx): the retry must then reuse the same nonce and content.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import timedelta

import aiohttp
import discord

from bot.store import CorruptRecord

#: How often a blocked announcement is tried again (on the bot's clock).
BLOCKED_RETRY = timedelta(minutes=5)
#: A request Discord refused as malformed (a bug on our side) is retried rarely.
REJECTED_RETRY = timedelta(hours=1)
FIRST_BACKOFF = timedelta(seconds=2)
MAX_BACKOFF = timedelta(minutes=5)

#: Discord's JSON error codes that block an announcement until someone fixes the cause.
BLOCKING_CODES: dict[int, str] = {
    50013: "missing_permissions",
    50001: "missing_access",
    50083: "thread_archived",
    160005: "thread_locked",
    10003: "unknown_channel",
}
UNKNOWN_MESSAGE = 10008
CANNOT_DM = 50007


class Blocked(Exception):
    """The bot knows before asking that Discord would refuse (its cached permissions,
    a locked thread): the same cause as the matching Discord error, without spending
    a request that would count against the bot's invalid-request limit."""

    def __init__(self, cause: str, detail: str) -> None:
        super().__init__(detail)
        self.cause = cause


@dataclass(frozen=True)
class Failure:
    reason: str
    retry_in: timedelta
    blocked: str | None = None
    uncertain: bool = False
    #: Nothing is left to deliver (e.g. the message whose buttons were to go is deleted).
    finished: bool = False


def backoff(attempts: int) -> timedelta:
    """2 s, 4 s, 8 s ... up to five minutes, for the ``attempts``-th retry."""
    delay: timedelta = FIRST_BACKOFF * (2 ** min(max(attempts, 0), 16))
    return min(MAX_BACKOFF, delay)


def classify(exc: BaseException, attempts: int) -> Failure:
    """How to treat ``exc`` raised by the ``attempts``-th try (0 for the first)."""
    if isinstance(exc, Blocked):
        return Failure(f"{exc.cause}: {exc}", BLOCKED_RETRY, blocked=exc.cause)
    if isinstance(exc, discord.HTTPException):
        code, status = exc.code, exc.status
        reason = f"{status} {code}: {exc.text}".strip()
        if code in BLOCKING_CODES:
            return Failure(reason, BLOCKED_RETRY, blocked=BLOCKING_CODES[code])
        if code == UNKNOWN_MESSAGE:
            return Failure(reason, timedelta(0), finished=True)
        if status == 429:
            return Failure(reason, backoff(attempts))
        if status >= 500:
            return Failure(reason, backoff(attempts), uncertain=True)
        return Failure(reason, REJECTED_RETRY, blocked="rejected")
    if isinstance(exc, discord.RateLimited):  # raised without an HTTP response when the wait is too long
        return Failure(f"rate limited for {exc.retry_after:.0f} s", timedelta(seconds=exc.retry_after))
    if isinstance(exc, (aiohttp.ClientError, OSError, asyncio.TimeoutError)):
        return Failure(f"network: {exc!r}", backoff(attempts), uncertain=True)
    if isinstance(exc, CorruptRecord):
        return Failure(str(exc), REJECTED_RETRY, blocked="damaged_record")
    return Failure(f"error: {exc!r}", min(REJECTED_RETRY, backoff(attempts)), uncertain=True)
