"""The render workers' jobs import no discord.py: a worker pays for the engine and the
renderer only (its warm-up loads them), not for a second of discord.py on its first job."""

from __future__ import annotations

import subprocess
import sys

from bot.workers import render_jobs, rendering


def test_the_jobs_module_imports_no_discord() -> None:
    code = "import sys, bot.workers.render_jobs; print(sorted(m for m in sys.modules if m.split('.')[0] == 'discord'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_renderer_hands_the_workers_those_jobs() -> None:
    for job in (rendering._board, rendering._hand, rendering._replay, rendering._replay_board):
        assert job.__module__ == render_jobs.__name__
    assert rendering.GameLog.__module__ == render_jobs.__name__  # pickled by reference into the worker
