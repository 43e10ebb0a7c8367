"""A throwaway PostgreSQL server for tests, benches and the CI: ``python -m tools.postgres_server``.

It runs the system's own binaries (Debian's ``postgresql`` package) in a fresh temporary
directory, listening only on 127.0.0.1 on a free port, tuned for speed rather than
durability (no fsync): the data is thrown away with the directory when it stops.
No Docker, so the tests need nothing but the package.

PostgreSQL refuses to run as root, and the tests run as root here and in the CI, so
as root the server runs as the unprivileged ``postgres`` user that the package
creates, in a directory that user owns under the system's temporary directory (not
under pytest's ``tmp_path``, which only root can enter).

Clients (``psql`` here, asyncpg in tests and in the bot) connect over TCP as the
``postgres`` role without a password (``trust`` authentication on the loopback).
"""

from __future__ import annotations

import atexit
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType

INSTALL_HINT = "install it with: apt-get install postgresql (Debian/Ubuntu)"
REQUIRED_PROGRAMS = ("initdb", "pg_ctl", "postgres", "psql")
SYSTEM_USER = "postgres"  # the unprivileged user Debian's package creates; used when we are root
DEBIAN_ROOT = Path("/usr/lib/postgresql")
DATABASE_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")  # needs neither quoting in SQL nor escaping in a URL
START_ATTEMPTS = 5  # a port picked as free can be taken before the server binds it
READY_TIMEOUT_SECONDS = 30

# Speed over durability, and room for several bot processes with connection pools.
SETTINGS = """
listen_addresses = '127.0.0.1'
max_connections = 200
fsync = off
synchronous_commit = off
full_page_writes = off
"""


class PostgresUnavailable(Exception):
    """PostgreSQL's server programs are not installed (or cannot be run): nothing to start."""


class PostgresFailed(RuntimeError):
    """The server or one of its programs failed; the message carries their output."""


def find_binaries(*, path: str | None = None, debian_root: Path = DEBIAN_ROOT) -> Path:
    """The directory holding initdb, pg_ctl, postgres and psql.

    Looked for where ``pg_config --bindir`` says, then in the newest
    ``debian_root/<version>/bin``, then on ``path`` (``$PATH`` when None). A directory
    counts only with all four programs: ``pg_config`` also comes with the client
    library alone. ``path`` and ``debian_root`` exist so a test can point them at
    empty places.
    """
    candidates: list[Path] = []
    pg_config = shutil.which("pg_config", path=path)
    if pg_config is not None:
        bindir = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, check=False).stdout.strip()
        if bindir:
            candidates.append(Path(bindir))
    versions = [d for d in debian_root.glob("*/bin") if d.parent.name.isdigit()] if debian_root.is_dir() else []
    candidates += sorted(versions, key=lambda d: int(d.parent.name), reverse=True)
    initdb = shutil.which("initdb", path=path)
    if initdb is not None:
        candidates.append(Path(initdb).resolve().parent)
    for directory in candidates:
        if all(os.access(directory / program, os.X_OK) for program in REQUIRED_PROGRAMS):
            return directory
    raise PostgresUnavailable(
        f"PostgreSQL's server programs ({', '.join(REQUIRED_PROGRAMS)}) were not found "
        f"(looked at pg_config --bindir, {debian_root}/*/bin and PATH); {INSTALL_HINT}"
    )


def free_port() -> int:
    """A port nobody listens on right now (it may be taken before we bind it: callers retry)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def clean_environment() -> dict[str, str]:
    """The environment without ``PG*`` variables, which would redirect our programs elsewhere."""
    return {key: value for key, value in os.environ.items() if not key.startswith("PG")}


class PostgresServer:
    """One throwaway cluster: ``start()`` creates and starts it, ``stop()`` stops it and deletes it."""

    def __init__(self, *, binaries: Path | None = None) -> None:
        self.binaries = binaries if binaries is not None else find_binaries()
        self.as_root = os.geteuid() == 0
        if self.as_root:
            self._check_system_user()
        self.directory: Path | None = None
        self.port: int | None = None

    @property
    def url(self) -> str:
        return self.database_url("postgres")

    def database_url(self, name: str) -> str:
        if self.port is None:
            raise PostgresFailed("the PostgreSQL server is not started")
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def start(self) -> None:
        """Create the cluster and start the server; does nothing when it already runs."""
        if self.port is not None:
            return
        self.directory = self._make_directory()
        atexit.register(self.stop)  # a session that dies without stopping us still cleans up
        try:
            self._run_as_owner(
                self.directory, "initdb", "--pgdata", str(self.data), "--auth=trust", "--username=postgres",
                "--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions",
            )
            with (self.data / "postgresql.conf").open("a") as conf:
                conf.write(SETTINGS + f"unix_socket_directories = '{self.directory}'\n")
            self.port = self._start_on_a_free_port()
            self.psql("postgres", "SELECT 1")  # pg_ctl -w saw it ready; check a client gets in
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        """Stop the server (fast, else immediate) and delete its directory; safe to call twice."""
        atexit.unregister(self.stop)
        directory, self.directory, self.port = self.directory, None, None
        if directory is None:
            return
        try:
            if (directory / "data" / "postmaster.pid").exists():
                for mode in ("fast", "immediate"):
                    stopped = self._pg_ctl(directory, "stop", "-w", "-m", mode)
                    if stopped.returncode == 0:
                        break
        finally:
            shutil.rmtree(directory, ignore_errors=True)

    def __enter__(self) -> PostgresServer:
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.stop()

    def create_database(self, name: str) -> str:
        """``CREATE DATABASE name``; returns its URL."""
        self.psql("postgres", f"CREATE DATABASE {self._checked(name)}")
        return self.database_url(name)

    def drop_database(self, name: str) -> None:
        """Drop it, disconnecting whoever is still connected (a test's pool left open)."""
        self.psql("postgres", f"DROP DATABASE IF EXISTS {self._checked(name)} WITH (FORCE)")

    def psql(self, database: str, sql: str) -> str:
        """Run SQL with ``psql`` (as any user: the server trusts the loopback) and return its output."""
        if self.port is None:
            raise PostgresFailed("the PostgreSQL server is not started")
        command = [
            str(self.binaries / "psql"), "--no-psqlrc", "--no-align", "--tuples-only", "--quiet",
            "--set=ON_ERROR_STOP=1", "--host=127.0.0.1", f"--port={self.port}", "--username=postgres",
            f"--dbname={database}", f"--command={sql}",
        ]
        done = subprocess.run(command, capture_output=True, text=True, env=clean_environment(), check=False)
        if done.returncode != 0:
            raise PostgresFailed(f"psql failed on {sql!r}: {done.stderr.strip()}")
        return done.stdout

    @property
    def data(self) -> Path:
        assert self.directory is not None
        return self.directory / "data"

    @staticmethod
    def _check_system_user() -> None:
        try:
            pwd.getpwnam(SYSTEM_USER)
        except KeyError:
            raise PostgresUnavailable(
                f"PostgreSQL refuses to run as root, and there is no {SYSTEM_USER!r} user to run it as; {INSTALL_HINT}"
            ) from None
        if shutil.which("runuser") is None:
            raise PostgresUnavailable(f"as root, starting PostgreSQL as {SYSTEM_USER!r} needs runuser (util-linux)")

    def _make_directory(self) -> Path:
        directory = Path(tempfile.mkdtemp(prefix="pyramid-pg-"))
        if self.as_root:
            owner = pwd.getpwnam(SYSTEM_USER)
            os.chown(directory, owner.pw_uid, owner.pw_gid)
        return directory

    def _start_on_a_free_port(self) -> int:
        assert self.directory is not None
        log = self.directory / "server.log"
        for _ in range(START_ATTEMPTS):
            port = free_port()
            log.unlink(missing_ok=True)
            started = self._pg_ctl(
                self.directory, "start", "-w", f"--timeout={READY_TIMEOUT_SECONDS}", f"--log={log}",
                f"--options=-p {port}",
            )
            if started.returncode == 0:
                return port
            output = log.read_text(errors="replace") if log.exists() else ""
            if "Address already in use" not in output:
                raise PostgresFailed(f"PostgreSQL did not start:\n{started.stdout}{started.stderr}{output}")
        raise PostgresFailed(f"PostgreSQL found no free port in {START_ATTEMPTS} attempts")

    def _pg_ctl(self, directory: Path, *args: str) -> subprocess.CompletedProcess[str]:
        return self._run_as_owner(directory, "pg_ctl", "--pgdata", str(directory / "data"), *args, check=False)

    def _run_as_owner(self, directory: Path, program: str, *args: str,
                      check: bool = True) -> subprocess.CompletedProcess[str]:
        """Run a server program as the cluster's owner: ourselves, or ``postgres`` when we are root.

        In the cluster's directory, since the owner may not be allowed into ours.
        """
        command = [str(self.binaries / program), *args]
        if self.as_root:
            command = ["runuser", "-u", SYSTEM_USER, "--", *command]
        done = subprocess.run(
            command, capture_output=True, text=True, env=clean_environment(), cwd=directory, check=False,
        )
        if check and done.returncode != 0:
            raise PostgresFailed(f"{program} failed:\n{done.stdout}{done.stderr}")
        return done

    @staticmethod
    def _checked(name: str) -> str:
        if DATABASE_NAME.fullmatch(name) is None:
            raise ValueError(f"database name {name!r} must be lower-case letters, digits and _ (at most 63)")
        return name


def ensure_installed(*, apt_get: str = "apt-get") -> Path:
    """The server binaries, installed first from Debian's ``postgresql`` package when
    they are missing (with ``sudo`` unless root): what the README's test command and
    the CI run, so a fresh Debian machine needs nothing done by hand."""
    try:
        return find_binaries()
    except PostgresUnavailable:
        if shutil.which(apt_get) is None:
            raise
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    print("installing PostgreSQL's server (Debian package postgresql) for the tests", flush=True)
    for command in ([apt_get, "update", "-q"], [apt_get, "install", "-y", "-q", "postgresql"]):
        done = subprocess.run([*sudo, *command], env=env, check=False)
        if done.returncode != 0:
            raise PostgresUnavailable(f"{' '.join(command)} failed (exit {done.returncode}); {INSTALL_HINT}")
    return find_binaries()


def main() -> None:
    """Start a server, print its URL, and stop it on Ctrl-C or SIGTERM; with
    ``--ensure``, only make sure the binaries are installed (see :func:`ensure_installed`)."""
    if sys.argv[1:] == ["--ensure"]:
        try:
            print(f"PostgreSQL server binaries: {ensure_installed()}", flush=True)
        except PostgresUnavailable as error:
            sys.exit(f"error: {error}")
        return
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # unwinds through the with-block below
    try:
        with PostgresServer() as server:
            print(server.url, flush=True)
            while True:
                time.sleep(3600)
    except KeyboardInterrupt:
        pass
    except PostgresUnavailable as error:
        sys.exit(f"error: {error}")


if __name__ == "__main__":
    main()
