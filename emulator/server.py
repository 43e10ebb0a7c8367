"""The emulator: aiohttp app on 127.0.0.1 (random port), its lifecycle, bookkeeping and test switches.

    emu = await Emulator.start()          # binds 127.0.0.1:0
    emu.base_url                          # http://127.0.0.1:PORT  -> REST at /api/v10, gateway at /gateway
    ...
    await emu.close()

Everything the bot does wrong is recorded in ``emu.violations`` (rule id + detail, see ``limits.RULES``);
``with emu.expect_violation("content-length"): ...`` marks the ones a test provokes on purpose.

The emulator is strict by default: what Discord documents as deprecated (a follow-up completing a deferred
"thinking" response) is refused like an error. ``Emulator(strict=False)`` imitates those deprecated behaviours
instead; only tests that are about them should ask for it.

Sharding: ``Emulator(shard_count=2)`` is the shard count ``GET /gateway/bot`` recommends (default 1: a bot that
does not shard is unaffected); ``shard_guild_limit=N`` makes the gateway refuse (4011) a session that would handle more
than N guilds (Discord's limit is 2500; default: no limit). Routing itself is in ``gateway.py``. Login limits
(``max_concurrency``, ``session_start_total``, ``enforce_max_concurrency``): ``logins.py``.

Time: the emulator has its own clock (``emu.now()``; real UTC time plus whatever ``await emu.advance(...)`` added,
or an injected ``clock``). Thread auto-archiving, message timestamps, snowflakes and interaction token expiry run
on it; the 3-second interaction deadline runs on the event loop's real time.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import math
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from . import rest, webhooks
from .appctx import EMULATOR_KEY, json_response
from .errors import REQUEST_ENTITY_TOO_LARGE, APIError, Violation, unauthorized
from .gateway import Gateway
from .logins import LoginLimits
from .model import Channel, Guild, User, World, now
from .ratelimits import Limiter, RateLimits, retry_after_header

_log = logging.getLogger("emulator")

JSON = dict[str, Any]
API_PREFIX = "/api/v10"
#: Discord still answers API v9; REST proxies probe two read-only routes with it (nirn.py: ``/users/@me`` and
#: ``/gateway/bot`` when it first sees a token). Those two are served there too, and nothing else.
V9_PREFIX = "/api/v9"
#: How often, on the emulator's clock, requests look for threads to archive (``archive_inactive_threads``).
ARCHIVE_SCAN_EVERY = dt.timedelta(seconds=1)
DEFAULT_TOKEN = "emulator.bot.token"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass
class _Cut:
    route: str
    remaining: int
    where: Callable[[str], bool] | None


@dataclass
class RequestRecord:
    method: str
    route: str  # "POST /channels/{channel_id}/messages"
    path: str
    status: int
    at: float
    scope: str | None = None  # a 429's X-RateLimit-Scope: "global", "user", "shared"; "banned" for Cloudflare's


@dataclass
class Rejection:
    """A refusal that is not the bot's fault (closed DMs, 429, unknown ids): tests may assert on these."""

    route: str
    status: int
    code: int
    message: str


@dataclass
class _RateLimit:
    remaining: int
    retry_after: float
    is_global: bool


class Emulator:
    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        interaction_deadline: float = 3.0,
        token_lifetime: float = 15 * 60.0,
        attachment_size_limit: int = 10 * 1024 * 1024,
        request_size_limit: int = 25 * 1024 * 1024,
        heartbeat_interval: float = 41.25,
        heartbeat_ack_delay: float = 0.25,
        guild_name: str = "Pyramid Test Guild",
        strict: bool = True,
        clock: Callable[[], dt.datetime] | None = None,
        shard_count: int = 1,
        shard_guild_limit: int | None = None,
        rate_limits: RateLimits | None = None,
        require_allowed_mentions: bool = True,
        max_concurrency: int = 1,
        session_start_total: int = 1000,
        enforce_max_concurrency: bool = False,
    ) -> None:
        if shard_count < 1:
            raise ValueError(f"shard_count must be at least 1, got {shard_count}")
        if shard_guild_limit is not None and shard_guild_limit < 1:
            raise ValueError(f"shard_guild_limit must be at least 1 (or None), got {shard_guild_limit}")
        self.token = token
        self.interaction_deadline = interaction_deadline
        self.token_lifetime = token_lifetime
        self.attachment_size_limit = attachment_size_limit
        self.request_size_limit = request_size_limit
        self.heartbeat_interval = heartbeat_interval
        #: Seconds before a heartbeat is acknowledged: a round trip (``Gateway._ack_later``); 0: at once.
        self.heartbeat_ack_delay = heartbeat_ack_delay
        self.strict = strict
        #: Every message the bot sends or edits must say whom it may ping (``allowed-mentions-missing``).
        self.require_allowed_mentions = require_allowed_mentions
        self.shard_count = shard_count
        self.shard_guild_limit = shard_guild_limit
        #: Discord's login limits on IDENTIFY (``logins.py``): per-bucket concurrency, session starts a day.
        self.logins = LoginLimits(max_concurrency=max_concurrency, total=session_start_total,
                                  enforce_concurrency=enforce_max_concurrency)
        self._base_clock: Callable[[], dt.datetime] = clock or now
        self._clock_offset = dt.timedelta()
        #: When the threads were last looked at for archiving (see :meth:`archive_inactive_threads`).
        self._archive_scanned_at: dt.datetime | None = None
        self.world = World(clock=self.now)
        self.gateway = Gateway(self)
        self.violations: list[Violation] = []
        self.rejections: list[Rejection] = []
        self.requests: list[RequestRecord] = []
        self.in_flight = 0
        self._rate_limits: dict[str, _RateLimit] = {}
        self._cuts: list[_Cut] = []
        #: Discord's own rate limits (see ``ratelimits.py``); replace it to change them mid-test.
        self.limiter = Limiter(rate_limits if rate_limits is not None else RateLimits.discord())
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.host = "127.0.0.1"
        self.port = 0
        self.guild: Guild = self.world.add_guild(guild_name)
        self.general: Channel = self.world.add_channel(self.guild, "general")

    # --- lifecycle ----------------------------------------------------------------------------------------------

    @classmethod
    async def start(cls, **kwargs: Any) -> Emulator:
        emu = cls(**kwargs)
        await emu._start()
        return emu

    async def _start(self) -> None:
        app = web.Application(middlewares=[self._middleware], client_max_size=256 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", rest.get_attachment_file)
        rest.register(app, API_PREFIX)
        rest.register_v9_probes(app, V9_PREFIX)
        webhooks.register(app, API_PREFIX)
        app[EMULATOR_KEY] = self
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])

    async def close(self) -> None:
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Emulator:
        if self._runner is None:
            await self._start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_url(self) -> str:
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway"

    # --- violations ---------------------------------------------------------------------------------------------

    def violate(self, rule: str, detail: str, route: str = "") -> Violation:
        v = Violation(rule, detail, route)
        self.violations.append(v)
        self.notify()
        return v

    @contextlib.contextmanager
    def expect_violation(self, rule: str) -> Iterator[list[Violation]]:
        """The block must break ``rule`` (at least once); those violations are then not reported at teardown."""
        start = len(self.violations)
        caught: list[Violation] = []
        yield caught
        new = self.violations[start:]
        caught += [v for v in new if v.rule == rule]
        if not caught:
            got = ", ".join(str(v) for v in new) or "none"
            raise AssertionError(f"expected a violation of {rule!r}, got: {got}")
        for v in caught:
            v.expected = True

    @property
    def unexpected_violations(self) -> list[Violation]:
        return [v for v in self.violations if not v.expected]

    def assert_no_violations(self) -> None:
        bad = self.unexpected_violations
        if bad:
            lines = "\n  ".join(str(v) for v in bad)
            raise AssertionError(f"the bot broke Discord rules:\n  {lines}")

    # --- the clock ----------------------------------------------------------------------------------------------

    def now(self) -> dt.datetime:
        """The emulator's time: the injected clock (default: real UTC time) plus every ``advance``."""
        return self._base_clock() + self._clock_offset

    async def advance(self, **delta: float) -> list[Channel]:
        """Move the emulator's clock forward (``minutes=61``, ``days=7``...) and archive the threads that became
        inactive for their ``auto_archive_duration`` (THREAD_UPDATE is dispatched). Returns those threads."""
        step = dt.timedelta(**delta)
        if step < dt.timedelta():
            raise ValueError("the emulator's clock only moves forward")
        self._clock_offset += step
        return await self.archive_inactive_threads(at_once=True)

    async def archive_inactive_threads(self, *, at_once: bool = False) -> list[Channel]:
        """Archive every thread whose inactivity reached its ``auto_archive_duration``. Also run before every API
        request, so an injected clock that moved on its own is honoured too; there, at most once per second of
        the emulator's clock (a thread archives up to a second late, as Discord's own archiving is no more
        punctual), because looking at every channel on every request was a quarter of the emulator's time under
        the load bench. ``at_once``: look now whatever the time (an explicit :meth:`advance`)."""
        now = self.now()
        last = self._archive_scanned_at
        if not at_once and last is not None and dt.timedelta() <= now - last < ARCHIVE_SCAN_EVERY:
            return []
        self._archive_scanned_at = now
        due = self.world.threads_due_to_archive()
        for thread in due:
            thread.archived = True
            thread.archive_timestamp = self.now()
            await self.gateway.dispatch("THREAD_UPDATE", self.world.channel_payload(thread))
        if due:
            self.notify()
        return due

    # --- switches -----------------------------------------------------------------------------------------------

    def rate_limit(self, route: str, count: int = 1, *, retry_after: float = 0.05, is_global: bool = False) -> None:
        """Answer the next ``count`` requests on ``route`` ("POST /channels/{channel_id}/messages") with 429."""
        method, _, path = route.partition(" ")
        if not path.startswith("/"):
            raise ValueError(f"route must look like 'POST /channels/{{channel_id}}/messages', got {route!r}")
        self._rate_limits[f"{method.upper()} {path}"] = _RateLimit(count, retry_after, is_global)

    def cut(self, route: str, count: int = 1, *, where: Callable[[str], bool] | None = None) -> None:
        """Drop the connection of the next ``count`` requests on ``route`` (whose path passes
        ``where``, if given) as they arrive, doing nothing and answering nothing: what a request
        meets when the network fails, or what a bot killed while the request was on its way
        leaves (the work before it done, not it)."""
        method, _, path = route.partition(" ")
        if not path.startswith("/"):
            raise ValueError(f"route must look like 'PATCH /channels/{{channel_id}}/messages', got {route!r}")
        self._cuts.append(_Cut(f"{method.upper()} {path}", count, where))

    @property
    def rate_limits(self) -> RateLimits:
        return self.limiter.limits

    @rate_limits.setter
    def rate_limits(self, limits: RateLimits) -> None:
        """New limits, with fresh counters."""
        self.limiter = Limiter(limits)

    def requests_to(self, route: str) -> list[RequestRecord]:
        return [r for r in self.requests if r.route == route]

    # --- change notification (used by waiters in the harness) ----------------------------------------------------

    def notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_changed(self, timeout: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._changed.wait(), timeout)

    # --- HTTP plumbing ------------------------------------------------------------------------------------------

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not request.path.startswith((API_PREFIX + "/", V9_PREFIX + "/")):
            return await handler(request)
        route = _route_key(request)
        cut = next((c for c in self._cuts if c.route == route and c.remaining > 0
                    and (c.where is None or c.where(request.path))), None)
        if cut is not None:
            cut.remaining -= 1
            if request.transport is not None:
                request.transport.abort()
            return web.Response(status=503)  # never reaches the bot: its connection is gone
        self.in_flight += 1
        try:
            response = await self._handle_api(request, handler, route)
        finally:
            self.in_flight -= 1
            self.notify()
        at = asyncio.get_running_loop().time()
        scope = response.headers.get("X-RateLimit-Scope") if response.status == 429 else None
        if response.status == 429 and scope is None:
            scope = "banned"
        if self.limiter.answered(response.status, scope, at):
            self.violate("invalid-requests", f"more than {self.rate_limits.invalid_limit} answers 401, 403, 404 or 429 "
                         f"in {self.rate_limits.invalid_window:g} s: banned until the window has passed", route)
        self.requests.append(RequestRecord(request.method, route, request.path, response.status, at, scope))
        return response

    async def _handle_api(self, request: web.Request, handler: Handler, route: str) -> web.StreamResponse:
        bucket: dict[str, str] = {}  # the route bucket's X-RateLimit-* headers, on every answer in it
        try:
            if request.match_info.http_exception is not None:
                self.violate("unsupported-route", f"{request.method} {request.path}", route)
                return json_response({"message": "404: Not Found", "code": 0}, status=404)
            needs_auth = not route.split(" ", 1)[1].startswith(("/interactions/", "/webhooks/"))
            if needs_auth and request.headers.get("Authorization") != f"Bot {self.token}":
                raise unauthorized()
            limited = self._rate_limits.get(route)
            if limited is not None and limited.remaining > 0:
                limited.remaining -= 1
                return self._too_many_requests(route, limited)
            params = dict(request.match_info)
            verdict = self.limiter.check(route, params, asyncio.get_running_loop().time(), time.time())
            if verdict.refused is not None:
                return self._refused(route, verdict.refused, verdict.retry_after, verdict.headers)
            bucket = verdict.headers
            size = request.content_length
            if size is not None and size > self.request_size_limit:
                raise APIError(
                    413,
                    REQUEST_ENTITY_TOO_LARGE,
                    "Request entity too large",
                    rule="request-size",
                    detail=f"request body of {size} bytes, limit {self.request_size_limit}",
                )
            await self.archive_inactive_threads()
            response = await handler(request)
            response.headers.update(bucket)
            return response
        except web.HTTPException:
            raise
        except APIError as exc:
            if exc.rule:
                self.violate(exc.rule, exc.detail or exc.message, route)
                for rule, detail in exc.more_rules:
                    self.violate(rule, detail, route)
            else:
                self.rejections.append(Rejection(route, exc.status, exc.code, exc.message))
            return json_response(exc.body(), status=exc.status, headers=bucket)
        except Exception as exc:  # noqa: BLE001 - logged, reported by the harness
            # An emulator bug, not the bot's: answer 400 (a 500 would make discord.py retry with long sleeps) and log
            # it at ERROR, which the harness reports at teardown.
            _log.exception("emulator failed on %s %s", request.method, request.path)
            return json_response({"message": f"emulator error: {exc!r}", "code": 0}, status=400)

    def _refused(self, route: str, scope: str, retry_after: float, headers: dict[str, str]) -> web.Response:
        """Discord's answer to a request over a limit (see ``ratelimits.py``)."""
        self.rejections.append(Rejection(route, 429, 0, f"rate limited ({scope})"))
        if scope == "banned":  # Cloudflare's, not the API's: text, and no Via
            return web.Response(status=429, text="error code: 1015", headers={"Retry-After": retry_after_header(
                retry_after)})
        out = {**headers, "Retry-After": retry_after_header(retry_after), "X-RateLimit-Scope": scope,
               "Via": "1.1 google"}
        is_global = scope == "global"
        if is_global:
            out["X-RateLimit-Global"] = "true"
        message = "The resource is being rate limited." if scope == "shared" else "You are being rate limited."
        body = {"message": message, "retry_after": round(retry_after, 3), "global": is_global}
        return json_response(body, status=429, headers=out)

    def _too_many_requests(self, route: str, rl: _RateLimit) -> web.Response:
        self.rejections.append(Rejection(route, 429, 0, "You are being rate limited."))
        headers = {
            "Retry-After": str(math.ceil(rl.retry_after)),
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{time.time() + rl.retry_after:.3f}",
            "X-RateLimit-Reset-After": f"{rl.retry_after:.3f}",
            "X-RateLimit-Bucket": "emulator-" + route.replace(" ", "-"),
            "X-RateLimit-Scope": "global" if rl.is_global else "user",
            # discord.py treats a 429 without "Via" as a Cloudflare ban and does not retry
            "Via": "1.1 google",
        }
        if rl.is_global:
            headers["X-RateLimit-Global"] = "true"
        body = {"message": "You are being rate limited.", "retry_after": rl.retry_after, "global": rl.is_global}
        return json_response(body, status=429, headers=headers)

    # --- world shortcuts ----------------------------------------------------------------------------------------

    @property
    def bot(self) -> User:
        return self.world.bot


def _route_key(request: web.Request) -> str:
    info = request.match_info
    if info.http_exception is not None or info.route.resource is None:
        path = request.path
    else:
        path = info.route.resource.canonical
    return f"{request.method} {path.removeprefix(API_PREFIX).removeprefix(V9_PREFIX)}"
