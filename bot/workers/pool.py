"""Worker processes fed through a socket each, read and written by the event loop itself:
the picture workers (``bot.workers.rendering``) and the AI's (``bot.workers.cpu``).

Both used to be a ``ProcessPoolExecutor``. Every picture then crossed
three threads of the bot (the event loop, the pool's manager thread, its queue's feeder
thread) and back, each crossing a thread switch under the GIL: about half a
millisecond of the bot's CPU a picture, several pictures a move. And a worker that died
(the OOM killer, a crash in native code) broke that pool for good: every later picture
(or AI move) failed until the bot was restarted.

Here each worker has a socket pair. The event loop writes a job to an idle worker's
socket (a length and a pickle, buffered by the loop's transport) and a task per worker
reads its answers as they come, so a job costs the bot one pickle each way and no
thread. A worker runs one job at a time and holds at most :data:`IN_FLIGHT` (the next
is waiting in its socket when it finishes one); the rest wait here, first come first
served. A worker that dies fails only the jobs it held (:class:`WorkerDied`) and a new
one is started in its place; one that keeps dying before it finishes a single job is
started again ever more slowly, up to a minute apart.

Workers start at once, warm up (``warm_up``) and die with the bot however it ends, as
``bot.workers.processes`` describes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
import socket
import struct
import traceback
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import Any, Protocol, TypeVar, cast

from bot.workers.processes import CountingExecutor, start_worker, worker_context

log = logging.getLogger(__name__)
T = TypeVar("T")

#: Jobs a worker holds at most: the one it runs and the next, waiting in its socket.
IN_FLIGHT = 2
#: A job's frame: its length, then its pickle.
_HEADER = struct.Struct("!Q")
#: Seconds before a worker that died without finishing a job is started again (doubled
#: each time it happens again in a row), and at most.
RESTART_DELAY = 0.5
MAX_RESTART_DELAY = 60.0
#: Seconds ``close`` waits for each worker to exit before killing it.
CLOSE_WAIT = 5.0


class WorkerDied(RuntimeError):
    """The worker process running a job ended before answering it."""


class RemoteTraceback(Exception):
    """Where a job failed in its worker (the ``__cause__`` of the job's exception)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def _send(sock: socket.socket, payload: bytes) -> None:
    sock.sendall(_HEADER.pack(len(payload)) + payload)


def _receive(sock: socket.socket) -> bytes | None:
    """One frame, or None at the end of the stream."""
    header = _read_exactly(sock, _HEADER.size)
    return None if header is None else _read_exactly(sock, _HEADER.unpack(header)[0])


def _read_exactly(sock: socket.socket, size: int) -> bytes | None:
    chunks, missing = [], size
    while missing:
        chunk = sock.recv(min(missing, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        missing -= len(chunk)
    return b"".join(chunks)


def _answer(job: bytes) -> bytes:
    """Run a pickled ``(function, args)``; the pickled ``(True, result)``, or ``(False,
    exception, its traceback's text)`` (a pickled exception loses its ``__cause__``)."""
    try:
        function, args = pickle.loads(job)
        return pickle.dumps((True, function(*args)), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as exc:  # noqa: BLE001  (the job's failure is its caller's to handle)
        where = "".join(traceback.format_exception(exc))
        try:
            return pickle.dumps((False, exc, where), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # noqa: BLE001  (an exception that does not pickle: its words do)
            return pickle.dumps((False, RuntimeError(f"{type(exc).__name__}: {exc}"), where),
                                protocol=pickle.HIGHEST_PROTOCOL)


def serve(sock: socket.socket, owner: int, warm_up: Callable[[], None] | None) -> None:
    """A worker process: answer jobs one at a time until the bot closes the socket."""
    start_worker(owner, warm_up)
    with sock, contextlib.suppress(ConnectionError):  # the bot went away mid-answer: nobody to tell
        while (job := _receive(sock)) is not None:
            _send(sock, _answer(job))


@dataclass
class _Worker:
    process: BaseProcess
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    #: The futures of the jobs sent to it, in the order it answers them.
    jobs: deque[asyncio.Future[Any]] = field(default_factory=deque)
    listening: asyncio.Task[None] | None = None
    answered: int = 0


class WorkerPool:
    """``count`` worker processes; :meth:`submit` a module-level function and its
    (picklable) arguments, get an asyncio future of its result."""

    def __init__(self, count: int, *, warm_up: Callable[[], None] | None = None,
                 context: BaseContext | None = None, kind: str = "picture") -> None:
        """Must be made on the running event loop, which is the only one to use it. ``kind``
        names the workers in logs and errors ("picture", "AI")."""
        self._loop = asyncio.get_running_loop()
        self.kind = kind
        self._count = max(1, count)
        self._warm_up = warm_up
        self._context = context or worker_context()
        self._waiting: deque[tuple[bytes, asyncio.Future[Any]]] = deque()
        self._workers: list[_Worker] = []
        self._starting = 0
        #: Workers being connected (their tasks are kept here: the loop holds tasks only weakly).
        self._connecting: set[asyncio.Task[None]] = set()
        self._failed_starts = 0
        self._closed = False
        for _ in range(self._count):
            self._start()

    @property
    def pending(self) -> int:
        """Jobs submitted and not answered yet (running, sent, or waiting here)."""
        return len(self._waiting) + sum(len(w.jobs) for w in self._workers)

    def pids(self) -> list[int]:
        """The live workers' process ids."""
        return [w.process.pid for w in self._workers if w.process.pid is not None]

    def submit(self, function: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        future: asyncio.Future[T] = self._loop.create_future()
        if self._closed:
            future.set_exception(RuntimeError(f"The {self.kind} workers have been shut down."))
            return future
        job = pickle.dumps((function, args), protocol=pickle.HIGHEST_PROTOCOL)
        self._waiting.append((job, future))
        self._dispatch()
        return future

    def _dispatch(self) -> None:
        while self._waiting:
            worker = min(self._workers, key=lambda w: len(w.jobs), default=None)
            if worker is None or len(worker.jobs) >= IN_FLIGHT:
                return
            job, future = self._waiting.popleft()
            if future.done():  # cancelled while it waited: nothing to run
                continue
            worker.jobs.append(future)
            worker.writer.write(_HEADER.pack(len(job)) + job)

    def _start(self) -> None:
        parent, child = socket.socketpair()
        try:
            process: BaseProcess = cast(Any, self._context).Process(  # each start method's own class
                target=serve, args=(child, os.getpid(), self._warm_up), name=f"{self.kind}-worker", daemon=True)
            process.start()
        except BaseException:
            parent.close()
            raise
        finally:
            child.close()
        self._starting += 1
        connecting = self._loop.create_task(self._connect(process, parent))
        self._connecting.add(connecting)
        connecting.add_done_callback(self._connecting.discard)

    async def _connect(self, process: BaseProcess, sock: socket.socket) -> None:
        try:
            reader, writer = await asyncio.open_unix_connection(sock=sock, limit=1 << 20)
        except OSError as exc:  # cannot happen to a fresh socket pair, bar running out of descriptors
            log.error("could not talk to a new %s worker (%s); trying another", self.kind, exc)
            sock.close()
            process.kill()
            self._loop.call_later(RESTART_DELAY, self._restart)
            return
        finally:
            self._starting -= 1
        worker = _Worker(process, reader, writer)
        if self._closed:
            self._stop(worker)
            return
        self._workers.append(worker)
        worker.listening = self._loop.create_task(self._listen(worker), name=f"{self.kind}-worker")
        self._dispatch()

    async def _listen(self, worker: _Worker) -> None:
        try:
            while True:
                header = await worker.reader.readexactly(_HEADER.size)
                answer = await worker.reader.readexactly(_HEADER.unpack(header)[0])
                future = worker.jobs.popleft()
                worker.answered += 1
                self._failed_starts = 0
                self._settle(future, answer)
                self._dispatch()
        except (asyncio.IncompleteReadError, ConnectionError):
            self._lost(worker)

    def _settle(self, future: asyncio.Future[Any], answer: bytes) -> None:
        if future.done():  # its caller gave up on it
            return
        try:
            ok, value, *where = pickle.loads(answer)
        except Exception as exc:  # noqa: BLE001  (a result that does not unpickle fails its job only)
            future.set_exception(RuntimeError(f"A {self.kind} worker's answer could not be read: {exc}"))
            return
        if ok:
            future.set_result(value)
        else:
            value.__cause__ = RemoteTraceback(*where)
            future.set_exception(value)

    def _lost(self, worker: _Worker) -> None:
        """The worker's socket ended: it died, or the pool is closing."""
        with contextlib.suppress(ValueError):
            self._workers.remove(worker)
        worker.writer.close()
        worker.process.join(timeout=0.2)  # it is ending: its socket did
        code = worker.process.exitcode
        while worker.jobs:
            future = worker.jobs.popleft()
            if not future.done():
                future.set_exception(WorkerDied(
                    f"The {self.kind} worker running this ended (exit code {code}) before it finished."))
        if self._closed:
            return
        log.warning("a %s worker ended (exit code %s) after %d jobs; starting another", self.kind, code,
                    worker.answered)
        if worker.answered == 0:
            self._failed_starts += 1
        delay = 0.0 if self._failed_starts == 0 else min(RESTART_DELAY * 2 ** (self._failed_starts - 1),
                                                         MAX_RESTART_DELAY)
        self._loop.call_later(delay, self._restart)

    def _restart(self) -> None:
        if not self._closed and len(self._workers) + self._starting < self._count:
            self._start()

    def _stop(self, worker: _Worker) -> None:
        """End the worker: once it has finished the job it is on, it reads the end of its
        socket and exits; if it has not within :data:`CLOSE_WAIT` seconds, it is killed."""
        with contextlib.suppress(OSError, RuntimeError):
            worker.writer.write_eof()
        worker.process.join(timeout=CLOSE_WAIT)
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join(timeout=CLOSE_WAIT)
        worker.writer.close()

    def close(self) -> None:
        """Cancel every job not answered yet and end the workers (the answers would come to nobody)."""
        if self._closed:
            return
        self._closed = True
        while self._waiting:
            _, future = self._waiting.popleft()
            future.cancel()
        for worker in list(self._workers):
            if worker.listening is not None:
                worker.listening.cancel()
            while worker.jobs:
                worker.jobs.popleft().cancel()
            self._stop(worker)
        self._workers.clear()


class ExecutorJobs:
    """The same as :class:`WorkerPool` on a ``concurrent.futures`` executor (threads, for tests)."""

    def __init__(self, executor: Executor) -> None:
        self._executor = CountingExecutor(executor)

    @property
    def pending(self) -> int:
        return self._executor.pending

    def submit(self, function: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        return asyncio.wrap_future(self._executor.submit(function, *args))

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)


class Jobs(Protocol):
    """Where jobs run: a :class:`WorkerPool` or an :class:`ExecutorJobs`."""

    @property
    def pending(self) -> int: ...

    def submit(self, function: Callable[..., T], *args: Any) -> asyncio.Future[T]: ...

    def close(self) -> None: ...


def as_jobs(jobs: Jobs | Executor) -> Jobs:
    """``jobs`` itself, or an executor wrapped as :class:`ExecutorJobs`."""
    return ExecutorJobs(jobs) if isinstance(jobs, Executor) else jobs
