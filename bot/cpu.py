"""Engine work too slow for the event loop: AI decisions and slow set-ups.

A hard AI searches for up to two seconds; in a thread it would hold the GIL and
stall every click. In production it runs in a worker process; the job is plain
data (game id, position JSON), so nothing but JSON-like values crosses over.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from engine.ai import choose_move
from engine.core import get_game


def ai_move(game_id: str, position: dict[str, Any], seat: int, level: str, seed: int) -> str:
    game = get_game(game_id)
    state = game.from_position(position)
    return choose_move(game, state, seat, level, seed, time.perf_counter)


def setup_position(game_id: str, players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    game = get_game(game_id)
    return game.to_position(game.setup(players, options, seed))


class CpuPool:
    def __init__(self, executor: Executor) -> None:
        self._executor = executor

    @classmethod
    def with_processes(cls, workers: int = 1) -> CpuPool:
        method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
        return cls(ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(method)))

    @classmethod
    def with_threads(cls, workers: int = 2) -> CpuPool:
        return cls(ThreadPoolExecutor(max_workers=workers, thread_name_prefix="cpu"))

    async def ai_move(self, game_id: str, position: dict[str, Any], seat: int, level: str, seed: int) -> str:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, ai_move, game_id, position, seat, level, seed)

    async def setup(self, game_id: str, players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, setup_position, game_id, players, options, seed)

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)
