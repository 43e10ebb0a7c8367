"""Knowing whether a bot is running on a database: ``<database>.lock``.

Every running bot holds a shared ``flock`` on that file; ``pyramid-bot restore``
needs it exclusively, so it refuses while any bot is up and a bot cannot start in
the middle of a restore. The kernel drops the lock when its process ends, even by
SIGKILL, so a crash never leaves a stale lock behind. Where ``flock`` does not exist
(Windows) nobody can tell, and the lock is a no-op.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from bot.store.database import DatabaseUnavailable

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX
    fcntl = None  # type: ignore[assignment]


class DatabaseBusy(Exception):
    """Another process holds the database in a way that rules out what was asked."""


def lock_path(database: Path) -> Path:
    return database.with_name(database.name + ".lock")


@contextlib.contextmanager
def _locked(database: Path, *, exclusive: bool) -> Iterator[None]:
    if fcntl is None:  # pragma: no cover - not on POSIX
        yield
        return
    path = lock_path(database)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise DatabaseUnavailable(database, f"cannot create {path.name} beside it: {exc.strerror or exc}") from exc
    try:
        try:
            fcntl.flock(fd, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
        except BlockingIOError:
            if exclusive:
                raise DatabaseBusy(
                    f"A Pyramid Bot is running on {database}: stop it first (docker stop, systemctl stop, Ctrl+C)."
                ) from None
            raise DatabaseBusy(
                f"The database {database} is being restored; start the bot when that is done."
            ) from None
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def bot_running(database: Path) -> contextlib.AbstractContextManager[None]:
    """Held by a running bot for its whole life (any number of bots may hold it)."""
    return _locked(database, exclusive=False)


def no_bot_running(database: Path) -> contextlib.AbstractContextManager[None]:
    """Held while the database file is replaced; raises :class:`DatabaseBusy` if a bot is up."""
    return _locked(database, exclusive=True)
