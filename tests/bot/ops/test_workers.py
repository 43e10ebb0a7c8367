"""Worker processes notice their parent's death by themselves (see bot.workers.processes).

Each test builds a little family with real processes: the test starts a "parent",
which starts a "worker" and reports its pid once the worker is guarded; the test
then SIGKILLs the parent (or the bot the worker watches) and waits for the worker
to be gone. The deadline is generous: what is asserted is "gone", not how fast."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import pytest

from bot.workers.processes import CountingExecutor, process_exists

DEADLINE = 10.0
ROOT = str(Path(__file__).resolve().parents[3])

PARENT = """
import subprocess, sys, time
worker = subprocess.Popen([sys.executable, "-c", sys.argv[1]], stdout=subprocess.PIPE, text=True)
assert worker.stdout.readline().strip() == "guarded"
print(worker.pid, flush=True)
time.sleep(120)
"""

WATCHDOG_ONLY = """
import os, time
from bot.workers.processes import start_watchdog
start_watchdog(os.getppid(), {owner}, interval=0.05)
print("guarded", flush=True)
time.sleep(120)
"""

DEATH_SIGNAL_ONLY = """
import time
from collections.abc import Iterator
from contextlib import contextmanager
from bot.workers.processes import set_parent_death_signal
assert set_parent_death_signal()
print("guarded", flush=True)
time.sleep(120)
"""


def start_family(worker_code: str) -> tuple[subprocess.Popen[str], int]:
    env = {**os.environ, "PYTHONPATH": ROOT}
    parent = subprocess.Popen([sys.executable, "-c", PARENT, worker_code], stdout=subprocess.PIPE, text=True, env=env)
    assert parent.stdout is not None
    return parent, int(parent.stdout.readline())


def gone_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not process_exists(pid):
            return True
        time.sleep(0.05)
    return False


def kill(process: subprocess.Popen[str]) -> None:
    process.kill()
    process.wait()


@contextmanager
def reaping(worker: int) -> Iterator[None]:
    """Whatever the test finds, the worker does not outlive it."""
    try:
        yield
    finally:
        if process_exists(worker):
            os.kill(worker, signal.SIGKILL)


def test_the_watchdog_ends_a_worker_whose_parent_was_killed() -> None:
    parent, worker = start_family(WATCHDOG_ONLY.format(owner=None))
    with reaping(worker):
        assert process_exists(worker)
        kill(parent)
        assert gone_within(worker, DEADLINE), "the worker outlived its parent"


def test_the_watchdog_ends_a_worker_whose_bot_was_killed() -> None:
    """Under the fork server a worker's parent is the fork server, not the bot: it watches the bot too."""
    bot = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"], text=True)
    parent, worker = start_family(WATCHDOG_ONLY.format(owner=bot.pid))
    with reaping(worker):
        try:
            kill(bot)
            assert gone_within(worker, DEADLINE), "the worker outlived the bot it works for"
            assert parent.poll() is None, "only the worker watches; its parent is still there"
        finally:
            kill(parent)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_the_parent_death_signal_ends_a_worker_at_once() -> None:
    parent, worker = start_family(DEATH_SIGNAL_ONLY)
    with reaping(worker):
        kill(parent)
        assert gone_within(worker, DEADLINE), "the kernel did not signal the orphan"


def test_the_counting_executor_reports_jobs_not_yet_done() -> None:
    release = threading.Event()
    pool = CountingExecutor(ThreadPoolExecutor(max_workers=1))
    try:
        assert pool.pending == 0
        futures = [pool.submit(release.wait, 10) for _ in range(3)]
        assert pool.pending == 3  # one running, two waiting
        release.set()
        for future in futures:
            future.result(timeout=10)
        deadline = time.monotonic() + DEADLINE
        while pool.pending and time.monotonic() < deadline:  # callbacks run just after the result is set
            time.sleep(0.01)
        assert pool.pending == 0
    finally:
        pool.shutdown()
