"""Point discord.py at another Discord API server — the local emulator used by the tests, or a local mock.

Off by default: unless the bot's settings name an API base URL, nothing here runs and discord.py talks to
discord.com. Only for tests and local development.

Why it patches class attributes: discord.py has no per-client setting for where it connects.

* REST: every request URL is built as ``discord.http.Route.BASE + path`` (a class attribute, read when each
  ``Route`` is created). The interaction routes — the callback, follow-ups, editing the original response — go
  through ``discord.webhook.async_``, which builds the same ``Route`` objects, so patching ``Route.BASE`` moves
  them too.
* Gateway: a plain ``discord.Client`` never asks ``GET /gateway/bot``; it connects to the class attribute
  ``DiscordWebSocket.DEFAULT_GATEWAY`` (wss://gateway.discord.gg/), and after READY resumes to the
  ``resume_gateway_url`` the server sent. Only ``AutoShardedClient`` uses ``/gateway/bot``. So the default gateway
  is patched as well, to ``ws://HOST:PORT/gateway`` (the emulator's ``/gateway/bot`` answers the same URL).

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


def configure_api_base(base_url: str | None) -> None:
    """Send discord.py's REST, webhook and gateway traffic to ``base_url`` (e.g. ``http://127.0.0.1:8123``):
    REST at ``base_url + "/api/v10"``, gateway at ``ws://…/gateway``. ``None`` restores the real Discord URLs."""
    if base_url is None:
        Route.BASE = DISCORD_API_BASE
        DiscordWebSocket.DEFAULT_GATEWAY = DISCORD_GATEWAY
        return
    url = yarl.URL(base_url.rstrip("/"))
    if url.scheme not in ("http", "https") or not url.host:
        raise ValueError(f"API base URL must be http(s)://host[:port], got {base_url!r}")
    root = url.path.removesuffix(API_PATH).rstrip("/")
    origin = url.origin()
    Route.BASE = str(origin) + root + API_PATH
    ws_scheme = "wss" if url.scheme == "https" else "ws"
    DiscordWebSocket.DEFAULT_GATEWAY = origin.with_scheme(ws_scheme).with_path(root + "/gateway")
