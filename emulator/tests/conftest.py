from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.config.api_base import configure_api_base
from emulator import Emulator, Harness, User
from emulator.fixtures import emulator as base_emulator  # noqa: F401  (re-exported fixture)
from emulator.fixtures import (  # noqa: F401  (re-exported fixtures)
    emulator_options,
    harness,
    harness_options,
)
from emulator.harness import BotFactory
from emulator.web import WebClient

from .raw import RawAPI, RawGateway
from .toybot import ToyBot


@pytest.fixture
async def emulator(base_emulator: Emulator) -> AsyncIterator[Emulator]:  # noqa: F811
    """The emulator without the bot's ``allowed-mentions-missing`` policy: these tests send raw bodies and a toy
    bot, about Discord's rules (``test_pings.py`` switches the policy back on to test it)."""
    base_emulator.require_allowed_mentions = False
    yield base_emulator


@pytest.fixture
def bot_factory(emulator: Emulator) -> BotFactory:
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


@pytest.fixture
async def api(emulator: Emulator) -> AsyncIterator[RawAPI]:
    """Raw HTTP to the emulator's REST API, as the bot's token."""
    async with RawAPI(emulator) as api:
        yield api


@pytest.fixture
async def gw(emulator: Emulator) -> AsyncIterator[RawGateway]:
    """A raw gateway session, identified and past its GUILD_CREATE."""
    async with RawGateway(emulator) as gw:
        await gw.identify()
        await gw.wait_event("GUILD_CREATE")
        yield gw


@pytest.fixture
def carol(emulator: Emulator) -> User:
    """A member of the guild with a test user's usual role, for the raw-HTTP tests (no harness)."""
    user = emulator.world.add_user("carol")
    emulator.world.add_member(emulator.guild, user)
    return user


@pytest.fixture
async def web(emulator: Emulator) -> AsyncIterator[WebClient]:
    """The emulator's web page (``pyramid-bot demo``'s), served on loopback."""
    client = await WebClient.start(emulator)
    try:
        yield client
    finally:
        await client.close()
