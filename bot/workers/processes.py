"""Worker processes that live and die with the bot.

The render and AI pools run in processes forked by multiprocessing's fork server.
When the bot is stopped politely (SIGTERM) it shuts the pools down itself, but a
SIGKILL (the OOM killer, ``docker kill``, a supervisor giving up) runs no Python at
all: the fork server and the workers used to linger, holding memory, for a minute or
more. So each of them watches its parent instead:

* On Linux, ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` asks the kernel to kill the process
  the moment its parent exits. The fork server gets it through a preload module
  (``bot.workers.forkserver_guard``), the workers as they start (``start_worker``); a worker's
  parent is the fork server, so the bot's death takes the whole tree down in a chain.
* Everywhere, a daemon thread in each worker polls its parent pid and the bot's pid
  and exits the worker when either is gone (the portable fallback, and a second line
  should the signal be lost to a race at start-up).

The fork server itself gets no thread: it forks, and forking a threaded process can
deadlock. Where the kernel cannot help it, it still exits on its own once the bot and
every worker have closed their end of its "alive" pipe.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from multiprocessing.context import BaseContext
from pathlib import Path
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

#: From <linux/prctl.h>.
PR_SET_PDEATHSIG = 1
#: The module the fork server imports at start-up; it calls :func:`guard_fork_server`.
FORKSERVER_GUARD = "bot.workers.forkserver_guard"
#: How often a worker's watchdog looks for its parent and the bot.
WATCH_SECONDS = 0.5
#: A worker that finds itself orphaned exits with this code.
ORPHANED_EXIT_CODE = 70


def set_parent_death_signal(sig: int = signal.SIGKILL) -> bool:
    """Ask Linux to send ``sig`` to this process when its parent exits; False elsewhere.

    Note the kernel's notion of "parent" is the *thread* that forked us: processes
    here are always started from the bot's main (event loop) thread, which lives as
    long as the bot does."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def process_exists(pid: int) -> bool:
    """The process is running (an exited zombie waiting to be reaped counts as gone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: it exists
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:  # no /proc (not Linux: os.kill said it exists), or it vanished just now
        return not Path("/proc").is_dir()
    return stat.rsplit(")", 1)[-1].split()[:1] != ["Z"]


def orphaned(parent: int, owner: int | None) -> bool:
    """Our parent changed (it died and we were re-parented) or the bot is gone."""
    return os.getppid() != parent or (owner is not None and not process_exists(owner))


def start_watchdog(parent: int, owner: int | None, *, interval: float = WATCH_SECONDS,
                   exit_now: Callable[[int], object] = os._exit) -> threading.Thread:
    """A daemon thread that ends this process once it is orphaned (see :func:`orphaned`)."""

    def watch() -> None:
        while not orphaned(parent, owner):
            time.sleep(interval)
        exit_now(ORPHANED_EXIT_CODE)

    thread = threading.Thread(target=watch, name="orphan-watchdog", daemon=True)
    thread.start()
    return thread


def guard_fork_server() -> None:
    """In the fork server: die with the bot (Linux). No thread: this process forks."""
    set_parent_death_signal()


def start_worker(owner: int, warm_up: Callable[[], None] | None = None) -> None:
    """What a pool worker does first (``bot.workers.pool.serve``): die with the parent and the bot, then warm up."""
    parent = os.getppid()
    set_parent_death_signal()
    if orphaned(parent, owner):  # the bot died before the signal was armed
        os._exit(ORPHANED_EXIT_CODE)
    start_watchdog(parent, owner)
    if warm_up is not None:
        warm_up()


def worker_context() -> BaseContext:
    """The fork server where there is one (cheap starts, no inherited threads), else spawn.

    The preload list lives in multiprocessing's one fork server; every pool asks for
    the same list, and it only matters to the fork server started first."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["__main__", FORKSERVER_GUARD])
        return context
    return multiprocessing.get_context("spawn")


class CountingExecutor(Executor):
    """Another executor, counting the jobs handed to it and not yet finished.

    That count is the pool's queue depth for the metrics endpoint. Futures finish on
    the pool's own threads, hence the lock."""

    def __init__(self, inner: Executor) -> None:
        self._inner = inner
        self._pending = 0
        self._lock = threading.Lock()

    @property
    def pending(self) -> int:
        return self._pending

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        future = self._inner.submit(fn, *args, **kwargs)
        with self._lock:
            self._pending += 1
        future.add_done_callback(self._finished)
        return future

    def _finished(self, _future: Future[T]) -> None:
        with self._lock:
            self._pending -= 1

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._inner.shutdown(wait=wait, cancel_futures=cancel_futures)
