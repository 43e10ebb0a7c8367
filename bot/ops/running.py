"""One bot process per database: ``<database>.lock``, and who holds it.

SQLite with its WAL lets several processes open a file, but the bot is not built for
that: each process would deliver the same outbox rows, play the same AI turns and
keep its own games in memory. So a running bot takes an **exclusive** ``flock`` on a
file beside the database and keeps the descriptor open for its whole life; a second
bot on the same file fails to take it and stops at once with
:class:`BotAlreadyRunning`. ``pyramid-bot restore`` takes the same lock while it
replaces the file, so it refuses while a bot is up and a bot cannot start in the
middle of a restore. ``pyramid-bot backup`` and ``health`` take no lock: an online
backup and a look at /healthz are safe beside a running bot.

Why ``flock`` on a separate file:

* the kernel drops it when the last descriptor of the open file goes, that is when
  the process ends however it ends, SIGKILL and the OOM killer included. A crash
  never leaves a stale lock; the file itself stays, and is harmless (it is never
  deleted, since deleting a lock file lets two processes lock two different files);
* it belongs to the open file, not the process (unlike POSIX ``fcntl`` locks, which
  any ``close`` of any descriptor of the file in the process would drop, SQLite's
  own included), so a second ``bot_running`` in the same process is refused too;
* the descriptor is close-on-exec (Python's default), and the worker pools start from
  multiprocessing's fork server or by spawning, so no worker inherits it: the lock
  goes with the bot, not with its slowest child;
* a lock on the database file itself would meddle with SQLite's own locks.

The holder writes one line of JSON into the file (what it is, its PID, host and start
time) so that the refused process can say who is in the way. The record is only
information: the lock decides. A holder that exits cleanly empties it; after a
SIGKILL the old record stays until the next holder overwrites it right after
locking, so in that instant a refused process could name the dead holder.

The path is resolved first, so ``./bot.db``, an absolute path and a symlink to it
all find the same lock. Where ``flock`` does not exist (Windows) nobody can tell,
and the lock is a no-op.
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ValidationError

from bot.store.database import DatabaseUnavailable, utc_now

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX
    fcntl = None  # type: ignore[assignment]

Role = Literal["bot", "restore", "migrate"]
#: What an operator command holding the lock is doing, for whoever finds it held.
_DOING = {"restore": "being restored", "migrate": "being copied by pyramid-bot migrate-db"}
#: More than any record is long; a longer one is not ours.
_RECORD_LIMIT = 4096


class Holder(BaseModel):
    """Who holds the lock, as written into the lock file."""

    role: Role
    pid: int
    host: str
    since: datetime

    def describe(self) -> str:
        return f"process {self.pid} on host {self.host}, since {self.since.astimezone(UTC):%Y-%m-%d %H:%M:%S} UTC"


class DatabaseBusy(Exception):
    """Another process holds the database in a way that rules out what was asked."""

    def __init__(self, message: str, database: Path, holder: Holder | None) -> None:
        super().__init__(message)
        self.database = database
        self.holder = holder


class BotAlreadyRunning(DatabaseBusy):
    """A bot was started on a database that another bot process is serving."""


def lock_path(database: Path) -> Path:
    resolved = database.resolve()
    return resolved.with_name(resolved.name + ".lock")


def bot_running(database: Path) -> contextlib.AbstractContextManager[Holder]:
    """Held by a running bot for its whole life; raises :class:`BotAlreadyRunning` if
    another bot holds it, :class:`DatabaseBusy` if a restore does."""
    return _locked(database, "bot")


def no_bot_running(database: Path, role: Role = "restore") -> contextlib.AbstractContextManager[Holder]:
    """Held while the database file is replaced (or copied, ``role="migrate"``); raises
    :class:`DatabaseBusy` if a bot (or another such command) holds it."""
    return _locked(database, role)


@contextlib.contextmanager
def _locked(database: Path, role: Role) -> Iterator[Holder]:
    me = Holder(role=role, pid=os.getpid(), host=socket.gethostname(), since=utc_now())
    if fcntl is None:  # pragma: no cover - not on POSIX
        yield me
        return
    path = lock_path(database)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise DatabaseUnavailable(database, f"cannot create {path.name} beside it: {exc.strerror or exc}") from exc
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise _refusal(database, role, _read_holder(fd)) from None
        _write_record(fd, me.model_dump_json().encode() + b"\n")
        try:
            yield me
        finally:
            _write_record(fd, b"")  # a clean exit leaves no record of a holder that is gone
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _write_record(fd: int, data: bytes) -> None:
    # The record only helps the message of a refused process: a full disk must not stop the bot over it.
    with contextlib.suppress(OSError):
        os.ftruncate(fd, 0)
        if data:
            os.pwrite(fd, data, 0)


def _read_holder(fd: int) -> Holder | None:
    try:
        text = os.pread(fd, _RECORD_LIMIT, 0).strip()
        return Holder.model_validate_json(text) if text else None  # empty: being written, or cleared
    except (OSError, ValidationError):  # foreign or unreadable
        return None


def _refusal(database: Path, role: Role, holder: Holder | None) -> DatabaseBusy:
    who = f" ({holder.describe()})" if holder is not None else ""
    if role == "bot" and holder is not None and holder.role in _DOING:
        return DatabaseBusy(f"The database {database} is {_DOING[holder.role]}{who}; start the bot when that is "
                            "done.", database, holder)
    if role == "bot":
        return BotAlreadyRunning(
            f"Another Pyramid Bot is already running on the database {database}{who}. One database serves one "
            f"bot process: stop the other one first (docker stop, systemctl stop, Ctrl+C), or give this one its "
            f"own PYRAMID_DATABASE. (The lock is {lock_path(database)}; it is released when that process ends.)",
            database, holder,
        )
    if holder is not None and holder.role in _DOING:
        return DatabaseBusy(f"The database {database} is {_DOING[holder.role]}{who}; wait until that is done.",
                            database, holder)
    return DatabaseBusy(
        f"A Pyramid Bot is running on {database}{who}: stop it first (docker stop, systemctl stop, Ctrl+C).",
        database, holder,
    )
