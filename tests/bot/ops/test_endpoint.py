"""The metrics and health endpoint in-process: real HTTP, a real database file, a real
(unconnected) discord.py client, and the interaction timing through a real aiohttp trace."""

from __future__ import annotations

import logging
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp import web
from prometheus_client.parser import text_string_to_metric_families

from bot.ops import health
from bot.ops.endpoint import MetricsPortError, OpsServer
from bot.ops.metrics import ErrorCounter, Metrics, instrument
from bot.store import Database, SqliteDatabase


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def value(page: str, name: str, **labels: str) -> float:
    for family in text_string_to_metric_families(page):
        for sample in family.samples:
            if sample.name == name and sample.labels == labels:
                return float(sample.value)
    raise KeyError(name)


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await SqliteDatabase.open(tmp_path / "bot.db")
    yield database
    await database.close()


@asynccontextmanager
async def serving(metrics: Metrics, db: Database) -> AsyncIterator[tuple[aiohttp.ClientSession, str]]:
    """The endpoint of ``metrics``, its health read from ``db`` and a client that never
    connects; yields an HTTP session and the endpoint's address."""
    client = discord.Client(intents=discord.Intents.none())  # never started: not connected
    port = free_port()
    server = OpsServer(metrics, lambda: health.check(client, db), "127.0.0.1", port)
    await server.start()
    try:
        async with aiohttp.ClientSession() as http:
            yield http, f"http://127.0.0.1:{port}"
    finally:
        await server.close()
        await client.close()


async def test_healthz_is_503_until_connected_and_names_what_is_wrong(db: Database) -> None:
    async with serving(Metrics(), db) as (http, url):
        async with http.get(f"{url}/healthz") as resp:
            assert resp.status == 503
            assert await resp.json() == {"status": "unhealthy", "discord": False, "database": True}
        await db.close()
        async with http.get(f"{url}/healthz") as resp:
            assert resp.status == 503
            assert (await resp.json())["database"] is False


async def test_metrics_reads_the_backlog_and_survives_a_failing_source(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    metrics = Metrics()
    backlog = [4]

    async def outbox_backlog() -> int:
        if not backlog:
            raise RuntimeError("the outbox table is locked")
        return backlog[0]

    metrics.watch(render_queue=lambda: 2, ai_queue=lambda: 1, outbox_backlog=outbox_backlog)
    async with serving(metrics, db) as (http, url):
        async with http.get(f"{url}/metrics") as resp:
            page = await resp.text()
        assert value(page, "pyramid_outbox_backlog") == 4
        assert value(page, "pyramid_render_queue_depth") == 2
        assert value(page, "pyramid_ai_queue_depth") == 1
        backlog.clear()
        with caplog.at_level(logging.ERROR):
            async with http.get(f"{url}/metrics") as resp:
                assert resp.status == 200, "one failing source does not fail the scrape"
                assert value(await resp.text(), "pyramid_outbox_backlog") == 4  # the last value read
        assert "outbox backlog" in caplog.text


async def test_a_port_in_use_is_a_sentence() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        server = OpsServer(Metrics(), _never, "127.0.0.1", taken.getsockname()[1])
        with pytest.raises(MetricsPortError, match="PYRAMID_METRICS_PORT"):
            await server.start()


async def _never() -> health.Health:
    raise AssertionError("not asked")


async def test_an_interaction_is_timed_from_receipt_to_its_accepted_callback() -> None:
    """The trace sees the callback request exactly as discord.py sends it (POST
    /interactions/{id}/{token}/callback), here to a local aiohttp server."""
    now = [100.0]
    metrics = Metrics(timer=lambda: now[0])
    app = web.Application()

    async def callback(_request: web.Request) -> web.Response:
        return web.Response(status=204)

    app.router.add_post("/interactions/{id}/{token}/callback", callback)
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        metrics.interaction_started(42, "component")  # what on_interaction records
        now[0] = 100.4
        async with aiohttp.ClientSession(trace_configs=[metrics.http_trace()]) as http:
            async with http.post(f"http://127.0.0.1:{port}/interactions/42/tok/callback", json={"type": 6}):
                pass
            async with http.post(f"http://127.0.0.1:{port}/interactions/42/tok/callback", json={"type": 6}):
                pass  # a second response to the same interaction is not its first
    finally:
        await runner.cleanup()
    page = _page(metrics)
    assert value(page, "pyramid_interaction_response_seconds_sum", kind="component") == pytest.approx(0.4)
    assert value(page, "pyramid_interaction_response_seconds_count", kind="component") == 1
    assert value(page, "pyramid_interaction_response_seconds_bucket", kind="component", le="0.5") == 1
    assert value(page, "pyramid_interaction_response_seconds_bucket", kind="component", le="0.25") == 0


def test_errors_are_counted_from_the_log() -> None:
    metrics = Metrics()
    handler = ErrorCounter(metrics)
    logger = logging.getLogger("tests.bot.ops.errors")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logger.warning("not an error")
        logger.error("a click failed")
        logger.critical("the sky fell")
    finally:
        logger.removeHandler(handler)
        logger.propagate = True
    page = _page(metrics)
    assert value(page, "pyramid_errors_total", level="error") == 1
    assert value(page, "pyramid_errors_total", level="critical") == 1


def test_two_bots_never_count_into_each_other() -> None:
    one, two = Metrics(games=["pyrinoes"]), Metrics(games=["pyrinoes"])
    one.moves.labels("pyrinoes").inc()
    assert value(_page(one), "pyramid_moves_total", game="pyrinoes") == 1
    assert value(_page(two), "pyramid_moves_total", game="pyrinoes") == 0


def _page(metrics: Metrics) -> str:
    from prometheus_client import generate_latest

    return generate_latest(metrics.registry).decode()


async def test_instrumenting_a_client_keeps_its_own_interaction_handler() -> None:
    seen: list[int] = []

    class Client(discord.Client):
        async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
            seen.append(interaction.id)

    client = Client(intents=discord.Intents(guilds=True))
    metrics = Metrics()
    instrument(client, metrics)
    assert client.http.http_trace is not None, "the callback timing is hooked into discord.py's HTTP session"
    payload: Any = {  # a component click, as the gateway delivers it
        "id": "42", "application_id": "1", "type": 3, "token": "t", "version": 1, "channel_id": "5",
        "attachment_size_limit": 10485760,
        "user": {"id": "7", "username": "ana", "discriminator": "0", "avatar": None},
        "data": {"custom_id": "x", "component_type": 2},
    }
    interaction = discord.Interaction(data=payload, state=client._connection)
    await client.on_interaction(interaction)  # what dispatching the event calls
    assert seen == [42]
    assert value(_page(metrics), "pyramid_interactions_total", kind="component") == 1
    await client.close()
