"""Engine work too slow for the event loop: AI decisions, slow set-ups, replays.

A hard AI searches for up to two seconds; in a thread it would hold the GIL and
stall every click. In production it runs in a worker process. A job carries the
game's rule book itself (it pickles by reference to its class) and JSON-like
values, so a game known only to the bot's catalogue works in a worker too.
"""

from __future__ import annotations

import time
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any

from bot.workers.pool import Jobs, WorkerPool, as_jobs
from engine.ai import choose_move
from engine.core import Event, Game


def ai_move(game: Game[Any], position: dict[str, Any], seat: int, level: str, seed: int) -> str:
    state = game.from_position(position)
    return choose_move(game, state, seat, level, seed, time.perf_counter)


def setup_position(game: Game[Any], players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    return game.to_position(game.setup(players, options, seed))


def replay_position(game: Game[Any], players: int, options: dict[str, Any], seed: int,
                    moves: list[tuple[int, str]]) -> dict[str, Any]:
    """The position after ``moves``: a whole game's log (and its set-up, which may
    search for a winnable deal) is too long a job for the event loop."""
    return game.to_position(game.replay(players, options, seed, moves))


def replay_events(game: Game[Any], players: int, options: dict[str, Any], seed: int,
                  moves: list[tuple[int, str]], since: int) -> list[Event]:
    """The events of moves ``since+1 ..`` of ``moves``, by replaying them all."""
    state = game.setup(players, options, seed)
    events: list[Event] = []
    for number, (seat, move) in enumerate(moves, start=1):
        state, happened = game.play(state, seat, move)
        if number > since:
            events.extend(happened)
    return events


class CpuPool:
    def __init__(self, jobs: Jobs | Executor) -> None:
        """``jobs``: where the work runs (an executor: its threads)."""
        self._jobs: Jobs = as_jobs(jobs)

    @classmethod
    def with_processes(cls, workers: int = 1) -> CpuPool:
        """Workers that die with the bot, even if it is SIGKILLed, and are replaced if they
        die under it (``bot.workers.pool``)."""
        return cls(WorkerPool(workers, kind="AI"))

    @classmethod
    def with_threads(cls, workers: int = 2) -> CpuPool:
        return cls(ThreadPoolExecutor(max_workers=workers, thread_name_prefix="cpu"))

    async def ai_move(self, game: Game[Any], position: dict[str, Any], seat: int, level: str, seed: int) -> str:
        return await self._jobs.submit(ai_move, game, position, seat, level, seed)

    async def setup(self, game: Game[Any], players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
        return await self._jobs.submit(setup_position, game, players, options, seed)

    async def replay(self, game: Game[Any], players: int, options: dict[str, Any], seed: int,
                     moves: list[tuple[int, str]]) -> dict[str, Any]:
        return await self._jobs.submit(replay_position, game, players, options, seed, moves)

    async def replay_events(self, game: Game[Any], players: int, options: dict[str, Any], seed: int,
                            moves: list[tuple[int, str]], since: int) -> list[Event]:
        return await self._jobs.submit(replay_events, game, players, options, seed, moves, since)

    def queue_depth(self) -> int:
        """Jobs handed to the pool and not finished yet (running or waiting)."""
        return self._jobs.pending

    def close(self) -> None:
        self._jobs.close()
