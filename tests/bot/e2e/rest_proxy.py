"""A real REST rate-limit proxy in front of the emulator: nirn.py (PyPI), run in the test's event loop.

nirn.py (1.0.3) has no setting for its upstream: ``nirn_proxy.discord_client.DiscordClient`` builds every URL as
``"https://discord.com" + path``. So the only part changed here is where its HTTP session sends that URL: the
session is wrapped so ``https://discord.com`` becomes the emulator's origin. Everything a proxy does (a queue per
token, per-route buckets learnt from the emulator's X-RateLimit headers, the global limit, 429 handling) is
nirn.py's own code, unchanged. Its two probes at start (``/api/v9/users/@me``, ``/api/v9/gateway/bot``) reach
the emulator too; the emulator serves v10 only, so they are answered 404 and nirn.py falls back to Discord's 50
a second, as it does for any answer without ``max_concurrency``.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from aiohttp import ClientSession, web
from nirn_proxy.config import Config
from nirn_proxy.queue_manager import QueueManager

DISCORD = "https://discord.com"


class UpstreamSession:
    """nirn.py's HTTP session, with Discord's origin replaced by ``origin`` in every request; counts them."""

    def __init__(self, session: ClientSession, origin: str) -> None:
        self._session = session
        self.origin = origin
        self.forwarded: list[tuple[str, str]] = []

    def request(self, method: str, url: str, **kwargs: Any) -> Any:
        if url.startswith(DISCORD):
            url = self.origin + url.removeprefix(DISCORD)
        self.forwarded.append((method, url))
        return self._session.request(method, url, **kwargs)

    async def close(self) -> None:
        await self._session.close()


class RestProxy:
    """nirn.py listening on 127.0.0.1 (a random port), forwarding to ``upstream``."""

    def __init__(self, manager: QueueManager, upstream: UpstreamSession, runner: web.AppRunner, port: int) -> None:
        self.manager = manager
        self.upstream = upstream
        self._runner = runner
        self.port = port

    @property
    def url(self) -> str:
        """What the bot's ``PYRAMID_REST_URL`` names: the proxy as if it were discord.com."""
        return f"http://127.0.0.1:{self.port}/api/v10"


@asynccontextmanager
async def rest_proxy(upstream_origin: str) -> AsyncIterator[RestProxy]:
    saved = {k: os.environ.get(k) for k in ("ENABLE_METRICS", "LOG_LEVEL")}
    os.environ.update(ENABLE_METRICS="false", LOG_LEVEL="warn")  # read by Config(); no metrics server here
    try:
        config = Config()
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    manager = QueueManager(config)
    await manager.initialize()
    client = manager.discord_client
    assert client is not None and client.session is not None
    upstream = UpstreamSession(client.session, upstream_origin)
    client.session = upstream  # type: ignore[assignment]
    runner = web.AppRunner(manager.create_app(), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = int(runner.addresses[0][1])
    try:
        yield RestProxy(manager, upstream, runner, port)
    finally:
        await runner.cleanup()
        await manager.shutdown()
