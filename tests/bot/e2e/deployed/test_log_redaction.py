"""The deployed bot (``python -m bot``) at DEBUG level never writes a secret to its
log: not the bot token, not an interaction or webhook token (discord.py's HTTP debug
lines print the URLs that carry them, its gateway debug lines print the payloads)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from emulator.harness import Harness
from emulator.server import Emulator
from tests.bot.e2e.deployed.log_file import bot_log, bot_workers, written  # noqa: F401 - fixtures

#: Shaped like a real bot token, so a leak can't hide behind an odd format.
BOT_TOKEN = "MTA5OTk4ODc3NjY1NTQ0MzMyMQ.GhJkLm.abcdefghijklmnopqrstuvwxyz0123456789AB"


@pytest.fixture
def emulator_options() -> dict[str, Any]:
    return {"token": BOT_TOKEN}


@pytest.fixture
def bot_env() -> dict[str, str]:
    return {"PYRAMID_LOG_LEVEL": "DEBUG"}


async def test_no_token_reaches_the_debug_log(emulator: Emulator, harness: Harness, tmp_path: Path) -> None:
    ana = await harness.add_user("ana")
    bob = await harness.add_user("bob")
    await harness.start_bot()
    started = await harness.slash(ana, emulator.general, "pyramid new", game="continuous-pyramid", undo=False)
    assert "started" in started.text
    lobby = (await harness.slash(bob, emulator.general, "pyramid new", game="flaming-pyramids")).message
    assert lobby is not None
    await harness.click(ana, lobby, label="Join")
    await harness.slash(ana, emulator.general, "pyramid games")
    await harness.stop_bot()

    log = written(tmp_path)
    # The log really is at DEBUG and really saw the interactions.
    assert "WebSocket Event" in log and "/interactions/" in log and "/webhooks/" in log
    tokens = [i.token for i in emulator.world.interactions.values()]
    assert tokens
    leaks = [t for t in tokens if t in log or t.split(":", 1)[-1] in log]
    assert not leaks, f"{len(leaks)} interaction tokens in the log"
    assert BOT_TOKEN not in log and BOT_TOKEN.split(".")[-1] not in log
    assert "[redacted]" in log
