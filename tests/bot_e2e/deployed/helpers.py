"""Playing and looking, the way the deployed-bot tests need it (the bot is in another
process, so its database is read as a file)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.emulator.harness import Harness
from tests.emulator.model import Channel, User


def moves_in(database: Path) -> int:
    with sqlite3.connect(database) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM moves").fetchone()[0])


async def play_one_move(harness: Harness, user: User, thread: Channel) -> str:
    choices = await harness.autocomplete(user, thread, "pyramid play", "move", "")
    assert choices, "the player to act is offered legal moves"
    move = str(choices[0]["value"])
    res = await harness.slash(user, thread, "pyramid play", move=move)
    assert "✅" in res.text, res.text
    return move
