"""How route handlers reach the emulator that owns the aiohttp app, and what they may read of it.

``EmulatorContext`` is the part of ``server.Emulator`` the handlers (``rest``, ``webhooks``, ``messages``,
``access``) use. It is declared here, below them, so they do not import the server that registers them."""

from __future__ import annotations

import datetime as dt
import json
from typing import TYPE_CHECKING, Protocol

from aiohttp import web

from .gateway import GatewayHost

if TYPE_CHECKING:
    from .errors import Violation
    from .gateway import Gateway
    from .model import User


class EmulatorContext(GatewayHost, Protocol):
    gateway: Gateway
    strict: bool
    interaction_deadline: float
    token_lifetime: float
    attachment_size_limit: int
    request_size_limit: int
    require_allowed_mentions: bool
    shard_count: int

    @property
    def base_url(self) -> str: ...

    @property
    def bot(self) -> User: ...

    def now(self) -> dt.datetime: ...

    def violate(self, rule: str, detail: str, route: str = "") -> Violation: ...


EMULATOR_KEY: web.AppKey[EmulatorContext] = web.AppKey("emulator")


def emulator_of(request: web.Request) -> EmulatorContext:
    return request.app[EMULATOR_KEY]


def json_response(data: object, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON with ``Content-Type: application/json`` exactly — discord.py parses bodies only for that header value
    (aiohttp's ``json_response`` appends ``; charset=utf-8``)."""
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={**(headers or {}), "Content-Type": "application/json"}
    )
