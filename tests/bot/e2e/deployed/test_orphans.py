"""Process hygiene: however the bot dies, its fork server and worker processes die with it.

SIGTERM is handled (see test_process.py); SIGKILL (the OOM killer, ``docker kill``,
a crashed supervisor) runs no Python at all, so the workers themselves must notice
that their parent is gone."""

from __future__ import annotations

import asyncio
import time

from emulator.harness import Harness
from emulator.server import Emulator
from tests.bot.e2e.deployed.helpers import new_thread
from tools.bot_process import BotProcess, alive

#: Generous: "gone" is what is asserted, not how fast (the watchdogs poll about twice a second).
DEADLINE_SECONDS = 15.0


async def test_sigkill_takes_the_whole_process_tree_down(
    emulator: Emulator, harness: Harness, processes: list[BotProcess]
) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    await harness.slash(ana, emulator.general, "pyramid new", game="continuous-pyramid", undo=False)
    thread = await new_thread(harness, emulator.general, 0)
    await harness.wait_for_message(thread, lambda m: bool(m.png_attachments()), timeout=120)
    bot = processes[-1]
    assert bot.process is not None
    family = bot.pids()
    # The bot, the fork server, a render worker and an AI worker (the deal was set up there).
    assert len(family) >= 4, f"expected the bot and its workers to be running: {family}"

    bot.kill()

    deadline = time.monotonic() + DEADLINE_SECONDS
    while time.monotonic() < deadline and any(alive(pid) for pid in family):
        await asyncio.sleep(0.1)
    survivors = {pid: _cmdline(pid) for pid in family if alive(pid)}
    assert not survivors, f"processes outlived the SIGKILLed bot by {DEADLINE_SECONDS}s: {survivors}"


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")[:200]
    except OSError:
        return "?"
