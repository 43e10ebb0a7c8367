"""The production entry point, ``python -m bot``, in a child process against the emulator.

Tests of the real thing as deployed (environment variables in, signals to stop) and
the load benchmark use it; everything else runs the client in-process for speed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Mapping
from pathlib import Path

from emulator.server import Emulator


class BotProcess:
    """``python -m bot`` in a child process, configured the way an admin would (environment variables)."""

    def __init__(self, api_base_url: str, database: Path, emulator: Emulator, workers: int,
                 env: Mapping[str, str] | None = None, log_path: Path | None = None) -> None:
        self.api_base_url = api_base_url
        self.database = database
        self.emulator = emulator
        self.workers = workers
        self.extra_env = dict(env or {})  # more PYRAMID_* settings, as an admin would add them
        self.log_path = log_path  # where the bot's output goes (inherited when None)
        self.killed = False
        self.process: asyncio.subprocess.Process | None = None
        self._spawned = asyncio.Event()

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
        }
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
        """Ready once the gateway has a live connection from it: commands are synced before
        it connects, and discord.py handles interactions before its (delayed) READY event."""
        await self._spawned.wait()
        while not self.emulator.gateway.connected_sessions:
            if self.process is not None and self.process.returncode is not None:
                raise RuntimeError(f"the bot exited with code {self.process.returncode} before connecting")
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)

    async def close(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            with contextlib.suppress(ProcessLookupError):
                await self.process.wait()

    def kill(self) -> None:
        """SIGKILL, as the OOM killer sends it: the bot gets no chance to clean up."""
        assert self.process is not None
        self.killed = True
        self.process.kill()

    def pids(self) -> list[int]:
        """The bot and every process under it (render and AI workers, the fork server)."""
        return _tree(self.process.pid) if self.process is not None else []

    def cpu_seconds(self) -> float:
        """CPU time (user + system) used so far by the bot's live process tree."""
        return sum(cpu_seconds(pid) for pid in self.pids())

    def peak_rss_mb(self) -> float:
        """Peak resident memory of the bot's process tree (VmHWM of each live process, summed)."""
        if self.process is None:
            return float("nan")
        return sum(_vm_hwm_kb(pid) for pid in self.pids()) / 1024


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


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of one process, from /proc/PID/stat."""
    with contextlib.suppress(OSError, IndexError, ValueError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return 0.0
