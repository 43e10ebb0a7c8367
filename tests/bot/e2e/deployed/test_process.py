"""The bot as deployed: ``python -m bot`` configured by environment variables, in its
own process with its render and AI workers, stopped by a signal (``docker stop``)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from emulator.harness import Harness
from emulator.server import Emulator
from tests.bot.e2e.deployed.helpers import new_thread
from tools.bot_process import BotProcess, alive


async def test_the_deployed_bot_plays_and_stops_cleanly_on_sigterm(
    emulator: Emulator, harness: Harness, processes: list[BotProcess]
) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    res = await harness.slash(ana, emulator.general, "pyramid new", game="continuous-pyramid", undo=False)
    assert "started" in res.text
    thread = await new_thread(harness, emulator.general, 0)
    board = await harness.wait_for_message(thread, lambda m: bool(m.png_attachments()), timeout=120)
    assert "▶ Your move" in board.button_labels
    bot = processes[-1]
    family = bot.pids()
    assert len(family) >= 3, f"the bot, its fork server and a render worker should be running: {family}"

    await harness.stop_bot()  # SIGTERM, as docker stop sends

    assert bot.process is not None and bot.process.returncode == 0
    for _ in range(200):
        if not any(alive(pid) for pid in family):
            break
        await asyncio.sleep(0.05)
    assert not [pid for pid in family if alive(pid)], "no worker process may outlive the bot"

    await harness.start_bot()  # the same database, a new process: the game is still there
    res = await harness.slash(ana, emulator.general, "pyramid status")
    assert "Continuous Pyramid" in res.text


def test_an_unreachable_discord_is_a_sentence_not_a_traceback(tmp_path: Path) -> None:
    env = {**os.environ, "DISCORD_TOKEN": "x", "PYRAMID_DATABASE": str(tmp_path / "bot.db"),
           "PYRAMID_API_BASE_URL": "http://127.0.0.1:9"}  # the discard port: nothing listens
    done = subprocess.run([sys.executable, "-m", "bot"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 4
    assert "Cannot reach Discord" in done.stderr and "Traceback" not in done.stderr
