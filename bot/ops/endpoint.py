"""The operator's HTTP endpoint: ``/healthz`` and ``/metrics`` (Prometheus).

It runs in the bot's own event loop (aiohttp, which discord.py already uses), so a
scrape sees the bot exactly as it is, and binds to 127.0.0.1 unless the operator
says otherwise: the numbers are for the operator, not the internet."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from bot.ops.health import Health
from bot.ops.metrics import Metrics


class MetricsPortError(Exception):
    """The endpoint cannot listen where the settings say."""


class OpsServer:
    def __init__(self, metrics: Metrics, health: Callable[[], Awaitable[Health]], host: str, port: int) -> None:
        self._metrics = metrics
        self._health = health
        self.host = host
        self.port = port
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._scrape)
        self._runner = web.AppRunner(app, access_log=None)

    async def start(self) -> None:
        await self._runner.setup()
        try:
            await web.TCPSite(self._runner, self.host, self.port).start()
        except OSError as exc:
            await self._runner.cleanup()
            raise MetricsPortError(
                f"Cannot serve /healthz and /metrics on {self.host}:{self.port} ({exc.strerror or exc}): choose"
                " another PYRAMID_METRICS_PORT (or PYRAMID_METRICS_HOST), or leave it empty to turn the endpoint off."
            ) from exc

    async def close(self) -> None:
        await self._runner.cleanup()

    async def _healthz(self, _request: web.Request) -> web.Response:
        health = await self._health()
        return web.Response(status=200 if health.status == "ok" else 503, text=health.model_dump_json(),
                            content_type="application/json")

    async def _scrape(self, _request: web.Request) -> web.Response:
        await self._metrics.refresh()
        body = generate_latest(self._metrics.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})
