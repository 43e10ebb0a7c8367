"""A full disk through the emulator (#26): SQLite really answers SQLITE_FULL.

The bot runs with ``PYRAMID_SQLITE_MAX_MB`` (SQLite's ``max_page_count`` on its
connection), and another program fills the rest of that space in the same file, as
something else filling a disk would. Then the bot's writes need pages it may not have:

- a move, and a command that is no move (``/pyramid new``), are each answered with
  the storage-full sentence (what happened, that nothing was changed, when to try
  again), not with "Something went wrong";
- nothing is half-applied: no move, no board, no game;
- nothing is logged with a traceback; a full disk is logged in one line (the operator
  must act), and no other error is;
- once the space is freed again, the same move and the same command work.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.interactions.failures import FAULT_TEXTS
from bot.store.faults import Fault
from emulator.harness import Harness, InteractionResult
from emulator.model import Channel, User
from tests.bot.e2e.driver import latest_game_id, session_of

#: The bot's cap (MiB): a fresh database is about 0.3 MiB.
CAP_MB = 1
SQLITE_FULL = 13
FULL = FAULT_TEXTS[Fault.FULL]


class Filler:
    """Another program's data in the bot's file, up to the same cap."""

    def __init__(self, path: Path, pages: int) -> None:
        self.conn = sqlite3.connect(path, timeout=60, isolation_level=None)
        self.conn.execute(f"PRAGMA max_page_count = {pages}")
        self.conn.execute("CREATE TABLE IF NOT EXISTS filler (x BLOB)")

    def fill(self) -> int:
        """Rows of shrinking size until not even one byte more fits; the pages in use."""
        for size in (4000, 400, 40, 1):
            while True:
                try:
                    self.conn.execute("INSERT INTO filler VALUES (randomblob(?))", (size,))
                except sqlite3.OperationalError as exc:
                    assert exc.sqlite_errorcode == SQLITE_FULL, exc
                    break
        assert self.conn.execute("PRAGMA freelist_count").fetchone()[0] == 0
        return int(self.conn.execute("PRAGMA page_count").fetchone()[0])

    def free(self) -> None:
        self.conn.execute("DELETE FROM filler")

    def close(self) -> None:
        self.conn.close()


def full_refusal(res: InteractionResult, what: str) -> None:
    assert res.ephemeral and res.text == FULL, (what, res.text)


async def move_of(harness: Harness, user: User, thread: Channel, game_id: int) -> str:
    choices = [c["value"] for c in await harness.autocomplete(user, thread, "pyramid play", "move", "", game=game_id)]
    plays = [c for c in choices if c.split()[0] not in ("undo", "resign")]
    assert plays, choices
    return str(plays[0])


@pytest.fixture(autouse=True)
def _capped(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv("PYRAMID_SQLITE_MAX_MB", str(CAP_MB))
    caplog.set_level(logging.INFO)


async def test_a_full_disk_refuses_a_move_and_a_command_changes_nothing_and_passes(
    emulator: Any, harness: Harness, database: str, caplog: pytest.LogCaptureFixture
) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    general = emulator.general
    await harness.slash(ana, general, "pyramid new", game="continuous-pyramid")  # a solo game starts at once
    game_id = await latest_game_id(harness)
    assert (await session_of(harness, game_id)).record.status == "active"
    thread = harness.threads(general)[-1]
    store = harness.bot.services.store
    assert "25" in (await harness.slash(ana, general, "pyramid-admin settings", max_open_games=25)).text
    filler = Filler(Path(database), CAP_MB * 1024 * 1024 // 4096)
    try:
        assert filler.fill() == CAP_MB * 1024 * 1024 // 4096

        # The bot plays on in what room its own pages still have, until a move needs a page more.
        for _ in range(200):
            move = await move_of(harness, ana, thread, game_id)
            before = await session_of(harness, game_id)
            boards = len(harness.messages(thread))
            res = await harness.slash(ana, thread, "pyramid play", move=move, game=game_id)
            if res.text != FULL:
                assert "✅" in res.text, res.text
                continue
            await harness.settle()
            after = await session_of(harness, game_id)
            assert (after.version, after.record.revision) == (before.version, before.record.revision)
            assert len(await store.moves(game_id)) == before.version
            assert len(harness.messages(thread)) == boards, "no board of a move that was not made"
            break
        else:
            raise AssertionError("the disk never filled up")

        full_refusal(await harness.slash(ana, thread, "pyramid play", move=move, game=game_id), "the move again")

        # A command that is no move: new games fit in what room the bot's other tables still have, until one
        # needs a page more.
        for _ in range(20):
            games = await store.all_games()
            threads = len(harness.threads(general))
            res = await harness.slash(ana, general, "pyramid new", game="continuous-pyramid")
            if res.text != FULL:
                assert "started" in res.text, res.text
                continue
            full_refusal(res, "/pyramid new")
            await harness.settle()
            assert await store.all_games() == games, "no game half-made"
            assert len(harness.threads(general)) == threads, "no thread for a game that was not made"
            break
        else:
            raise AssertionError("the disk never filled up")

        # Space again: the same move, and the same command, work.
        filler.free()
        assert "✅" in (await harness.slash(ana, thread, "pyramid play", move=move, game=game_id)).text
        await harness.settle()
        assert (await session_of(harness, game_id)).version == before.version + 1
        assert f"move {before.version + 1}" in harness.messages(thread)[-1].text
        assert "started" in (await harness.slash(ana, general, "pyramid new", game="continuous-pyramid")).text
        assert len(await store.all_games()) == len(games) + 1
        # Games that started while their first board could not be queued get it now (the worker's next look).
        harness.bot.client.host.delivery.kick()
        await harness.settle()
        assert await harness.bot.services.outbox.games_needing_a_board() == []
        for record in await store.all_games():
            assert record.thread_id is not None
            shown = [m.text for m in harness.messages(harness.world.channels[record.thread_id])]
            assert any(f"game #{record.id} · move" in text for text in shown), (record.id, shown[-3:])
    finally:
        filler.close()
    tracebacks = [r for r in caplog.records if r.levelno >= logging.ERROR and r.exc_info]
    assert tracebacks == [], [r.getMessage() for r in tracebacks]
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors and all("storage full" in e for e in errors), errors


async def test_a_start_whose_board_could_not_be_queued_is_announced_once_storage_answers(
    emulator: Any, harness: Harness, database: str, caplog: pytest.LogCaptureFixture
) -> None:
    """``Delivery.announce`` after a start queues the first board; when storage fails it
    right then (a write lock held past SQLite's busy timeout, here) the start stands, the
    fault is logged in one line like every storage fault (no traceback), and the worker
    queues and posts that board once storage answers again."""
    ana, ben = await harness.add_user("ana"), await harness.add_user("ben")
    await harness.start_bot()
    services = harness.bot.services
    general = emulator.general
    game_id = await services.store.open_game("flaming-pyramids", guild_id=general.guild_id, channel_id=general.id,
                                             options={}, seed=5, created_by=ana.id)
    await services.store.add_seat(game_id, user_id=ben.id, limit=2)
    await services.sessions.start(game_id)
    holder = sqlite3.connect(database, timeout=0, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        assert not await harness.bot.client.host.delivery.announce(game_id)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    await harness.settle()
    assert await services.outbox.games_needing_a_board() == []
    assert [m for m in harness.messages(general) if f"#{game_id}" in m.text and "move 0" in m.text], \
        "the first board was posted"
    tracebacks = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert tracebacks == [], [r.getMessage() for r in tracebacks]
    assert [r for r in caplog.records if r.levelno == logging.WARNING and "storage busy" in r.getMessage()]
