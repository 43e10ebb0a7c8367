"""Every background sweep runs through ``sweep_forever``: a pass that fails is logged, and the
next pass still comes (one bad row must not stop reminders, tournaments or digests for good)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.core.tasks import sweep_forever


async def test_a_failed_pass_is_logged_and_the_sweeps_go_on(caplog: pytest.LogCaptureFixture) -> None:
    passes: list[int] = []
    done = asyncio.Event()

    async def sweep() -> None:
        passes.append(len(passes))
        if len(passes) == 1:
            raise RuntimeError("a corrupt row")
        if len(passes) == 3:
            done.set()

    with caplog.at_level(logging.ERROR, logger="bot.core.tasks"):
        task = asyncio.create_task(sweep_forever(lambda: 0.0, sweep, "test sweep"))
        await asyncio.wait_for(done.wait(), timeout=30)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    assert passes[:3] == [0, 1, 2]
    # (the bot's log redaction may fold the traceback into the message: only its first line is ours)
    assert [r.getMessage().splitlines()[0] for r in caplog.records] == ["test sweep failed"]
