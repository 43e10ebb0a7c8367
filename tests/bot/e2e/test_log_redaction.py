"""The deployed bot (``python -m bot``) at DEBUG level never writes a secret to its
log: not the bot token, not an interaction or webhook token (discord.py's HTTP debug
lines print the URLs that carry them, its gateway debug lines print the payloads)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from emulator.harness import Harness
from emulator.server import Emulator

#: Shaped like a real bot token, so a leak can't hide behind an odd format.
BOT_TOKEN = "MTA5OTk4ODc3NjY1NTQ0MzMyMQ.GhJkLm.abcdefghijklmnopqrstuvwxyz0123456789AB"


class LoggedBot:
    """``python -m bot`` in a child process at DEBUG level, its stderr kept in a file."""

    def __init__(self, api_base_url: str, database: Path, log_path: Path, emulator: Emulator) -> None:
        self.api_base_url = api_base_url
        self.database = database
        self.log_path = log_path
        self.emulator = emulator
        self.process: asyncio.subprocess.Process | None = None
        self._spawned = asyncio.Event()

    async def start(self, token: str) -> None:
        env = {**os.environ, "DISCORD_TOKEN": token, "PYRAMID_API_BASE_URL": self.api_base_url,
               "PYRAMID_DATABASE": str(self.database), "PYRAMID_AI_DELAY_SECONDS": "0",
               "PYRAMID_LOG_LEVEL": "DEBUG", "PYRAMID_RENDER_WORKERS": "0"}
        with self.log_path.open("ab") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", env=env, stdout=log, stderr=log
            )
            self._spawned.set()
            code = await self.process.wait()
        if code not in (0, -signal.SIGTERM):
            raise RuntimeError(f"the bot exited with code {code}")

    async def wait_until_ready(self) -> None:
        await self._spawned.wait()
        while not self.emulator.gateway.connected_sessions:
            if self.process is not None and self.process.returncode is not None:
                raise RuntimeError(f"the bot exited with code {self.process.returncode} before connecting")
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)

    async def close(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            with contextlib.suppress(ProcessLookupError):
                await self.process.wait()


@pytest.fixture
async def emulator() -> Any:
    emu = await Emulator.start(token=BOT_TOKEN)
    try:
        yield emu
    finally:
        await emu.close()
    emu.assert_no_violations()


@pytest.fixture
def bot_factory(tmp_path: Path, emulator: Emulator) -> Callable[[str, str], Awaitable[LoggedBot]]:
    async def make(api_base_url: str, token: str) -> LoggedBot:
        return LoggedBot(api_base_url, tmp_path / "bot.db", tmp_path / "bot.log", emulator)

    return make


@pytest.fixture
def harness_options() -> dict[str, Any]:
    return {"ready_timeout": 60.0, "deferral_grace": 10.0}


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

    log = (tmp_path / "bot.log").read_text(encoding="utf-8", errors="replace")
    # The log really is at DEBUG and really saw the interactions.
    assert "WebSocket Event" in log and "/interactions/" in log and "/webhooks/" in log
    tokens = [i.token for i in emulator.world.interactions.values()]
    assert tokens
    leaks = [t for t in tokens if t in log or t.split(":", 1)[-1] in log]
    assert not leaks, f"{len(leaks)} interaction tokens in the log"
    assert BOT_TOKEN not in log and BOT_TOKEN.split(".")[-1] not in log
    assert "[redacted]" in log
