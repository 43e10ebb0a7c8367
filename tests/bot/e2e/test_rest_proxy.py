"""The bot's REST through a real rate-limit proxy (nirn.py) in front of the emulator, its gateway straight to the
emulator (issue #42): PYRAMID_REST_URL moves REST alone, PYRAMID_GATEWAY_URL the gateway alone. A proxy that
forwards only HTTP can thus carry the bot's REST, and the bot's own limiter stands aside
(``PYRAMID_REST_PER_SECOND`` at its most)."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.config.api_base import configure_endpoints
from bot.config.settings import load_settings
from bot.core.services import Services
from bot.games.catalogue import Catalogue
from emulator.harness import Harness
from emulator.server import Emulator
from tests.bot.clock import FakeClock
from tests.bot.e2e.conftest import BotUnderTest
from tests.bot.e2e.driver import boards, play_out, start_flaming
from tests.bot.e2e.rest_proxy import RestProxy, rest_proxy


@pytest.fixture
async def proxy(emulator: Emulator) -> AsyncIterator[RestProxy]:
    async with rest_proxy(emulator.base_url) as running:
        yield running


@pytest.fixture
def bot_factory(
    proxy: RestProxy, database: str, clock: FakeClock, bots: list[BotUnderTest], catalogue: Catalogue
) -> Callable[[str, str], Awaitable[BotUnderTest]]:
    """The bot as an operator behind a proxy runs it: REST at the proxy, the gateway at the emulator, the bot's
    own spacing of requests out of the proxy's way. No PYRAMID_API_BASE_URL."""
    seeds = itertools.count(1000)

    async def make(api_base_url: str, token: str) -> BotUnderTest:
        emulator_gateway = "ws" + api_base_url.removeprefix("http") + "/gateway"
        settings = load_settings(
            discord_token=token, rest_url=proxy.url, gateway_url=emulator_gateway, rest_per_second=10_000,
            database=database, ai_delay_seconds=0, render_workers=0,
        )
        assert settings.api_base_url is None
        configure_endpoints(base_url=settings.api_base_url, rest_url=settings.rest_url, gateway=settings.gateway_url)
        services = await Services.open(settings, clock, catalogue=catalogue, new_seed=lambda: next(seeds),
                                       sweep_seconds=3600.0)
        bot = BotUnderTest(services)
        bots.append(bot)
        return bot

    return make


def test_each_setting_moves_its_own_part() -> None:
    try:
        configure_endpoints(rest_url="http://proxy:8080/api/v10")
        assert Route.BASE == "http://proxy:8080/api/v10"
        assert str(DiscordWebSocket.DEFAULT_GATEWAY) == "wss://gateway.discord.gg/", "the gateway stays at Discord"
        configure_endpoints(gateway="ws://127.0.0.1:9/gateway")
        assert Route.BASE == "https://discord.com/api/v10" and str(DiscordWebSocket.DEFAULT_GATEWAY) == (
            "ws://127.0.0.1:9/gateway")
        configure_endpoints(base_url="http://127.0.0.1:7", rest_url="http://proxy:8080")
        assert Route.BASE == "http://proxy:8080/api/v10", "REST's own setting wins over the base"
        assert str(DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:7/gateway", "the base still places the gateway"
    finally:
        configure_endpoints()
    assert Route.BASE == "https://discord.com/api/v10"


async def test_a_game_is_played_with_rest_through_the_proxy(
    emulator: Emulator, harness: Harness, proxy: RestProxy
) -> None:
    alice, bob = await harness.add_user("alice"), await harness.add_user("bob")
    await harness.start_bot()
    assert harness.bot.client.rest_limit.per_second == 10_000
    thread, game_id = await start_flaming(emulator, harness, [alice, bob], turn_limit=4)
    final = await play_out(harness, game_id, {0: alice, 1: bob}, thread)
    assert final.result is not None
    assert "Game over" in boards(harness, thread)[-1].text
    for user in (alice, bob):
        assert any(m.png_attachments() for m in harness.dm(user)), f"{user.name}'s hand came by DM"
    # Every REST request the emulator saw came through the proxy: its own start-up probes (v9, answered 404) and
    # the bot's (command sync, boards, DMs, interaction answers).
    forwarded: Any = proxy.upstream.forwarded
    bot_requests = [r for r in emulator.requests if r.path.startswith("/api/v10")]
    assert bot_requests, "the bot made REST requests"
    through = [url for _, url in forwarded if "/api/v10/" in url]
    assert len(through) == len(bot_requests), (len(through), len(bot_requests))
    assert emulator.requests_to("POST /interactions/{interaction_id}/{token}/callback")
    # The gateway did not go through the proxy (it could not: nirn.py has no WebSocket code).
    assert not [url for _, url in forwarded if url.endswith("/gateway")]
    assert [s.shard for s in emulator.gateway.connected_sessions]
