"""Playing and looking, the way the deployed-bot tests need it (the bot is in another
process, so its database is read as a file)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

from emulator.harness import Harness
from emulator.model import Channel, User


async def new_thread(harness: Harness, channel: Channel, before: int, timeout: float = 120.0) -> Channel:
    """The game's thread, once the bot process has opened it. A bot in another process is invisible to the
    harness's idle check between answering the click and opening the thread (its set-up runs meanwhile), so this
    waits for the thread itself; on a busy machine that gap can outlast any fixed grace."""
    loop = asyncio.get_running_loop()
    limit = loop.time() + timeout
    while len(threads := harness.threads(channel)) <= before:
        if loop.time() > limit:
            raise TimeoutError(f"no game thread opened in {channel!r} within {timeout:.0f}s of Start")
        await harness.emu.wait_changed(0.05)
    return threads[-1]


def moves_in(database: Path) -> int:
    with sqlite3.connect(database) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM moves").fetchone()[0])


async def play_one_move(harness: Harness, user: User, thread: Channel) -> str:
    # A bot just started may answer its first autocomplete empty while its worker pool
    # warms up (a person would simply type again): ask a few times before judging.
    choices: list[Any] = []
    for _ in range(20):
        choices = await harness.autocomplete(user, thread, "pyramid play", "move", "")
        if choices:
            break
        await asyncio.sleep(0.25)
    assert choices, "the player to act is offered legal moves"
    move = min((str(c["value"]) for c in choices), key=_keeps_the_game_going)
    res = await harness.slash(user, thread, "pyramid play", move=move)
    assert "✅" in res.text, res.text
    return move


def _keeps_the_game_going(move: str) -> int:
    """Continuous Pyramid: a first tile that only winds, seasons or the same rank fit can
    leave a random deal stuck at once (a lost game takes no more moves). Dragons fit
    everything and middle ranks fit two neighbours a suit, so try those first."""
    parts = move.split()
    tile = parts[1] if len(parts) > 1 else ""
    if tile.startswith("D"):
        return 0
    if len(tile) == 2 and tile[0] in "BCO" and tile[1] in "2345678":
        return 1
    return 2
