"""One database, one bot process: ``python -m bot`` started a second time on the same
SQLite file refuses at once, with a sentence and its own exit code, while the first
goes on serving; and a first bot killed by SIGKILL leaves nothing that stops the next."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from bot.ops.exit_codes import ExitCode
from emulator.harness import Harness
from emulator.server import Emulator
from tests.bot.e2e.deployed.helpers import moves_in, new_thread, play_one_move
from tools.bot_process import BotProcess


async def test_a_second_bot_on_the_same_database_refuses_and_a_killed_one_leaves_no_lock(
    emulator: Emulator, harness: Harness, processes: list[BotProcess], tmp_path: Path
) -> None:
    database = tmp_path / "bot.db"
    ana = await harness.add_user("ana")
    await harness.start_bot()
    first = processes[-1]
    assert first.process is not None
    res = await harness.slash(ana, emulator.general, "pyramid new", game="continuous-pyramid")  # undo on: never stuck
    assert "started" in res.text
    thread = await new_thread(harness, emulator.general, 0)
    await harness.wait_for_message(thread, lambda m: bool(m.png_attachments()), timeout=120)

    # The same deployment started twice: same settings, same file.
    output = tmp_path / "second.log"
    second = BotProcess(emulator.base_url, database, emulator, workers=1, log_path=output)
    began = time.monotonic()
    try:
        with pytest.raises(RuntimeError, match=f"exited with code {int(ExitCode.ALREADY_RUNNING)}$"):
            await asyncio.wait_for(second.start(emulator.token), timeout=60)
    finally:
        await second.close()
    assert time.monotonic() - began < 15, "the second bot stops at once, it does not wait for the first"
    said = output.read_text()
    assert (f"Another Pyramid Bot is already running on the database {database} "
            f"(process {first.process.pid} on host ") in said, said
    assert "Traceback" not in said, said
    assert len(emulator.gateway.connected_sessions) == 1, "the second bot never reached Discord"

    # The first bot never noticed: it still plays.
    await play_one_move(harness, ana, thread)
    assert moves_in(database) == 1

    # SIGKILL (the OOM killer): no Python runs, and still the next bot starts on the same file.
    first.kill()
    await harness.stop_bot()
    await harness.start_bot()
    assert processes[-1] is not first
    await play_one_move(harness, ana, thread)  # the same game goes on
    assert moves_in(database) == 2
