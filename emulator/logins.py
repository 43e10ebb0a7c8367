"""Discord's login limits on IDENTIFY (gateway.mdx, "Identifying", "Rate Limiting", "Max Concurrency",
"Session Start Limit Object"):

* **Concurrency.** A bot may start ``max_concurrency`` sessions per 5 seconds, one in each bucket: a shard's bucket
  (its "rate limit key") is ``shard_id % max_concurrency`` (a session without ``shard`` is shard 0). A second
  IDENTIFY in a bucket within 5 s of the last accepted one is answered with
  op 9 INVALID_SESSION (``d: false``), which is what the docs say Discord does; no session starts and nothing is
  counted. Enforced when ``Emulator(enforce_max_concurrency=True)``: off by default, because tests restart bots
  faster than Discord allows and discord.py's own default hook lets the first shard of every process identify at
  once (several toy bots started together would be refused, as on Discord).
* **Session starts a day.** ``total`` IDENTIFYs (1000) per 24 hours, counted from the first one of the window on
  the emulator's clock (``reset_after`` is what is left of it). Always enforced: an IDENTIFY when none remains
  does what Discord does on hitting the limit: every active session is terminated, the token is reset (the old
  one is refused by REST, 401, and by the gateway, close 4004 Authentication failed) and the refused IDENTIFY is
  closed with 4004.

RESUMEs count against neither.
"""

from __future__ import annotations

import datetime as dt
from collections import deque
from dataclasses import dataclass, field

#: Discord's: IDENTIFYs per bucket are counted over 5 seconds; starts over a day.
IDENTIFY_WINDOW = 5.0
START_WINDOW = dt.timedelta(hours=24)


@dataclass
class Refusal:
    """An IDENTIFY the limits refused: ``why`` is "concurrency" (op 9) or "starts" (token reset, 4004)."""

    why: str
    shard: tuple[int, int] | None
    at: float


@dataclass
class LoginLimits:
    max_concurrency: int = 1
    total: int = 1000
    enforce_concurrency: bool = False
    window: float = IDENTIFY_WINDOW
    #: Loop times of the accepted IDENTIFYs of each bucket within the last window.
    _recent: dict[int, deque[float]] = field(default_factory=dict)
    _window_start: dt.datetime | None = None
    used: int = 0
    refusals: list[Refusal] = field(default_factory=list)
    #: Loop times of every accepted IDENTIFY, with its shard (for tests measuring start-up).
    accepted: list[tuple[float, tuple[int, int] | None]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.max_concurrency < 1:
            raise ValueError(f"max_concurrency must be at least 1, got {self.max_concurrency}")
        if self.total < 1:
            raise ValueError(f"session_start_total must be at least 1, got {self.total}")

    @staticmethod
    def bucket(shard: tuple[int, int] | None, max_concurrency: int) -> int:
        return (shard[0] if shard is not None else 0) % max_concurrency

    def _roll(self, now: dt.datetime) -> None:
        if self._window_start is not None and now >= self._window_start + START_WINDOW:
            self._window_start, self.used = None, 0

    def remaining(self, now: dt.datetime) -> int:
        self._roll(now)
        return max(0, self.total - self.used)

    def reset_after_ms(self, now: dt.datetime) -> int:
        self._roll(now)
        if self._window_start is None:
            return int(START_WINDOW.total_seconds() * 1000)
        return max(0, int((self._window_start + START_WINDOW - now).total_seconds() * 1000))

    def admit(self, shard: tuple[int, int] | None, at: float, now: dt.datetime) -> str | None:
        """Whether an IDENTIFY of ``shard`` arriving at loop time ``at`` (emulator clock ``now``) may start a
        session: None, and it is counted; else the refusal's reason ("starts" or "concurrency")."""
        if self.remaining(now) == 0:
            self.refusals.append(Refusal("starts", shard, at))
            return "starts"
        recent = self._recent.setdefault(self.bucket(shard, self.max_concurrency), deque())
        while recent and recent[0] <= at - self.window:
            recent.popleft()
        if self.enforce_concurrency and recent:
            self.refusals.append(Refusal("concurrency", shard, at))
            return "concurrency"
        recent.append(at)
        if self._window_start is None:
            self._window_start = now
        self.used += 1
        self.accepted.append((at, shard))
        return None

    def payload(self, now: dt.datetime) -> dict[str, int]:
        """``session_start_limit`` of ``GET /gateway/bot``."""
        return {"total": self.total, "remaining": self.remaining(now), "reset_after": self.reset_after_ms(now),
                "max_concurrency": self.max_concurrency}


