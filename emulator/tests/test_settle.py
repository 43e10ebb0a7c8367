"""How long the harness waits for the bot: as long as the bot makes progress, and no longer
than ``settle_timeout`` without any (issue #30: a busy machine makes a test slower, never red)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest

from emulator import Emulator, Harness
from emulator.harness import BotFactory
from emulator.interactions import HarnessError

from .raw import RawAPI


class Work:
    """Background work the harness is told about through ``busy_check``."""

    def __init__(self) -> None:
        self.busy = False


@pytest.fixture
def work() -> Work:
    return Work()


@pytest.fixture
async def patient(emulator: Emulator, bot_factory: BotFactory, work: Work) -> AsyncIterator[Harness]:
    """A started harness that gives the bot half a second without progress."""
    harness = Harness(emulator, bot_factory, settle_timeout=0.5, busy_check=lambda _bot: work.busy)
    try:
        await harness.start_bot()
        yield harness
    finally:
        work.busy = False
        await harness.close()


async def test_a_bot_making_progress_is_waited_for_past_the_timeout(
    emulator: Emulator, patient: Harness, work: Work
) -> None:
    async def slow_but_steady() -> None:
        # 2.4 s of work, five times the timeout, with a request every 0.2 s
        async with RawAPI(emulator) as api:
            for _ in range(12):
                await api.request("GET", f"/channels/{emulator.general.id}")
                await asyncio.sleep(0.2)
        work.busy = False

    work.busy = True
    task = asyncio.create_task(slow_but_steady())
    started = time.monotonic()
    await patient.settle()
    assert time.monotonic() - started >= 2.0
    assert task.done() and not work.busy


async def test_a_bot_that_stops_is_named_with_what_it_was_waiting_for(patient: Harness, work: Work) -> None:
    work.busy = True  # says it is busy, and never does anything again
    started = time.monotonic()
    with pytest.raises(HarnessError, match=r"no progress for 0.5s.*busy_check"):
        await patient.settle()
    assert time.monotonic() - started < 30
