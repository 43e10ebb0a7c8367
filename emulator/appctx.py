"""How route handlers reach the emulator that owns the aiohttp app."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from aiohttp import web

if TYPE_CHECKING:
    from .server import Emulator

EMULATOR_KEY: web.AppKey[Emulator] = web.AppKey("emulator")


def emulator_of(request: web.Request) -> Emulator:
    return request.app[EMULATOR_KEY]


def json_response(data: object, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON with ``Content-Type: application/json`` exactly — discord.py parses bodies only for that header value
    (aiohttp's ``json_response`` appends ``; charset=utf-8``)."""
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={**(headers or {}), "Content-Type": "application/json"}
    )
