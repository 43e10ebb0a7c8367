from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.api_base import configure_api_base
from emulator import Emulator, Harness, User
from emulator.fixtures import (  # noqa: F401  (re-exported fixtures)
    emulator,
    emulator_options,
    harness,
    harness_options,
)
from emulator.harness import BotFactory

from .toybot import ToyBot


@pytest.fixture
def bot_factory(emulator: Emulator) -> BotFactory:  # noqa: F811
    starts = 0

    async def make(api_base_url: str, token: str) -> ToyBot:
        nonlocal starts
        starts += 1
        configure_api_base(api_base_url)
        return ToyBot(guild_id=emulator.guild.id, starts=starts)

    return make


@pytest.fixture
async def bot(harness: Harness) -> AsyncIterator[Harness]:  # noqa: F811
    """A harness whose toy bot is running."""
    await harness.start_bot()
    yield harness


@pytest.fixture
async def alice(harness: Harness) -> User:  # noqa: F811
    return await harness.add_user("alice")


@pytest.fixture
async def bob(harness: Harness) -> User:  # noqa: F811
    return await harness.add_user("bob")
