"""Where discord.py sends its REST requests and where it opens the gateway: Discord's own, a REST
rate-limit proxy, or the local emulator used by the tests.

Two places, set apart on purpose (issue #42): a REST proxy such as nirn-proxy forwards HTTP only (it has no
WebSocket code), so a bot whose REST goes through one must still open its gateway at Discord. Hence
``PYRAMID_REST_URL`` moves REST alone, ``PYRAMID_GATEWAY_URL`` the gateway alone, and ``PYRAMID_API_BASE_URL``
(the emulator, which serves both) both at once; a setting of its own overrides the base for its part.

Why it patches class attributes: discord.py has no per-client setting for where it connects.

* REST: every request URL is built as ``discord.http.Route.BASE + path`` (a class attribute, read when each
  ``Route`` is created). The interaction routes — the callback, follow-ups, editing the original response — go
  through ``discord.webhook.async_``, which builds the same ``Route`` objects, so patching ``Route.BASE`` moves
  them too.
* Gateway: ``AutoShardedClient`` with a shard count connects to the class attribute
  ``DiscordWebSocket.DEFAULT_GATEWAY`` (wss://gateway.discord.gg/), and so does every new session after an
  INVALID_SESSION; after READY it resumes to the ``resume_gateway_url`` the server sent. The bot always knows its
  shard count before connecting (``bot.gateway.logins``), so the default gateway is what it opens. The base URL
  puts it at ``ws://HOST:PORT/gateway`` (the emulator's ``/gateway/bot`` answers the same URL).

Because these are process-wide, configure before creating the client and call ``configure_api_base(None)`` to go
back to Discord (the test fixtures do this at teardown).
"""

from __future__ import annotations

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

DISCORD_API_BASE: str = "https://discord.com/api/v10"
DISCORD_GATEWAY: yarl.URL = yarl.URL("wss://gateway.discord.gg/")
API_PATH = "/api/v10"


def rest_base(url: str) -> str:
    """``http(s)://host[:port][/prefix][/api/v10]`` → the REST base discord.py prefixes every route with."""
    parsed = yarl.URL(url.rstrip("/"))
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise ValueError(f"must be http(s)://host[:port], got {url!r}")
    root = parsed.path.removesuffix(API_PATH).rstrip("/")
    return str(parsed.origin()) + root + API_PATH


def gateway_of_base(url: str) -> yarl.URL:
    """The gateway a server answering both REST and the gateway (the emulator) has at ``url``: ``ws(s)://…/gateway``."""
    parsed = yarl.URL(url.rstrip("/"))
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise ValueError(f"must be http(s)://host[:port], got {url!r}")
    root = parsed.path.removesuffix(API_PATH).rstrip("/")
    ws_scheme = "wss" if parsed.scheme == "https" else "ws"
    return parsed.origin().with_scheme(ws_scheme).with_path(root + "/gateway")


def gateway_url(url: str) -> yarl.URL:
    """A gateway named on its own: ``ws(s)://host[:port][/path]``."""
    parsed = yarl.URL(url.strip())
    if parsed.scheme not in ("ws", "wss") or not parsed.host:
        raise ValueError(f"must be ws(s)://host[:port][/path], got {url!r}")
    return parsed


def configure_endpoints(*, base_url: str | None = None, rest_url: str | None = None,
                        gateway: str | None = None) -> None:
    """Send discord.py's REST (webhooks and interactions included) to ``rest_url``, else to ``base_url``, else to
    Discord; and open the gateway at ``gateway``, else at ``base_url``'s ``/gateway``, else at Discord's."""
    rest = rest_base(rest_url) if rest_url else rest_base(base_url) if base_url else DISCORD_API_BASE
    ws = gateway_url(gateway) if gateway else gateway_of_base(base_url) if base_url else DISCORD_GATEWAY
    Route.BASE = rest
    DiscordWebSocket.DEFAULT_GATEWAY = ws


def configure_api_base(base_url: str | None) -> None:
    """Send discord.py's REST, webhook and gateway traffic to ``base_url`` (e.g. ``http://127.0.0.1:8123``):
    REST at ``base_url + "/api/v10"``, gateway at ``ws://…/gateway``. ``None`` restores the real Discord URLs."""
    configure_endpoints(base_url=base_url)
