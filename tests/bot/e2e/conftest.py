"""The whole bot against the local Discord emulator, with a temporary database and
a clock the tests move by hand. A test that needs a game of its own overrides the
``catalogue`` fixture (``Catalogue.default().with_games(presenter)``)."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.client.client import PyramidClient
from bot.config.api_base import configure_api_base
from bot.config.settings import load_settings
from bot.core.services import Services
from bot.games.catalogue import Catalogue
from bot.workers.cpu import CpuPool
from emulator.fixtures import emulator as base_emulator  # noqa: F401 - pytest fixtures
from emulator.fixtures import emulator_options, harness  # noqa: F401 - pytest fixtures
from emulator.ratelimits import RateLimits
from emulator.server import Emulator
from tests.bot.clock import FakeClock
from tests.bot.e2e.alt_text import pictures_without_alt_text


class BotUnderTest:
    """What the harness starts and stops: one client and the services it owns."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.client = PyramidClient(services)

    async def start(self, token: str) -> None:
        await self.client.start(token)

    async def close(self) -> None:
        try:
            await self.client.close()
        finally:
            await self.services.close()

    async def wait_until_ready(self) -> None:
        await self.client.wait_until_ready()


# The rate limits every bot test meets unless its ``emulator_options`` name others: Discord's
# (``RateLimits.discord()``: 5 posts and 5 edits per 5 s in a channel, reactions, the global 50 a
# second, the invalid-request ban), on a clock ten times faster, so that a whole game against an
# AI (one board per move, every move at once) is held by the channel's bucket for tenths of
# seconds rather than seconds. ``test_rate_limits.py`` plays at Discord's own windows.
def fast_discord_limits() -> RateLimits:
    """A fresh copy of the limits (a test may change its own)."""
    return RateLimits.discord(time_scale=0.1)


@pytest.fixture
async def emulator(
    base_emulator: Emulator, emulator_options: dict[str, Any]  # noqa: F811 - the fixtures, not the imports
) -> AsyncIterator[Emulator]:
    """The emulator with :func:`fast_discord_limits` (unless the test chose its own), and at the end
    of every test the check that each picture the bot posted carried its alt text (issue #19)."""
    if "rate_limits" not in emulator_options:
        base_emulator.rate_limits = fast_discord_limits()
    yield base_emulator
    missing = pictures_without_alt_text(base_emulator)
    assert not missing, "pictures posted without alt text: " + "; ".join(missing[:5])


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def bots() -> list[BotUnderTest]:
    """Every bot the factory made, newest last (restarts add one)."""
    return []


@pytest.fixture
def catalogue() -> Catalogue:
    """The games the bots under test offer."""
    return Catalogue.default()


@pytest.fixture
def cpu() -> CpuPool | None:
    """The bots' pool for game set-ups and AI turns (None: threads, made afresh for each bot)."""
    return None


@pytest.fixture
def database(tmp_path: Path) -> str:
    """The bots' PYRAMID_DATABASE: a SQLite file (``test_postgresql.py`` gives a PostgreSQL URL)."""
    return str(tmp_path / "bot.db")


@pytest.fixture
def bot_factory(
    database: str, clock: FakeClock, bots: list[BotUnderTest], catalogue: Catalogue, cpu: CpuPool | None
) -> Callable[[str, str], Awaitable[BotUnderTest]]:
    seeds = itertools.count(1000)

    async def make(api_base_url: str, token: str) -> BotUnderTest:
        settings = load_settings(
            discord_token=token, api_base_url=api_base_url, database=database, ai_delay_seconds=0,
            render_workers=0,
        )
        configure_api_base(settings.api_base_url)
        services = await Services.open(settings, clock, catalogue=catalogue, cpu=cpu, new_seed=lambda: next(seeds),
                                       sweep_seconds=3600.0)
        bot = BotUnderTest(services)
        bots.append(bot)
        return bot

    return make


@pytest.fixture
def harness_options() -> dict[str, Any]:
    return {"busy_check": lambda bot: bot.client.busy(), "quiet": 0.01}
