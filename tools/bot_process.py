"""The production entry point, ``python -m bot``, in a child process against the emulator.

Tests of the real thing as deployed (environment variables in, signals to stop) and
the load benchmark use it; everything else runs the client in-process for speed.

Several of them may run at once against one emulator, each running some of Discord's
shards (``PYRAMID_SHARD_COUNT`` / ``PYRAMID_SHARD_IDS`` in ``env``) on a shared
PostgreSQL database: each one knows its own gateway sessions (those opened for its
shards since it started), so it is ready when its shards are connected, not when any
bot is.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Mapping
from pathlib import Path

from emulator.gateway import Session
from emulator.server import Emulator

#: Where everything the tools start listens: this machine only.
LOOPBACK = "127.0.0.1"


class BotProcess:
    """``python -m bot`` in a child process, configured the way an admin would (environment variables)."""

    def __init__(self, api_base_url: str, database: Path | str, emulator: Emulator, workers: int,
                 env: Mapping[str, str] | None = None, log_path: Path | None = None) -> None:
        self.api_base_url = api_base_url
        self.database = database  # PYRAMID_DATABASE: a SQLite file or a postgresql:// URL
        self.emulator = emulator
        self.workers = workers
        self.extra_env = dict(env or {})  # more PYRAMID_* settings, as an admin would add them
        self.log_path = log_path  # where the bot's output goes (inherited when None)
        self.killed = False
        self.process: asyncio.subprocess.Process | None = None
        self._spawned = asyncio.Event()
        #: Gateway sessions that existed before this process started: none of them is its own.
        self._older_sessions: set[str] = set()
        #: The sessions it opened, by id (kept once it has ended: a later process's are not its).
        self._own_sessions: dict[str, Session] = {}

    @property
    def shards(self) -> list[tuple[int, int]]:
        """The shards it runs, as IDENTIFY names them: ``(shard_id, shard_count)``. Read from its
        settings as the bot reads them; unset, every shard of the count the emulator recommends."""
        count_text = self.extra_env.get("PYRAMID_SHARD_COUNT", "").strip()
        count = int(count_text) if count_text else self.emulator.shard_count
        ids_text = self.extra_env.get("PYRAMID_SHARD_IDS", "").strip()
        ids = shard_ids(ids_text) if ids_text else list(range(count))
        return [(shard_id, count) for shard_id in ids]

    @property
    def sessions(self) -> list[Session]:
        """Its gateway sessions: those opened for its shards while it ran (a session of an
        earlier process on the same shards, killed and still resumable, is not its, nor is
        one of the process started after it)."""
        running = self._spawned.is_set() and not self.killed and (
            self.process is not None and self.process.returncode is None)
        if running:
            mine = set(self.shards)
            self._own_sessions.update(
                (sid, s) for sid, s in self.emulator.gateway.sessions.items()
                if sid not in self._older_sessions and (s.shard or (0, 1)) in mine)
        return list(self._own_sessions.values())

    async def start(self, token: str) -> None:
        env = {
            **os.environ,
            "DISCORD_TOKEN": token,
            "PYRAMID_API_BASE_URL": self.api_base_url,
            "PYRAMID_DATABASE": str(self.database),
            "PYRAMID_AI_DELAY_SECONDS": "0",
            "PYRAMID_LOG_LEVEL": os.environ.get("PYRAMID_LOG_LEVEL", "WARNING"),
            "PYRAMID_RENDER_WORKERS": str(self.workers),
            **self.extra_env,
            # A bot these tools start plays against a local emulator: its /healthz and /metrics stay on this
            # machine whatever the environment, `.env` (read by the bot, which an environment variable
            # overrides) or ``env`` ask for.
            "PYRAMID_METRICS_HOST": LOOPBACK,
        }
        self._older_sessions = set(self.emulator.gateway.sessions)
        if self.log_path is None:
            self.process = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", env=env)
        else:
            with self.log_path.open("ab") as log:
                self.process = await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "bot", env=env, stdout=log, stderr=log
                )
        self._spawned.set()
        code = await self.process.wait()
        if code not in (0, -signal.SIGTERM) and not (self.killed and code == -signal.SIGKILL):
            raise RuntimeError(f"the bot exited with code {code}")

    async def wait_until_ready(self) -> None:
        """Ready once every shard it runs has a live connection from it: commands are synced
        before it connects, and discord.py handles interactions before its (delayed) READY
        event. Another bot's connections (the other shards' process) do not count."""
        await self._spawned.wait()
        while not self._connected():
            if self.process is not None and self.process.returncode is not None:
                raise RuntimeError(f"the bot exited with code {self.process.returncode} before connecting")
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)

    def _connected(self) -> bool:
        live = {s.shard or (0, 1) for s in self.sessions if s.alive and s.connection is not None}
        return live >= set(self.shards)

    async def close(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            with contextlib.suppress(ProcessLookupError):
                await self.process.wait()

    def kill(self) -> None:
        """SIGKILL, as the OOM killer sends it: the bot gets no chance to clean up.

        Its gateway sessions end with it: the emulator would keep them resumable and queue
        its shards' interactions for a RESUME that never comes, where Discord tells the user
        at once that the interaction failed (the harness raises ``BotNotConnected``) until a
        new process has connected those shards."""
        assert self.process is not None
        ended = self.sessions
        self.killed = True
        self.process.kill()
        for session in ended:
            session.alive = False

    def pids(self) -> list[int]:
        """The bot and every process under it (render and AI workers, the fork server)."""
        return _tree(self.process.pid) if self.process is not None else []

    def cpu_seconds(self) -> float:
        """CPU time (user + system) used so far by the bot's live process tree."""
        return sum(cpu_seconds(pid) for pid in self.pids())

    def own_cpu_seconds(self) -> float:
        """CPU time used so far by the bot's own process alone (its event loop and threads,
        not its workers)."""
        return cpu_seconds(self.process.pid) if self.process is not None else 0.0

    def peak_rss_mb(self) -> float:
        """Peak resident memory of the bot's process tree (VmHWM of each live process, summed)."""
        if self.process is None:
            return float("nan")
        return sum(_vm_hwm_kb(pid) for pid in self.pids()) / 1024


def shard_ids(text: str) -> list[int]:
    """``PYRAMID_SHARD_IDS`` as the bot reads it: ``0-3``, ``0,2,5`` or ``1``."""
    ids: set[int] = set()
    for part in text.split(","):
        first, _, last = part.strip().partition("-")
        try:
            ids.update(range(int(first), int(last or first) + 1))
        except ValueError:
            raise ValueError(f"PYRAMID_SHARD_IDS must list shards such as 0-3, 0,2,5 or 1, not {text!r}") from None
    return sorted(ids)


def alive(pid: int) -> bool:
    """The process exists and is not a zombie (a zombie has exited; only its parent's wait is missing)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        return "\nState:\tZ" not in Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False


def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            stat = (entry / "stat").read_text()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            kids.setdefault(ppid, []).append(int(entry.name))
    return kids


def _tree(root: int) -> list[int]:
    kids, out, todo = _children(), [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(kids.get(pid, []))
    return out


def _vm_hwm_kb(pid: int) -> int:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def tree_cpu_seconds(root: int) -> float:
    """CPU seconds of ``root``'s live process tree plus what its children that already ended used
    (PostgreSQL's server starts a process per connection and reaps them)."""
    reaped = 0.0
    with contextlib.suppress(OSError, IndexError, ValueError):
        fields = Path(f"/proc/{root}/stat").read_text().rsplit(")", 1)[1].split()
        reaped = (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")
    return reaped + sum(cpu_seconds(pid) for pid in _tree(root))


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of one process, from /proc/PID/stat."""
    with contextlib.suppress(OSError, IndexError, ValueError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return 0.0
