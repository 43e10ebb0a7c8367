"""Pytest fixtures for bot tests. Import them into a conftest.py next to the tests:

    from emulator.fixtures import emulator, harness, harness_options  # noqa: F401

and provide a ``bot_factory`` fixture there:

    @pytest.fixture
    def bot_factory(tmp_path):
        async def make(api_base_url: str, token: str) -> discord.Client:
            configure_api_base(api_base_url)
            return build_bot(db_path=tmp_path / "bot.db", token=token)   # a fresh client each call
        return make

``emulator`` fails the test at teardown if the bot broke a Discord rule that the test did not expect
(``with emulator.expect_violation("content-length"): ...``); ``harness`` also fails it if the bot logged an error
(``with harness.expect_bot_error("..."): ...``). The bot is not started automatically: ``await harness.start_bot()``.
Override ``harness_options`` to pass ``Harness`` keyword arguments, e.g. a ``busy_check`` for the bot's own
background tasks: ``{"busy_check": lambda bot: bool(bot._ai_pending)}``; override ``emulator_options`` (or
parametrize it indirectly) to pass ``Emulator`` keyword arguments, e.g. ``{"strict": False}`` for a test about
Discord's deprecated behaviours.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.config.api_base import configure_api_base

from .harness import BotFactory, Harness
from .server import Emulator


@pytest.fixture
def emulator_options() -> dict[str, Any]:
    return {}


@pytest.fixture
async def emulator(request: pytest.FixtureRequest) -> AsyncIterator[Emulator]:
    # ``emulator_options`` is looked up by name, so a conftest that imports only ``emulator`` still works
    try:
        options: dict[str, Any] = request.getfixturevalue("emulator_options")
    except pytest.FixtureLookupError:
        options = {}
    emu = await Emulator.start(**options)
    try:
        yield emu
    finally:
        await emu.close()
    emu.assert_no_violations()


@pytest.fixture
def harness_options() -> dict[str, Any]:
    return {}


@pytest.fixture
async def harness(
    emulator: Emulator, bot_factory: BotFactory, harness_options: dict[str, Any]
) -> AsyncIterator[Harness]:
    h = Harness(emulator, bot_factory, **harness_options)
    try:
        yield h
    finally:
        await h.close()
        configure_api_base(None)
    h.assert_no_bot_errors()
