"""SQLite write transactions run on the event loop itself, the long ones statement by
statement on a thread.

The reasons are those of ``bot.store.loop_reads``: a statement through aiosqlite's thread
costs far more CPU in the hand-off than in SQLite, and a move writes in three or four
transactions of a few point statements each (``BEGIN``, the rows, ``COMMIT``: every one
a trip). Here they run on the loop, and nothing in them can hold it up for long:

* **Waiting for the write lock** (another process writing the file, an operator's
  ``sqlite3`` shell) is done by the loop's own timer: ``BEGIN IMMEDIATE`` is tried with
  SQLite's busy timeout at 0, and again after a growing pause, for up to
  :data:`BUSY_WAIT` seconds, as SQLite's own busy handler would, but without blocking.
* **A commit** in WAL mode with ``synchronous=NORMAL`` appends to the log and syncs
  nothing. The syncing is the checkpoint's, and checkpoints are not run at commits
  here (``wal_autocheckpoint=0``): every :data:`CHECKPOINT_EVERY` commits, the caller
  runs a passive one on its thread connection, which waits for nobody.
* **Long work** (a purge of old rows, a recount of every rating) is marked so by its
  transaction (``long=True``): each of its statements and its commit run on a thread,
  one at a time, on the same connection.

Only one transaction runs at a time (the database's lock), so the connection is used
by one thread at a time, the loop's or, during a long statement, that statement's.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

#: Seconds a transaction waits for the write lock before it gives up ("busy").
BUSY_WAIT = 5.0
#: Commits between two checkpoints.
CHECKPOINT_EVERY = 200
#: SQLite's primary result codes for "busy" and "locked".
_BUSY_CODES = {5, 6}


class LoopWriter:
    """The database's write connection, used from the event loop (and, for a long
    statement, from one thread at a time while the loop waits for it)."""

    def __init__(self, path: Path, *, max_pages: int | None = None) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.conn.row_factory = sqlite3.Row
        for pragma in ("busy_timeout=0", "foreign_keys=ON", "synchronous=NORMAL", "wal_autocheckpoint=0"):
            self.conn.execute(f"PRAGMA {pragma}")
        if max_pages is not None:
            self.conn.execute(f"PRAGMA max_page_count = {max_pages}")
        self._commits = 0

    async def begin(self, *, patience: float = BUSY_WAIT) -> None:
        """``BEGIN IMMEDIATE``, waiting for the write lock on the loop's timer."""
        deadline = time.monotonic() + patience
        pause = 0.001
        while True:
            try:
                self.conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                busy = (getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF in _BUSY_CODES
                if not busy or time.monotonic() + pause > deadline:
                    raise
            await asyncio.sleep(pause)
            pause = min(pause * 2, 0.1)

    async def run(self, statement: Callable[[], T], *, off_loop: bool) -> T:
        """``statement()`` on the loop, or on a thread (``off_loop``): then it is
        finished before anything else uses the connection, even if the caller is
        cancelled meanwhile."""
        if not off_loop:
            return statement()
        running = asyncio.ensure_future(asyncio.to_thread(statement))
        try:
            return await asyncio.shield(running)
        except asyncio.CancelledError:
            await asyncio.wait([running])
            raise

    @property
    def commits(self) -> int:
        """Commits made so far: a checkpoint is due at every multiple of :data:`CHECKPOINT_EVERY`."""
        return self._commits

    async def commit(self, *, off_loop: bool) -> bool:
        """Commit; True when a checkpoint is due."""
        await self.run(lambda: self.conn.execute("COMMIT"), off_loop=off_loop)
        self._commits += 1
        return self._commits % CHECKPOINT_EVERY == 0

    def rollback(self) -> None:
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")

    def close(self) -> None:
        self.conn.close()
