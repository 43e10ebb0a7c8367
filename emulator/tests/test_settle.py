"""How long the harness waits for the bot: as long as the bot makes progress, and no longer
than ``settle_timeout`` without any (issue #30: a busy machine makes a test slower, never red)."""

from __future__ import annotations

import asyncio
import time

import pytest

from emulator import Emulator, Harness
from emulator.harness import BotFactory
from emulator.interactions import HarnessError

from .raw import RawAPI


class Work:
    """Background work the harness is told about through ``busy_check``."""

    def __init__(self) -> None:
        self.busy = False


async def test_a_bot_making_progress_is_waited_for_past_the_timeout(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    work = Work()
    harness = Harness(emulator, bot_factory, settle_timeout=0.5, busy_check=lambda _bot: work.busy)
    try:
        await harness.start_bot()

        async def slow_but_steady() -> None:
            # 2.5 s of work, five times the timeout, with a request every 0.2 s
            async with RawAPI(emulator) as api:
                for _ in range(12):
                    await api.request("GET", f"/channels/{emulator.general.id}")
                    await asyncio.sleep(0.2)
            work.busy = False

        work.busy = True
        task = asyncio.create_task(slow_but_steady())
        started = time.monotonic()
        await harness.settle()
        assert time.monotonic() - started >= 2.0
        assert task.done() and not work.busy
    finally:
        await harness.close()


async def test_a_bot_that_stops_is_named_with_what_it_was_waiting_for(
    emulator: Emulator, bot_factory: BotFactory
) -> None:
    work = Work()
    harness = Harness(emulator, bot_factory, settle_timeout=0.5, busy_check=lambda _bot: work.busy)
    try:
        await harness.start_bot()
        work.busy = True  # says it is busy, and never does anything again
        started = time.monotonic()
        with pytest.raises(HarnessError, match=r"no progress for 0.5s.*busy_check"):
            await harness.settle()
        assert time.monotonic() - started < 30
    finally:
        work.busy = False
        await harness.close()
