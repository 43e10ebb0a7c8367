"""Real bot databases for the operator tests: games with seats, moves and snapshots."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from bot.store import GameStore, SqliteDatabase


async def make_database(path: Path, games: int = 40, moves: int = 20) -> list[int]:
    """A database as the bot leaves it, with ``games`` games of ``moves`` moves each."""
    db = await SqliteDatabase.open(path)
    store = GameStore(db)
    ids: list[int] = []
    try:
        for n in range(games):
            game_id = await store.create_game(
                "pyrinoes", guild_id=1, channel_id=2, options={"target": 100}, seed=n, created_by=3
            )
            await store.add_seat(game_id, user_id=3, name="ana", limit=2)
            await store.set_status(game_id, "active", expect="lobby")
            for seq in range(1, moves + 1):
                await store.append_move(game_id, seq, 0, f"move {seq}", actor_id=3,
                                        snapshot={"board": ["tile"] * 40, "seq": seq})
            ids.append(game_id)
    finally:
        await db.close()
    return ids


def count_games(path: Path) -> int:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])


def run_bot(*args: str, env: dict[str, str], timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS`` as an operator runs it (``pyramid-bot`` is the same function)."""
    full = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **env}
    return subprocess.run([sys.executable, "-m", "bot", *args], env=full, capture_output=True, text=True,
                          timeout=timeout)


def damage_pages(database: Path, table: str = "snapshots") -> None:
    """Garbage over the rows of one of ``table``'s full leaf pages (found with SQLite's
    ``dbstat``): the schema and the other tables still read, wherever the schema put
    them; only SQLite's integrity check sees the damage."""
    with contextlib.closing(sqlite3.connect(database)) as conn:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        page = conn.execute("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf'"
                            " ORDER BY unused, pageno LIMIT 1", (table,)).fetchone()[0]
    with database.open("r+b") as f:
        f.seek(page * page_size - 1600)  # the end of the page, where its rows are
        f.write(b"\xff" * 1500)
