"""Which storage faults a request can meet that are nobody's bug: the write lock held
too long, a full disk, a read-only or unreachable database.

They are told to the player as what they are (:mod:`bot.interactions.failures`): what
happened, that nothing was changed (the transaction that met the fault was rolled
back), and when to try again; not as the bot being broken. The drivers' errors
are read by their codes, so nothing here imports a driver.
"""

from __future__ import annotations

import enum
import logging
import sqlite3

from bot.store.database import DatabaseDamaged, DatabaseUnavailable


class Fault(enum.Enum):
    """What kind of fault, and so when trying again can help."""

    BUSY = "busy"  # another write holds the lock: in a minute
    FULL = "full"  # no space left: once the operator frees some
    READ_ONLY = "read-only"  # cannot be written: once the operator makes it writable
    UNAVAILABLE = "unavailable"  # cannot be reached (a server down, a file gone): in a few minutes


#: SQLite's primary result codes (https://sqlite.org/rescode.html).
_SQLITE = {5: Fault.BUSY, 6: Fault.BUSY, 13: Fault.FULL, 8: Fault.READ_ONLY, 3: Fault.READ_ONLY,
           10: Fault.UNAVAILABLE, 14: Fault.UNAVAILABLE}
#: PostgreSQL's SQLSTATEs (asyncpg sets ``sqlstate``): exact codes first, then classes.
_POSTGRES = {"53100": Fault.FULL, "53300": Fault.BUSY, "25006": Fault.READ_ONLY, "55P03": Fault.BUSY,
             "40P01": Fault.BUSY, "40001": Fault.BUSY, "57014": Fault.BUSY, "57P03": Fault.UNAVAILABLE}
_POSTGRES_CLASSES = {"53": Fault.FULL, "08": Fault.UNAVAILABLE, "57": Fault.UNAVAILABLE}


def log_fault(logger: logging.Logger, fault: Fault, what: str, error: BaseException) -> None:
    """How every storage fault is logged, wherever it is met: one line, never a
    traceback (it is no bug). A held lock passes by itself: a WARNING. A full,
    read-only or unreachable database waits for the operator: an ERROR, so that
    alerting on errors fires."""
    level = logging.WARNING if fault is Fault.BUSY else logging.ERROR
    logger.log(level, "%s: storage %s (%s: %s)", what, fault.value, type(error).__name__, error)


def fault_of(error: BaseException) -> Fault | None:
    """The storage fault behind ``error`` (itself or what caused it), or None."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        found = _fault(current)
        if found is not None:
            return found
        current = current.__cause__ or current.__context__
    return None


def _fault(error: BaseException) -> Fault | None:
    if isinstance(error, sqlite3.Error):
        code = getattr(error, "sqlite_errorcode", None)
        if isinstance(code, int):
            return _SQLITE.get(code & 0xFF)
        text = str(error).lower()  # older drivers: the message only
        if "locked" in text or "busy" in text:
            return Fault.BUSY
        if "full" in text:
            return Fault.FULL
        if "readonly" in text or "read-only" in text:
            return Fault.READ_ONLY
        return None
    if isinstance(error, DatabaseUnavailable):
        return Fault.UNAVAILABLE
    if isinstance(error, DatabaseDamaged):
        return None  # an operator's restore, not a retry: the internal path logs it
    state = getattr(error, "sqlstate", None)
    if isinstance(state, str) and len(state) == 5:
        return _POSTGRES.get(state) or _POSTGRES_CLASSES.get(state[:2])
    return None
