"""The one-bot-per-database lock (``bot.ops.running``) on real files and real processes:
a second holder is refused and told who is in the way, and a holder that is killed
leaves nothing behind that blocks the next start."""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.ops.running import BotAlreadyRunning, DatabaseBusy, Holder, bot_running, lock_path, no_bot_running
from tools.bot_process import alive

ROOT = str(Path(__file__).resolve().parents[3])

#: A bot-to-be in its own process: takes the lock, starts a child that outlives it if
#: asked (``exec``, without closing descriptors), says so, and waits to be killed.
HOLDER = """
import subprocess, sys, time
from pathlib import Path
from bot.ops.running import bot_running
with bot_running(Path(sys.argv[1])):
    child = subprocess.Popen(["sleep", "120"], close_fds=False) if sys.argv[2] == "child" else None
    print(child.pid if child else 0, flush=True)
    time.sleep(120)
"""


@contextlib.contextmanager
def holder_process(database: Path, *, child: bool = False) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """A process holding the lock, and the pid of its child (0 without one); both are reaped."""
    env = {**os.environ, "PYTHONPATH": ROOT}
    process = subprocess.Popen([sys.executable, "-c", HOLDER, str(database), "child" if child else "-"],
                               stdout=subprocess.PIPE, text=True, env=env)
    kid = 0
    try:
        assert process.stdout is not None
        kid = int(process.stdout.readline())
        yield process, kid
    finally:
        process.kill()
        process.wait()
        if kid:
            with contextlib.suppress(ProcessLookupError):
                os.kill(kid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(kid, 0)


def test_a_second_bot_is_refused_and_told_who_holds_the_database(tmp_path: Path) -> None:
    database = tmp_path / "bot.db"
    with bot_running(database) as me:
        with pytest.raises(BotAlreadyRunning) as refused, bot_running(database):
            pytest.fail("two bots held one database")
        message = str(refused.value)
        assert f"already running on the database {database}" in message
        assert f"process {os.getpid()} on host {socket.gethostname()}" in message
        assert "PYRAMID_DATABASE" in message and str(lock_path(database)) in message
        assert refused.value.holder == me and refused.value.database == database
    with bot_running(database):  # released with the first bot
        pass


def test_every_spelling_of_the_path_finds_the_same_lock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    database = tmp_path / "data" / "bot.db"
    database.parent.mkdir()
    link = tmp_path / "link.db"
    link.symlink_to(database)
    monkeypatch.chdir(database.parent)
    with bot_running(database):
        for other in (Path("bot.db"), Path("../data/./bot.db"), link):
            with pytest.raises(BotAlreadyRunning), bot_running(other):
                pass
    assert lock_path(link) == lock_path(Path("bot.db")) == database.parent / "bot.db.lock"


def test_the_record_names_the_holder_and_a_clean_exit_clears_it(tmp_path: Path) -> None:
    database = tmp_path / "bot.db"
    with bot_running(database) as me:
        record = Holder.model_validate_json(lock_path(database).read_text())
        assert record == me and record.role == "bot" and record.pid == os.getpid()
    assert lock_path(database).read_text() == ""
    assert lock_path(database).exists(), "the lock file stays: deleting it would let two processes lock two files"


def test_a_killed_bot_leaves_no_stale_lock(tmp_path: Path) -> None:
    database = tmp_path / "bot.db"
    with holder_process(database) as (process, _):
        with pytest.raises(BotAlreadyRunning, match=f"process {process.pid} on host"), bot_running(database):
            pass
        bot_is_running = re.escape(f"A Pyramid Bot is running on {database} (process {process.pid} on host")
        with pytest.raises(DatabaseBusy, match=bot_is_running), no_bot_running(database):
            pass
        process.send_signal(signal.SIGKILL)  # no Python runs: only the kernel can let go
        process.wait()
        assert Holder.model_validate_json(lock_path(database).read_text()).pid == process.pid, "a stale record..."
        with bot_running(database) as me:  # ... but no stale lock
            assert Holder.model_validate_json(lock_path(database).read_text()) == me


def test_a_child_of_the_bot_does_not_keep_its_lock(tmp_path: Path) -> None:
    database = tmp_path / "bot.db"
    with holder_process(database, child=True) as (process, child):
        process.send_signal(signal.SIGKILL)
        process.wait()
        assert alive(child), "the child outlives the bot"
        with bot_running(database):  # the descriptor is close-on-exec: the child never had the lock
            pass


def test_a_holder_that_left_no_record_still_gets_a_clear_refusal(tmp_path: Path) -> None:
    """Between taking the lock and writing its record (or if it could not write one),
    the holder is anonymous: the message still names the database and the lock."""
    database = tmp_path / "bot.db"
    for record in (b"", b"not a record\n", b'{"role": "bot"}'):
        path = lock_path(database)
        path.write_bytes(record)
        with path.open("rb") as other:
            fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
            with pytest.raises(BotAlreadyRunning) as refused, bot_running(database):
                pass
            assert refused.value.holder is None
            assert str(refused.value).startswith(f"Another Pyramid Bot is already running on the database {database}.")
            bot_is_running = re.escape(f"A Pyramid Bot is running on {database}: stop it")
            with pytest.raises(DatabaseBusy, match=bot_is_running), no_bot_running(database):
                pass


def test_a_restore_and_a_bot_exclude_each_other_by_name(tmp_path: Path) -> None:
    database = tmp_path / "bot.db"
    with no_bot_running(database) as restoring:
        with pytest.raises(DatabaseBusy, match="is being restored") as refused, bot_running(database):
            pass
        assert not isinstance(refused.value, BotAlreadyRunning), "a restore is not a second bot"
        assert refused.value.holder == restoring
        with pytest.raises(DatabaseBusy, match=r"is being restored .*; wait until that is done"), \
                no_bot_running(database):
            pass



def test_a_bot_started_during_migrate_db_is_told_what_is_going_on(tmp_path: Path) -> None:
    database = tmp_path / "bot.db"
    with no_bot_running(database, role="migrate"), pytest.raises(
        DatabaseBusy, match="being copied by pyramid-bot migrate-db"
    ), bot_running(database):
        pass
