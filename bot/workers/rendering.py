"""Pictures for Discord, drawn off the event loop.

Drawing is CPU-bound Python; in a thread it would hold the GIL and slow every other
click down, so production renders in a small pool of worker processes. Tests may use
threads instead (no process start-up per test). Either way the event loop only
awaits a future, and keeps answering within Discord's 3 seconds. A job carries the
game's :class:`render.Art` (it pickles), so a game known only to the bot's catalogue
is drawn in a worker too.
"""

from __future__ import annotations

import asyncio
import functools
import io
import os
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any

import discord

from bot.workers.processes import CountingExecutor, process_pool
from engine.core import Event
from render import Art, render_board, render_hand, warm_up


def _board(view: dict[str, Any], labels: dict[str, str], events: list[Event], art: Art) -> bytes:
    return render_board(view, labels=labels, events=events, art=art)


def _hand(view: dict[str, Any], art: Art) -> bytes:
    return render_hand(view, art=art)


class Renderer:
    def __init__(self, executor: Executor) -> None:
        self._executor = CountingExecutor(executor)

    @classmethod
    def with_processes(cls, workers: int | None = None, arts: Sequence[Art] = ()) -> Renderer:
        """Workers that die with the bot, even if it is SIGKILLed (see
        ``bot.workers.processes``), each warmed up (fonts, sprites, palettes: of
        ``arts``, else of every registered game) before its first real job."""
        count = workers or max(1, min(2, os.cpu_count() or 1))
        return cls(process_pool(count, warm_up=functools.partial(warm_up, tuple(arts)) if arts else warm_up))

    @classmethod
    def with_threads(cls, workers: int = 2) -> Renderer:
        return cls(ThreadPoolExecutor(max_workers=workers, thread_name_prefix="render"))

    async def board(
        self, view: Mapping[str, Any], *, art: Art, labels: Mapping[str, str] | None = None,
        events: Sequence[Event] = (),
    ) -> discord.File:
        loop = asyncio.get_running_loop()
        data = await loop.run_in_executor(self._executor, _board, dict(view), dict(labels or {}), list(events), art)
        return discord.File(io.BytesIO(data), filename="board.png")

    async def hand(self, view: Mapping[str, Any], *, art: Art) -> discord.File:
        loop = asyncio.get_running_loop()
        data = await loop.run_in_executor(self._executor, _hand, dict(view), art)
        return discord.File(io.BytesIO(data), filename="hand.png")

    def queue_depth(self) -> int:
        """Pictures asked for and not drawn yet (being drawn or waiting for a worker)."""
        return self._executor.pending

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)
