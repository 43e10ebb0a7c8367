"""Running ``pyramid-bot play`` for real: as its own process with typed input on a
pipe, or on a pseudo-terminal (pty) with keys pressed one line at a time, as a
person at a terminal would (line editing, history and Ctrl-C need a terminal)."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from tests.paths import REPO

PROMPT = b"> "


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG", "NO_COLOR")}
    return {**env, "LANG": "C.UTF-8", "TERM": "xterm", "PYTHONPATH": str(REPO), **extra}


@dataclass(frozen=True)
class Ran:
    code: int
    out: str
    err: str


def run(args: list[str], typed: str = "", cwd: Path | None = None, **env: str) -> Ran:
    """``python -m bot play ARGS`` with ``typed`` on its stdin (then end of input)."""
    done = subprocess.run([sys.executable, "-m", "bot", "play", *args], input=typed, capture_output=True, text=True,
                          timeout=300, env=environment(**env), cwd=cwd or REPO)
    return Ran(done.returncode, done.stdout, done.stderr)


QUIT_KEYS = (b"\x03", b"\x04")
QUIET_BEFORE_AGAIN = 5.0


def on_terminal(args: list[str], keys: list[bytes], timeout: float = 120.0) -> Ran:
    """``python -m bot play ARGS`` on a pty: each of ``keys`` is pressed once the game
    shows its prompt again; returns the exit code and everything the terminal showed."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the pty is its controlling terminal (Ctrl-C becomes SIGINT)
        os.chdir(REPO)
        os.execve(sys.executable, [sys.executable, "-m", "bot", "play", *args], environment())
    seen = b""
    deadline = time.monotonic() + timeout
    pending = list(keys)
    prompts = 0
    last_key, heard = b"", time.monotonic()
    retries = 3
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:  # the child closed the terminal: it has ended
                    break
                if not chunk:
                    break
                seen += chunk
                heard = time.monotonic()
            if pending and seen.count(PROMPT) > prompts:
                prompts = seen.count(PROMPT)
                last_key = pending.pop(0)
                os.write(fd, last_key)
                heard = time.monotonic()
            elif (not pending and last_key in QUIT_KEYS and retries
                  and time.monotonic() - heard > QUIET_BEFORE_AGAIN):
                # A key typed in the instant before readline takes the terminal is flushed with
                # what was typed ahead (a busy machine widens that instant): like a person, press
                # Ctrl-C or Ctrl-D again when nothing happened. Quitting twice is still quitting.
                retries -= 1
                os.write(fd, last_key)
                heard = time.monotonic()
        else:  # out of time: stop it, and say so
            os.kill(pid, signal.SIGKILL)
            seen += b"\n[killed: no end within the timeout]"
        _, status = os.waitpid(pid, 0)
    finally:
        os.close(fd)
    return Ran(os.waitstatus_to_exitcode(status), seen.decode("utf-8", errors="replace"), "")
