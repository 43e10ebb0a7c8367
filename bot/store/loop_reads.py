"""SQLite reads run on the event loop itself when they are quick, and on a thread when not.

A read through aiosqlite is a trip to its connection's thread and back: about 75–125 µs
of CPU for the hand-off (a queue, two thread switches, a wake-up of the loop), against
about 6 µs for the statement itself, a point read of a row the page cache holds. A move
makes some thirty such reads (is the game still at this revision, whose seat, which
message shows the board), so the hand-offs alone cost a few milliseconds of CPU a move.

Here a read is tried first on a connection of the loop's own, under two guards that
keep the loop from being held up:

* **No waiting for locks.** The connection's busy timeout is 0: where SQLite would wait
  (a checkpoint or a recovery holding the file, a process holding it exclusively), it
  says "busy" at once.
* **A budget of work.** A progress handler counts the statement's virtual-machine steps
  and interrupts it past :data:`STEP_BUDGET` (well under a millisecond): a scan of a
  large table, a report's aggregate, stops early.

A read stopped by either, or failing in any other way, is run again on the thread
reader (``None`` returned here), which waits for locks as before and reports its own
errors, so every result and every error is exactly what the thread reader gives. In WAL
mode a reader never waits for the writer and sees committed data only, so the two
readers see the same database.

Disk reads are not guarded: a page outside SQLite's and the system's caches is read
from the disk on the loop. A bot's database is read all day and stays in the system's
cache; a cold start pays a few page reads once.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

#: The progress handler is called every this many virtual-machine steps ...
STEPS_PER_CALL = 1000
#: ... and a statement on the loop is interrupted after this many steps in all (about
#: 0.5 ms on the 2-core machine; a point read takes a few hundred).
STEP_BUDGET = 40_000


class LoopReader:
    """A read-only connection used from the event loop's thread alone."""

    def __init__(self, path: Path) -> None:
        self._conn = sqlite3.connect(path, isolation_level=None)
        self._conn.row_factory = sqlite3.Row
        for pragma in ("query_only=ON", "foreign_keys=ON", "busy_timeout=0"):  # as the thread reader, bar the wait
            self._conn.execute(f"PRAGMA {pragma}")
        self._calls = 0
        self._conn.set_progress_handler(self._progress, STEPS_PER_CALL)
        #: Reads answered here, and reads handed back to the thread reader.
        self.answered = 0
        self.handed_back = 0

    def _progress(self) -> int:
        self._calls += 1
        return 1 if self._calls * STEPS_PER_CALL > STEP_BUDGET else 0

    def read_all(self, sql: str, params: Sequence[Any]) -> list[sqlite3.Row] | None:
        """Every row of ``sql``, or None if it must be run on the thread reader instead."""
        self._calls = 0
        try:
            rows = self._conn.execute(sql, params).fetchall()
        except (sqlite3.Error, ValueError, OverflowError):  # the thread reader says what went wrong
            self.handed_back += 1
            return None
        self.answered += 1
        return rows

    def close(self) -> None:
        self._conn.close()
