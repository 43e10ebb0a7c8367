"""``PYRAMID_DEV_GUILD_ID`` copies the slash commands to one server for development.
Unsetting it (or moving it to another server) must not leave that copy behind: the
server's members would see every command twice, the copy and the global one."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.config.api_base import configure_api_base
from bot.config.settings import load_settings
from bot.core.services import Services
from bot.games.catalogue import Catalogue
from emulator.harness import Harness
from emulator.server import Emulator
from tests.bot.clock import FakeClock
from tests.bot.e2e.conftest import BotUnderTest


@pytest.fixture
def dev_guild() -> dict[str, int | None]:
    """The PYRAMID_DEV_GUILD_ID the next bot starts with; a test changes it between starts."""
    return {"id": None}


@pytest.fixture
def bot_factory(tmp_path: Path, clock: FakeClock, bots: list[BotUnderTest], catalogue: Catalogue,
                dev_guild: dict[str, int | None]) -> Callable[[str, str], Awaitable[BotUnderTest]]:
    async def make(api_base_url: str, token: str) -> BotUnderTest:
        settings = load_settings(discord_token=token, api_base_url=api_base_url, database=str(tmp_path / "bot.db"),
                                 ai_delay_seconds=0, render_workers=0, dev_guild_id=dev_guild["id"])
        configure_api_base(settings.api_base_url)
        services = await Services.open(settings, clock, catalogue=catalogue, sweep_seconds=3600.0)
        bots.append(BotUnderTest(services))
        return bots[-1]

    return make


def _names(emulator: Emulator, guild_id: int | None) -> set[str]:
    return {c.name for c in emulator.world.commands.values() if c.guild_id == guild_id}


async def test_unsetting_the_dev_guild_clears_its_copy_of_the_commands(
    emulator: Emulator, harness: Harness, dev_guild: dict[str, int | None]
) -> None:
    home = emulator.guild.id
    dev_guild["id"] = home
    await harness.start_bot()
    assert "pyramid" in _names(emulator, home)  # the copy, shown at once on the dev server

    dev_guild["id"] = None
    await harness.restart_bot()
    assert _names(emulator, home) == set(), "the dev server still lists every command twice"
    assert "pyramid" in _names(emulator, None)


async def test_moving_the_dev_guild_clears_the_old_copy_and_a_second_start_changes_nothing(
    emulator: Emulator, harness: Harness, dev_guild: dict[str, int | None]
) -> None:
    ana = await harness.add_user("ana")
    other = await harness.add_guild("other", members=[ana])
    dev_guild["id"] = emulator.guild.id
    await harness.start_bot()
    dev_guild["id"] = other.id
    await harness.restart_bot()
    assert _names(emulator, emulator.guild.id) == set()
    assert "pyramid" in _names(emulator, other.id)

    dev_guild["id"] = None
    await harness.restart_bot()
    await harness.restart_bot()  # nothing left to clear: no error, nothing changes
    assert _names(emulator, other.id) == set() and "pyramid" in _names(emulator, None)
