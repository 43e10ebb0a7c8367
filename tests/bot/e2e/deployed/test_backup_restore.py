"""The operator's day, with the deployed bot (``python -m bot``) and its commands: an
automatic backup at start-up, ``pyramid-bot backup`` while games are played, a damaged
database refused with advice, ``pyramid-bot restore``, and the game going on."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from emulator.harness import Harness
from emulator.server import Emulator
from tests.bot.e2e.deployed.helpers import moves_in, new_thread, play_one_move


def operator(*args: str, database: Path) -> subprocess.CompletedProcess[str]:
    """``pyramid-bot ARGS`` as the operator types it, with the bot's settings (and no token)."""
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env.update({"PYRAMID_DATABASE": str(database), "PYRAMID_API_BASE_URL": "http://127.0.0.1:9"})
    return subprocess.run([sys.executable, "-m", "bot", *args], env=env, capture_output=True, text=True, timeout=120)


async def test_back_up_damage_restore_and_play_on(
    emulator: Emulator, harness: Harness, tmp_path: Path
) -> None:
    database = tmp_path / "bot.db"
    backups = tmp_path / "backups"  # the default: next to the database
    ana = await harness.add_user("ana")
    await harness.start_bot()

    # Automatic backups are on by default, and the first is taken at start-up.
    for _ in range(200):
        if any(backups.glob("bot-*.db")):
            break
        await asyncio.sleep(0.05)
    assert [p.name.startswith("bot-") for p in backups.iterdir()] == [True], "one automatic backup at start-up"

    # undo on: even a deal stuck after its first tile still takes a move (undo)
    res = await harness.slash(ana, emulator.general, "pyramid new", game="continuous-pyramid")
    assert "started" in res.text
    thread = await new_thread(harness, emulator.general, 0)
    await harness.wait_for_message(thread, lambda m: bool(m.png_attachments()), timeout=120)
    await play_one_move(harness, ana, thread)
    assert moves_in(database) == 1

    # An online backup while the bot runs.
    saved = tmp_path / "saved"
    saved.mkdir()
    done = await asyncio.to_thread(operator, "backup", str(saved), database=database)
    assert done.returncode == 0, done.stderr
    (backup,) = saved.iterdir()
    assert "1 games" in done.stdout and str(backup) in done.stdout
    assert moves_in(backup) == 1

    # Restoring under a running bot is refused, and changes nothing.
    refused = await asyncio.to_thread(operator, "restore", str(backup), database=database)
    assert refused.returncode == 1 and "is running" in refused.stderr, refused.stderr
    assert moves_in(database) == 1

    await harness.stop_bot()
    for companion in (database, Path(f"{database}-wal"), Path(f"{database}-shm")):
        companion.unlink(missing_ok=True)
    database.write_bytes(b"\0" * 4096 + b"a disk went bad" * 1000)

    # The bot refuses the damaged file and says how to restore.
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYRAMID_")}
    env.update({"DISCORD_TOKEN": "operator-test-token", "PYRAMID_DATABASE": str(database), "PYRAMID_API_BASE_URL": "http://127.0.0.1:9"})
    start = await asyncio.to_thread(subprocess.run, [sys.executable, "-m", "bot"], env=env, capture_output=True,
                                    text=True, timeout=60)
    assert start.returncode == 5 and "pyramid-bot restore" in start.stderr, start.stderr

    restored = await asyncio.to_thread(operator, "restore", str(backup), database=database)
    assert restored.returncode == 0, restored.stderr
    (aside,) = tmp_path.glob("bot.db.replaced-*")
    assert aside.read_bytes().startswith(b"\0" * 4096), "the damaged file is kept aside"
    assert moves_in(database) == 1

    await harness.start_bot()
    await play_one_move(harness, ana, thread)  # the same game, in the same thread, goes on
    assert moves_in(database) == 2
