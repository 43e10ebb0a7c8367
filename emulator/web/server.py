"""The web client's HTTP side: the page, what it reads, what it sends, and its live updates.

    web = await WebClient.start(emulator)          # http://127.0.0.1:PORT/?user=ana
    ...
    await web.close()

Routes (all under the page's own origin, loopback only; ``guard.py`` refuses a foreign ``Host`` or ``Origin`` and
a state-changing request that is not JSON, on every route):

- ``GET /`` the page (``static/index.html``; the tab's user is ``?user=<name>``), ``GET /static/…`` its script
  and styles;
- ``GET /client/people`` who one can be; ``GET /client/state?user=`` the sidebar (``views.state``) and what an
  empty channel's welcome suggests (``welcome``),
  ``GET /client/channels/{id}/messages?user=``, ``GET /client/channels/{id}/commands?user=``;
- ``POST /client/interactions?user=`` a command, autocomplete, click, select or modal (``actions``); the answer is
  the bot's initial response as far as the client shows it (a modal, choices, or "This interaction failed");
- ``POST /client/messages?user=`` a plain message;
- ``GET /client/events?user=`` server-sent events: a ``change`` event each time the emulator's world changed
  (a request of the bot, an interaction, a gateway event), bursts coalesced; the page then re-reads what it
  shows.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import web

from ..errors import APIError
from ..interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    BotNotConnected,
    HarnessError,
)
from ..model import User
from . import actions, views
from .guard import OwnOrigin

if TYPE_CHECKING:
    from ..server import Emulator

STATIC = Path(__file__).with_name("static")
STATIC_FILES = {"app.js": "text/javascript", "app.css": "text/css"}
#: Coalesce bursts of changes (a move is a dozen requests) into one event for the page.
EVENT_COALESCE_SECONDS = 0.04
KEEPALIVE_SECONDS = 15.0
#: The page runs only the script it was served, and no other page may frame it (and trick clicks out of it).
PAGE_POLICY = "script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'"


def _json(data: Any, status: int = 200) -> web.Response:
    return web.json_response(data, status=status, dumps=lambda d: json.dumps(d, ensure_ascii=False))


def _refusal(message: str, status: int = 400) -> web.Response:
    return _json({"message": message}, status=status)


class WebClient:
    """The page's server, next to an emulator, on a loopback address only: it acts as any user its own page asks
    it to (``guard.py`` keeps every other web page out)."""

    def __init__(self, emulator: Emulator, *, host: str = "127.0.0.1", port: int = 0,
                 welcome: Sequence[Mapping[str, Any]] = ()) -> None:
        if not ipaddress.ip_address(host).is_loopback:
            raise ValueError(f"the web client listens on this machine only (a loopback address), not {host!r}")
        self.emulator = emulator
        #: What an empty channel suggests trying: ``{"command": "/pyramid new", "options": {"game": "*"}}`` each
        #: (an option's "*" is one suggestion per choice of it); the page fills the command box with one on a click.
        self.welcome = [dict(w) for w in welcome]
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None
        self._own = OwnOrigin(host, port)  # the port is known once it listens
        self._closing = asyncio.Event()

    @classmethod
    async def start(cls, emulator: Emulator, *, host: str = "127.0.0.1", port: int = 0,
                    welcome: Sequence[Mapping[str, Any]] = ()) -> WebClient:
        client = cls(emulator, host=host, port=port, welcome=welcome)
        await client._start()
        return client

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/"

    def url_for(self, username: str) -> str:
        return f"{self.url}?user={username}"

    async def _start(self) -> None:
        # a modal's file upload sends up to 10 files within the attachment size limit, base64 in JSON
        most = 10 * self.emulator.attachment_size_limit * 4 // 3 + (1 << 20)
        app = web.Application(middlewares=[self._guard, self._errors], client_max_size=most)
        app.router.add_get("/", self._page)
        app.router.add_get("/static/{name}", self._static)
        app.router.add_get("/client/people", self._people)
        app.router.add_get("/client/state", self._state)
        app.router.add_get("/client/channels/{channel_id}/messages", self._messages)
        app.router.add_get("/client/channels/{channel_id}/commands", self._commands)
        app.router.add_post("/client/interactions", self._interaction)
        app.router.add_post("/client/messages", self._say)
        app.router.add_get("/client/events", self._events)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        self._own = OwnOrigin(self.host, self.port)

    @property
    def app(self) -> web.Application:
        """The aiohttp application (its routes), once started."""
        assert self._runner is not None, "the web client is not started"
        return self._runner.app

    async def close(self) -> None:
        self._closing.set()
        self.emulator.notify()  # wakes the event streams so they end
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # --- plumbing -----------------------------------------------------------------------------------------------

    @web.middleware
    async def _guard(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """The first thing every request meets: only this server's own page (or a program, not a browser page
        elsewhere) gets further (``guard.py``)."""
        refused = self._own.refusal(request.method, request.headers.get("Host"), request.headers.get("Origin"),
                                    request.content_type if request.headers.get("Content-Type") else "")
        if refused is not None:
            return _refusal(refused.message, refused.status)
        response: web.StreamResponse = await handler(request)
        if not response.prepared:  # a stream of events has sent its headers already
            response.headers.setdefault("X-Content-Type-Options", "nosniff")
        return response

    @web.middleware
    async def _errors(self, request: web.Request, handler: Any) -> web.StreamResponse:
        try:
            response: web.StreamResponse = await handler(request)
            return response
        except views.UnknownUser as exc:
            return _refusal(str(exc), 404)
        except HarnessError as exc:  # what Discord's client would not let the user do, said to the user
            return _refusal(str(exc))
        except APIError as exc:
            return _refusal(exc.message, exc.status)

    def _user(self, request: web.Request) -> User:
        """The user a request acts as: the one its tab is for, ``?user=`` in its URL, for every route.

        Any user of the playground may be anyone (the page's user switch is one click), so there is no secret to
        keep between its people; what must not name a user is another web page, and ``_guard`` has already
        refused every request such a page could make (foreign ``Host`` or ``Origin``, or not JSON, which a
        cross-site page cannot send without a preflight). A user named in the body is not read: one place names
        it, for reads and acts alike."""
        return views.find_user(self.emulator, request.query.get("user", ""))

    # --- the page -----------------------------------------------------------------------------------------------

    async def _page(self, request: web.Request) -> web.Response:
        return web.Response(body=(STATIC / "index.html").read_bytes(), content_type="text/html", charset="utf-8",
                            headers={"Cache-Control": "no-cache", "Content-Security-Policy": PAGE_POLICY})

    async def _static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        kind = STATIC_FILES.get(name)
        if kind is None:
            raise web.HTTPNotFound()
        return web.Response(body=(STATIC / name).read_bytes(), content_type=kind, charset="utf-8",
                            headers={"Cache-Control": "no-cache"})

    # --- reading ------------------------------------------------------------------------------------------------

    async def _people(self, request: web.Request) -> web.Response:
        return _json([views.user_json(u) for u in views.people(self.emulator)])

    async def _state(self, request: web.Request) -> web.Response:
        return _json({**views.state(self.emulator, self._user(request)), "welcome": self.welcome})

    async def _messages(self, request: web.Request) -> web.Response:
        user = self._user(request)
        channel = actions.channel_for(self.emulator, user, request.match_info["channel_id"])
        return _json(views.messages(self.emulator, user, channel))

    async def _commands(self, request: web.Request) -> web.Response:
        user = self._user(request)
        channel = actions.channel_for(self.emulator, user, request.match_info["channel_id"])
        return _json(views.commands(self.emulator, user, channel))

    # --- acting -------------------------------------------------------------------------------------------------

    async def _body(self, request: web.Request) -> dict[str, Any]:
        try:
            body = await request.json()
        except ValueError:
            raise HarnessError("the request is not JSON") from None
        if not isinstance(body, dict):
            raise HarnessError("the request must be a JSON object")
        return body

    async def _interaction(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        user = self._user(request)
        kind = body.get("type")
        emu = self.emulator
        try:
            if kind in (APPLICATION_COMMAND, AUTOCOMPLETE):
                inter = await actions.run_command(emu, user, body)
            elif kind == MESSAGE_COMPONENT:
                inter = await actions.use_component(emu, user, body)
            elif kind == MODAL_SUBMIT:
                inter = await actions.submit_modal(emu, user, body)
            else:
                raise HarnessError(f"interaction type {kind!r} is not one a user makes")
        except BotNotConnected:  # Discord delivers it nowhere and the client says so
            return _json({"failed": "This interaction failed", "answered": False})
        return _json(await actions.answer_of(emu, inter))

    async def _say(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        message = await actions.say(self.emulator, self._user(request), body)
        return _json({"id": str(message.id)})

    # --- live updates -------------------------------------------------------------------------------------------

    async def _events(self, request: web.Request) -> web.StreamResponse:
        self._user(request)
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"})
        await response.prepare(request)
        emu = self.emulator
        count = 0
        with contextlib.suppress(ConnectionError, asyncio.CancelledError):
            await response.write(b"retry: 500\n\n")
            while not self._closing.is_set():
                # the emulator's change signal, or a quiet while: then the page re-reads anyway (a keep-alive)
                await emu.wait_changed(KEEPALIVE_SECONDS)
                if self._closing.is_set():
                    break
                await asyncio.sleep(EVENT_COALESCE_SECONDS)
                count += 1
                await response.write(f"event: change\ndata: {count}\n\n".encode())
        return response
