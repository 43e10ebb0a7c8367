"""Background tasks the bot starts and must stop when it closes (the delivery worker,
the reminder sweep, AI turns): kept here so none is garbage-collected mid-flight or
left running after the client is gone."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

log = logging.getLogger(__name__)


async def sweep_forever(pause: Callable[[], float], sweep: Callable[[], Awaitable[object]], what: str) -> None:
    """Run ``sweep`` every ``pause()`` seconds until cancelled. A pass that fails is logged and the
    next comes as usual: one bad row must not stop a sweep for good (every sweep of the bot runs so)."""
    while True:
        await asyncio.sleep(pause())
        try:
            await sweep()
        except Exception:
            log.exception("%s failed", what)


class Tasks:
    def __init__(self) -> None:
        self._running: set[asyncio.Task[Any]] = set()

    def spawn(self, coro: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        task = asyncio.create_task(coro)
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        return task

    async def cancel_all(self) -> None:
        for task in list(self._running):
            task.cancel()
        await asyncio.gather(*self._running, return_exceptions=True)
