"""Tests of the bot as deployed: ``python -m bot`` in its own process, configured by
environment variables, against the emulator. These fixtures replace the in-process
``bot_factory`` of ``tests/bot/e2e/conftest.py`` for every test in this folder; a test
adds ``PYRAMID_*`` settings to ``bot_env`` before it starts the bot, and overrides
``bot_workers`` or ``bot_log`` to run the bot with threads or keep its output.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from emulator.server import Emulator
from tools.bot_process import BotProcess


@pytest.fixture
def processes() -> list[BotProcess]:
    """Every bot process the factory started, newest last."""
    return []


@pytest.fixture
def bot_env() -> dict[str, str]:
    """Extra environment for the bot process; tests may add to it before starting the bot."""
    return {}


@pytest.fixture
def bot_workers() -> int:
    """``PYRAMID_RENDER_WORKERS``: 1, as deployed (a render and an AI worker process); 0 runs them in threads."""
    return 1


@pytest.fixture
def bot_log() -> Path | None:
    """Where the bot's output goes (None: this process's, which pytest shows when a test fails)."""
    return None


@pytest.fixture
def bot_factory(
    tmp_path: Path, emulator: Emulator, processes: list[BotProcess], bot_env: dict[str, str], bot_workers: int,
    bot_log: Path | None,
) -> Callable[[str, str], Awaitable[BotProcess]]:
    async def make(api_base_url: str, token: str) -> BotProcess:
        processes.append(
            BotProcess(api_base_url, tmp_path / "bot.db", emulator, workers=bot_workers, env=bot_env, log_path=bot_log)
        )
        return processes[-1]

    return make


@pytest.fixture
def harness_options() -> dict[str, Any]:
    # The harness can't see inside another process, so it gives a deferred reply longer to arrive.
    return {"ready_timeout": 60.0, "deferral_grace": 10.0}

