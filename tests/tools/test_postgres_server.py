"""The throwaway PostgreSQL server: real binaries, real connections, nothing left behind."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from tests.paths import REPO
from tests.postgres_fixtures import database_name
from tools.postgres_server import PostgresServer, PostgresUnavailable, find_binaries

pytestmark = pytest.mark.postgres


def accepts_connections(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True


async def test_databases_are_separate_and_stop_leaves_nothing() -> None:
    server = PostgresServer()
    with server:
        port, directory = server.port, server.directory
        assert port is not None and directory is not None
        server.start()  # already running: nothing happens
        assert (server.port, server.directory) == (port, directory)
        first, second = server.create_database("first"), server.create_database("second")
        assert first == f"postgresql://postgres@127.0.0.1:{port}/first"

        connection = await asyncpg.connect(first)
        try:
            await connection.execute("CREATE TABLE t (x int); INSERT INTO t VALUES (42)")
            assert await connection.fetchval("SELECT x FROM t") == 42
        finally:
            await connection.close()
        connection = await asyncpg.connect(second)
        try:
            assert await connection.fetchval("SELECT to_regclass('t')") is None
        finally:
            await connection.close()

    assert server.port is None
    assert not accepts_connections(port)
    assert not directory.exists()


async def test_drop_database_disconnects_whoever_is_left() -> None:
    with PostgresServer() as server:
        url = server.create_database("forgotten")
        connection = await asyncpg.connect(url)  # a test that forgot to close its pool
        server.drop_database("forgotten")
        assert server.psql("postgres", "SELECT count(*) FROM pg_database WHERE datname = 'forgotten'").strip() == "0"
        with pytest.raises((asyncpg.PostgresError, ConnectionError)):
            await connection.fetchval("SELECT 1")
        connection.terminate()


def test_database_names_are_checked_before_any_sql() -> None:
    with pytest.raises(ValueError, match="lower-case"):
        PostgresServer().create_database('x"; DROP DATABASE postgres; --')


def test_fixture_database_names_are_unique_and_valid() -> None:
    names = {database_name("test_thing[Flaming Pyramids-3]") for _ in range(100)}
    assert len(names) == 100
    assert all(re.fullmatch(r"t_test_thing_flaming_pyramids_3_[0-9a-f]{12}", name) for name in names)


def test_command_line_prints_a_url_and_stops_on_sigterm() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "tools.postgres_server"], cwd=REPO, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip()
        match = re.fullmatch(r"postgresql://postgres@127\.0\.0\.1:(\d+)/postgres", url)
        assert match is not None, url
        port = int(match[1])
        assert accepts_connections(port)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
        assert not accepts_connections(port)
    finally:
        if process.poll() is None:
            process.kill()


def test_missing_binaries_say_how_to_install(tmp_path: Path) -> None:
    with pytest.raises(PostgresUnavailable, match=r"apt-get install postgresql"):
        find_binaries(path="", debian_root=tmp_path)


def test_newest_complete_version_wins(tmp_path: Path) -> None:
    for version, programs in [("9", ["initdb", "pg_ctl", "postgres", "psql"]),
                              ("15", ["initdb", "pg_ctl", "postgres", "psql"]),
                              ("16", ["psql"])]:  # 16's client alone: no server to start
        bindir = tmp_path / version / "bin"
        bindir.mkdir(parents=True)
        for program in programs:
            (bindir / program).touch(mode=0o755)
    assert find_binaries(path="", debian_root=tmp_path) == tmp_path / "15" / "bin"
    assert os.access(find_binaries() / "initdb", os.X_OK)  # and this machine has the real ones


@pytest.mark.postgres
def test_ensure_finds_the_installed_server_without_installing_anything() -> None:
    """What the README's test command runs first: on a machine that has the binaries it only reports them."""
    done = subprocess.run([sys.executable, "-m", "tools.postgres_server", "--ensure"], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("PostgreSQL server binaries: ") and "installing" not in done.stdout
    assert Path(done.stdout.split(": ", 1)[1].strip()) == find_binaries()
