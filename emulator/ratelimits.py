"""Discord's rate limits, as the emulator enforces them (topics/rate-limits).

Three limits, each answered the way Discord answers it:

- **Per route**: each route (``METHOD path-template``) has buckets, one per top-level
  resource in its path (``channel_id``, ``guild_id``, ``webhook_id`` + ``token``, an
  interaction). Every answer in a bucket carries ``X-RateLimit-Limit``, ``-Remaining``,
  ``-Reset`` (epoch seconds), ``-Reset-After`` and ``-Bucket`` (the route's hash, without
  the resource); a request on an exhausted bucket gets 429 with ``Retry-After``,
  ``X-RateLimit-Scope: user`` and the JSON body ``{message, retry_after, global: false}``.
- **Global**: every request a bot token makes, across all its processes and shards, counts
  against ``global_per_second`` (Discord: 50), except the interaction endpoints (the
  callback and the interaction's webhook). Beyond it: 429 with ``X-RateLimit-Global: true``,
  ``X-RateLimit-Scope: global`` and ``global: true`` in the body.
- **Shared buckets**: some limits span several routes (:class:`Shared`): one bucket per resource
  that every route of the group counts against, named by the same ``X-RateLimit-Bucket``. Scope
  ``user`` is one of the bot's own per-route limits shared across similar endpoints (adding and
  removing reactions: one bucket per channel); scope ``shared`` is a limit on the resource itself
  (emoji routes, per guild: "limited on a per-guild basis"), checked besides the route's own bucket;
  its 429 says ``X-RateLimit-Scope: shared`` and "The resource is being rate limited.".
- **Invalid requests**: answers 401, 403, 404 and 429 (except scope ``shared``) are counted; more
  than ``invalid_limit`` in ``invalid_window`` seconds (Discord: 10,000 in 10 minutes) bans
  the client until the window has passed: every request then gets Cloudflare's 429, a plain
  text body without ``Via`` (discord.py then gives up instead of retrying). The doc names 401,
  403 and 429, and warns that repeating requests that answer 404 (a deleted webhook) brings the
  same temporary restriction: 404s are counted too.

Windows are fixed: a bucket's window starts at its first request and resets ``per``
seconds later, as Discord's ``Reset-After`` counts down. Time is the event loop's (real)
time, not the emulator's injectable clock: rate limits are about the wall clock a client
waits. Tests set small limits with ``Emulator(rate_limits=RateLimits(...))`` or by
replacing ``emulator.rate_limits``.
"""

from __future__ import annotations

import hashlib
import math
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field

#: Path parameters that are top-level resources: their value makes a bucket of its own.
TOP_LEVEL = ("channel_id", "guild_id", "webhook_id", "interaction_id")


@dataclass(frozen=True)
class Limit:
    """``limit`` requests per ``per`` seconds."""

    limit: int
    per: float

    def __post_init__(self) -> None:
        if self.limit < 1 or self.per <= 0:
            raise ValueError(f"a rate limit needs at least 1 request in a positive period, got {self}")


#: What Discord answers on the routes a game bot uses most (its headers, as observed; Discord
#: documents that routes have limits, not their numbers, which "are subject to change").
DISCORD_ROUTES: Mapping[str, Limit] = {
    "POST /channels/{channel_id}/messages": Limit(5, 5.0),
    "PATCH /channels/{channel_id}/messages/{message_id}": Limit(5, 5.0),
    "DELETE /channels/{channel_id}/messages/{message_id}": Limit(5, 1.0),
}

#: Statuses counted toward the invalid-request limit (429s of scope ``shared`` excepted).
INVALID_STATUSES = frozenset({401, 403, 404, 429})


@dataclass(frozen=True)
class Shared:
    """One bucket per resource (the routes' top-level parameters) that every route in ``routes``
    counts against. ``scope`` ``"user"``: it replaces those routes' own buckets (a per-route limit
    shared across similar endpoints); ``"shared"``: a per-resource limit checked as well as the
    routes' own buckets, whose 429s do not count toward the invalid-request limit."""

    routes: frozenset[str]
    limit: Limit
    scope: str = "user"

    def __post_init__(self) -> None:
        if self.scope not in ("user", "shared"):
            raise ValueError(f"a shared bucket's scope is 'user' or 'shared', got {self.scope!r}")


_REACTION = "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}"
_EMOJIS = "/guilds/{guild_id}/emojis"

#: Limits that span routes, as Discord answers them. Reactions: one bucket per channel for adding
#: and removing them (observed: 1 per 0.25 s). Emojis: a per-guild limit on every emoji route
#: (topics/rate-limits: "limited on a per-guild basis"; the number is not published, 30 per
#: minute is the emulator's).
DISCORD_SHARED: Mapping[str, Shared] = {
    "reactions": Shared(
        frozenset({f"PUT {_REACTION}/@me", f"DELETE {_REACTION}/@me", f"DELETE {_REACTION}/{{user_id}}",
                   f"DELETE {_REACTION}", "DELETE /channels/{channel_id}/messages/{message_id}/reactions"}),
        Limit(1, 0.25),
    ),
    "emojis": Shared(
        frozenset({f"GET {_EMOJIS}", f"POST {_EMOJIS}", f"GET {_EMOJIS}/{{emoji_id}}", f"PATCH {_EMOJIS}/{{emoji_id}}",
                   f"DELETE {_EMOJIS}/{{emoji_id}}"}),
        Limit(30, 60.0),
        scope="shared",
    ),
}


@dataclass
class RateLimits:
    """The limits one emulator enforces. ``None`` switches a limit off.

    ``RateLimits()`` is Discord's global limit (50 a second) and invalid-request limit, with a
    generous bucket on every route (50 a second per resource: the headers are there, and only
    a flood hits it) and nothing else: a base for tests that set their own buckets.
    :meth:`discord` adds Discord's tighter buckets on message routes (5 posts per 5 s in a
    channel) and its buckets shared across routes; it is what an ``Emulator`` enforces unless told
    otherwise. :meth:`off` turns everything off (say so where a test does).
    """

    global_per_second: int | None = 50
    route_default: Limit | None = field(default_factory=lambda: Limit(50, 1.0))
    routes: dict[str, Limit] = field(default_factory=dict)
    shared: dict[str, Shared] = field(default_factory=dict)
    invalid_limit: int | None = 10_000
    invalid_window: float = 600.0
    #: Every window (routes, shared buckets, the global second, the invalid-request window) lasts
    #: ``time_scale`` times its length: the same counts on a faster clock (``discord(time_scale=0.1)``:
    #: 5 posts per 0.5 s in a channel). The bot reads the windows from the headers, as from Discord.
    time_scale: float = 1.0

    def __post_init__(self) -> None:
        if self.time_scale <= 0:
            raise ValueError(f"time_scale must be positive, got {self.time_scale}")

    @classmethod
    def discord(cls, **changes: object) -> RateLimits:
        """Discord's limits, with its buckets on the message routes and across routes."""
        limits = cls(routes=dict(DISCORD_ROUTES), shared=dict(DISCORD_SHARED))
        for name, value in changes.items():
            setattr(limits, name, value)
        return limits

    @classmethod
    def off(cls) -> RateLimits:
        return cls(global_per_second=None, route_default=None, invalid_limit=None)

    def for_route(self, route: str) -> Limit | None:
        return self.routes.get(route, self.route_default)

    def groups(self, route: str) -> list[tuple[str, Shared]]:
        """The shared buckets ``route`` counts against, by name."""
        return [(name, group) for name, group in self.shared.items() if route in group.routes]


def exempt(route: str) -> bool:
    """Interaction endpoints are not bound to the global limit (the callback and the
    interaction's webhook: follow-ups, @original)."""
    path = route.partition(" ")[2]
    return path.startswith(("/interactions/", "/webhooks/"))


def bucket_hash(route: str) -> str:
    return hashlib.sha1(route.encode()).hexdigest()[:16]


@dataclass
class _Window:
    limit: Limit
    started: float
    used: int = 0

    def fresh(self, now: float) -> bool:
        return now < self.started + self.limit.per

    def reset_after(self, now: float) -> float:
        return max(0.0, self.started + self.limit.per - now)


@dataclass(frozen=True)
class Verdict:
    """What a request got from the limiter: the bucket's headers, and whether it is refused."""

    headers: dict[str, str]
    refused: str | None = None  # "global", "user" (a route's bucket), "shared" (a resource's), or "banned"
    retry_after: float = 0.0


class Limiter:
    """The counters behind :class:`RateLimits`, for one emulator (one bot token)."""

    def __init__(self, limits: RateLimits) -> None:
        self.limits = limits
        self._buckets: dict[tuple[str, tuple[str, ...]], _Window] = {}
        self._global: _Window | None = None
        self._invalid: deque[float] = deque()
        self.banned_until = 0.0
        #: Counts, for tests and benches: 429s by scope, bans.
        self.refused: dict[str, int] = {"global": 0, "user": 0, "shared": 0, "banned": 0}

    def check(self, route: str, params: Mapping[str, str], now: float, wall: float) -> Verdict:
        """Count one request on ``route`` (its path parameters ``params``) at loop time ``now``
        (``wall``: epoch seconds, for ``X-RateLimit-Reset``)."""
        limits = self.limits
        if now < self.banned_until:
            self.refused["banned"] += 1
            return Verdict({}, "banned", self.banned_until - now)
        headers: dict[str, str] = {}
        if limits.global_per_second is not None and not exempt(route):
            window = self._global
            if window is None or not window.fresh(now) or window.limit.limit != limits.global_per_second:
                window = self._global = _Window(Limit(limits.global_per_second, limits.time_scale), now)
            if window.used >= window.limit.limit:
                self.refused["global"] += 1
                return Verdict({}, "global", window.reset_after(now))
            window.used += 1
        # (scope, bucket name, limit) of every bucket the request counts against; the first gives the headers
        groups = limits.groups(route)
        own: list[tuple[str, str, Limit]] = [("user", name, self._scaled(g.limit)) for name, g in groups
                                             if g.scope == "user"]
        if not own and (limit := limits.for_route(route)) is not None:
            own = [("user", route, self._scaled(limit))]
        plan = own + [("shared", name, self._scaled(g.limit)) for name, g in groups if g.scope == "shared"]
        if not plan:
            return Verdict(headers)
        resource = tuple(params.get(p, "") for p in TOP_LEVEL if p in params) + (
            (params["token"],) if "webhook_id" in params and "token" in params else ()
        )
        windows = [(scope, name, self._window((name, resource), limit, now)) for scope, name, limit in plan]
        refused = next(((scope, w) for scope, _, w in windows if w.used >= w.limit.limit), None)
        if refused is None:
            for _, _, w in windows:
                w.used += 1
        _, name, first = windows[0]
        reset_after = first.reset_after(now)
        headers = {
            "X-RateLimit-Limit": str(first.limit.limit),
            "X-RateLimit-Remaining": str(max(0, first.limit.limit - first.used)),
            "X-RateLimit-Reset": f"{wall + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket_hash(name),
        }
        if refused is not None:
            scope, window = refused
            self.refused[scope] += 1
            return Verdict(headers, scope, window.reset_after(now))
        return Verdict(headers)

    def _scaled(self, limit: Limit) -> Limit:
        scale = self.limits.time_scale
        return limit if scale == 1.0 else Limit(limit.limit, limit.per * scale)

    def _window(self, key: tuple[str, tuple[str, ...]], limit: Limit, now: float) -> _Window:
        """The bucket ``key``'s current window (a new one once it has reset)."""
        bucket = self._buckets.get(key)
        if bucket is None or not bucket.fresh(now) or bucket.limit != limit:
            bucket = self._buckets[key] = _Window(limit, now)
            if len(self._buckets) > 10_000:
                self._forget_stale(now)
        return bucket

    def answered(self, status: int, scope: str | None, now: float) -> bool:
        """Count an answer towards the invalid-request limit; True when it just started a ban."""
        limit = self.limits.invalid_limit
        if limit is None or status not in INVALID_STATUSES or (status == 429 and scope == "shared"):
            return False
        window = self.limits.invalid_window * self.limits.time_scale
        self._invalid.append(now)
        while self._invalid and self._invalid[0] <= now - window:
            self._invalid.popleft()
        if len(self._invalid) > limit and now >= self.banned_until:
            self.banned_until = self._invalid[0] + window
            return True
        return False

    @property
    def invalid_requests(self) -> int:
        """Invalid answers in the current window."""
        return len(self._invalid)

    def _forget_stale(self, now: float) -> None:
        for key in [k for k, w in self._buckets.items() if not w.fresh(now)]:
            del self._buckets[key]


def retry_after_header(seconds: float) -> str:
    """``Retry-After`` in whole seconds, as Discord sends it (the body has the decimals)."""
    return str(max(1, math.ceil(seconds)))
