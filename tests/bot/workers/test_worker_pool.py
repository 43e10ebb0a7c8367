"""The picture workers (``bot.workers.pool``): real processes fed through a socket each.
Every job's answer reaches its own caller, a job's error comes back as itself, and a
worker that dies fails only the jobs it held: the next pictures are drawn by its
successor (a ``ProcessPoolExecutor`` was broken for good by one death)."""

from __future__ import annotations

import asyncio
import io
import os
import signal
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.workers.cpu import CpuPool
from bot.workers.pool import WorkerDied, WorkerPool
from bot.workers.processes import process_exists
from bot.workers.rendering import Renderer
from engine.core import get_game
from render import art_for

GAME = get_game("flaming-pyramids")
ART = art_for("flaming-pyramids")
T = TypeVar("T")


def square(number: int) -> int:
    return number * number


def pid_after(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def fail(text: str) -> None:
    raise ValueError(text)


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def forked_workers(root: int) -> set[int]:
    """The live processes below ``root`` forked by multiprocessing's fork server (the
    workers, not the fork server itself nor the resource tracker)."""
    parent_of: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent_of[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue

    def below(pid: int) -> bool:
        while pid > 1:
            pid = parent_of.get(pid, 0)
            if pid == root:
                return True
        return False

    def fork_server(pid: int) -> bool:
        try:
            return b"forkserver" in Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            return False

    return {pid for pid, parent in parent_of.items() if below(pid) and fork_server(parent)}


async def until(condition: object, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not callable(condition) or not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


async def after_killing(workers: set[int], job: Callable[[], Awaitable[T]]) -> T:
    """SIGKILL ``workers``, then run ``job`` until it succeeds: one asked for as a worker
    died may fail, but a later one must succeed within 20 s."""
    for pid in workers:
        os.kill(pid, signal.SIGKILL)
    await until(lambda: not any(process_exists(pid) for pid in workers))
    deadline = time.monotonic() + 20
    while True:
        try:
            return await job()
        except Exception:  # noqa: BLE001  (the old pool's BrokenProcessPool, or WorkerDied)
            assert time.monotonic() < deadline, "no job done since the worker died"
            await asyncio.sleep(0.2)


@pytest.fixture
async def pool() -> object:
    workers = WorkerPool(2)
    yield workers
    workers.close()


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(numbers=st.lists(st.integers(-10**6, 10**6), min_size=1, max_size=40))
async def test_every_answer_reaches_its_own_caller(pool: WorkerPool, numbers: list[int]) -> None:
    assert await asyncio.gather(*(pool.submit(square, n) for n in numbers)) == [n * n for n in numbers]
    assert pool.pending == 0


async def test_jobs_run_in_two_other_processes_at_once(pool: WorkerPool) -> None:
    pids = await asyncio.gather(*(pool.submit(pid_after, 0.3) for _ in range(4)))
    assert os.getpid() not in pids and len(set(pids)) == 2


async def test_a_jobs_error_comes_back_as_itself_and_the_worker_goes_on(pool: WorkerPool) -> None:
    with pytest.raises(ValueError, match="no such tile") as caught:
        await pool.submit(fail, "no such tile")
    assert "fail" in str(caught.value.__cause__), "the worker's traceback comes along"
    assert await pool.submit(square, 7) == 49


async def test_a_worker_that_dies_fails_its_job_only_and_is_replaced(pool: WorkerPool) -> None:
    await until(lambda: len(pool.pids()) == 2)
    before = set(pool.pids())
    with pytest.raises(WorkerDied, match="ended"):
        await pool.submit(die)
    assert [await pool.submit(square, n) for n in range(6)] == [n * n for n in range(6)]
    await until(lambda: len(pool.pids()) == 2)
    assert len(set(pool.pids()) - before) == 1


async def test_close_ends_the_workers_and_refuses_later_jobs() -> None:
    workers = WorkerPool(2)
    await until(lambda: len(workers.pids()) == 2)
    pids = workers.pids()
    waiting = workers.submit(pid_after, 2.0)
    workers.close()
    assert all(not process_exists(pid) for pid in pids)
    assert waiting.cancelled()
    with pytest.raises(RuntimeError, match="shut down"):
        await workers.submit(square, 2)


async def test_pictures_are_drawn_again_after_a_render_worker_is_killed() -> None:
    """Fails on a ``ProcessPoolExecutor``: one worker's death broke it for good."""
    before = forked_workers(os.getpid())
    renderer = Renderer.with_processes(1, [ART])
    view = {**GAME.view(GAME.setup(2, None, 3), None), "names": ["ana", "ben"]}
    try:
        first = await renderer.board(view, art=ART)
        workers = forked_workers(os.getpid()) - before
        assert workers, "the renderer draws in processes of its own"
        again = await after_killing(workers, lambda: renderer.board(view, art=ART))
        assert Image.open(io.BytesIO(again.fp.read())).size == Image.open(io.BytesIO(first.fp.read())).size
    finally:
        renderer.close()


async def test_the_ai_pool_works_again_after_its_worker_is_killed() -> None:
    """The AI's pool is the same kind of pool: a killed worker is replaced."""
    before = forked_workers(os.getpid())
    cpu = CpuPool.with_processes()
    try:
        dealt = await cpu.setup(GAME, 2, {}, 3)
        workers = forked_workers(os.getpid()) - before
        assert workers, "the AI works in a process of its own"
        again = await after_killing(workers, lambda: cpu.setup(GAME, 2, {}, 3))
        assert again == dealt
    finally:
        cpu.close()
