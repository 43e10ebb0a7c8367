"""A whole bot against a fresh emulator and a fresh database, for one hypothesis example.

pytest's function-scoped fixtures are made once per test, not once per example, so a
property that drives the bot through the emulator builds its world here, example by example:
the same bot the ``harness`` fixture starts (no render workers, no AI delay, a clock the test
moves by hand, quick logins), Discord's limits on a clock ten times faster, and at the end the same checks
(no emulator violation, no error in the bot's log)."""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.config.api_base import configure_api_base
from bot.config.settings import load_settings
from bot.core.services import Services
from emulator.harness import Harness
from emulator.server import Emulator
from tests.bot.clock import FakeClock
from tests.bot.e2e.conftest import QUICK_LOGINS, BotUnderTest, fast_discord_limits

Body = Callable[[Emulator, Harness], Awaitable[None]]


async def in_fresh_world(database: Path, body: Body, clock: FakeClock | None = None) -> None:
    """Run ``body`` against a bot on ``database`` (a new file) and a new emulator, then check both."""
    clock = clock or FakeClock()
    seeds = itertools.count(1000)

    async def make(api_base_url: str, token: str) -> BotUnderTest:
        config = load_settings(discord_token=token, api_base_url=api_base_url, database=str(database),
                               ai_delay_seconds=0, render_workers=0)
        configure_api_base(config.api_base_url)
        # Logins paced as the harness fixture paces them (Discord's real spacing and restart backoff made
        # each restart of an example wait seconds: the clock property took minutes).
        return BotUnderTest(await Services.open(config, clock, new_seed=lambda: next(seeds), sweep_seconds=3600.0,
                                                login_policy=QUICK_LOGINS))

    emulator = await Emulator.start(rate_limits=fast_discord_limits())
    harness = Harness(emulator, make, busy_check=lambda bot: bot.client.busy(), quiet=0.01)
    try:
        await body(emulator, harness)
    finally:
        await harness.close()
        configure_api_base(None)
        await emulator.close()
    emulator.assert_no_violations()
    harness.assert_no_bot_errors()
