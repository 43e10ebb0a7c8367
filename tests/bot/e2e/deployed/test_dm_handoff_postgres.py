"""A move made from a hand DM is announced by the process that runs its server's shard (issue #42).

Discord sends DMs and clicks on DM messages' buttons to shard 0 only, so the click on a hand
DM's chooser reaches process A (shard 0) even when the game is in a server of shard 1, run by
process B. A answers the click and plays the move (the chooser's refusals need the game); the
announcement, the heavy part (the board drawn in a render worker, posted, the hand DMs drawn
and sent), is B's: its outbox rows must be marked done by B, and the board posted once.

With B SIGKILLed, the next DM move's announcement still comes, once, from A, after the
fallback bound (B's shard lease expires, ``bot.posting.handoff.SHARD_TTL``).

Which process did the work is read from the database (``outbox.done_by``, the lease name
``host:pid:random`` of the process that marked the row done) and set against the processes'
pids; what players saw is read from the emulator. Run with ``pytest -m slow``.
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import pytest

from emulator.harness import Harness
from emulator.model import Message, User
from emulator.server import Emulator
from engine.core import get_game
from tests.bot.e2e.deployed.sharded import Posts, ShardProcess, SharedDb, Table, open_game, position
from tools.bench.load import forward_choices

pytestmark = [pytest.mark.slow, pytest.mark.postgres]


@pytest.fixture
def emulator_options() -> dict[str, Any]:
    return {"shard_count": 2}


@pytest.fixture
def harness_options() -> dict[str, Any]:
    return {"ready_timeout": 60.0, "deferral_grace": 0.3, "settle_timeout": 60.0}


def hand_dm(harness: Harness, user: User, game: int, version: int) -> Message | None:
    """``user``'s hand DM of ``game`` after ``version``, when it offers the move chooser."""
    said = f"game #{game} · your hand after move {version}"
    for message in reversed(harness.dm(user)):
        if said in message.text:
            return message if forward_choices(message) else None
    return None


async def move_from_dm(harness: Harness, db: SharedDb, table: Table, rng: random.Random) -> int:
    """The player to act makes a move from their hand DM's chooser; returns the move's number."""
    version, state, _status = await position(db, table)
    seat = get_game(table.kind).to_act(state)
    assert seat is not None
    user = table.users[seat]
    deadline = time.monotonic() + 60
    message = hand_dm(harness, user, table.game, version)
    while message is None:
        assert time.monotonic() < deadline, f"no hand DM with the chooser after move {version}"
        await harness.emulator.wait_changed(0.1)
        message = hand_dm(harness, user, table.game, version)
    for _ in range(20):  # the chooser's steps, one click each, until the move is played
        choices = forward_choices(message)
        assert choices, f"the chooser offered nothing: {message.text}"
        # straight to a move where the chooser offers one; pages only when nothing else is offered
        ranked = ([c for c in choices if ":move:" in c[1]] or [c for c in choices if ":page:" not in c[1]]
                  or choices)
        kind, custom_id, value = rng.choice(ranked)
        if kind == "select":
            result = await harness.select(user, message, custom_id, [value or ""], settle=False, check=False)
        else:
            result = await harness.click(user, message, custom_id=custom_id, settle=False, check=False)
        # the click's answer: the chooser's next step, or the move (then the move log grows)
        while True:
            assert time.monotonic() < deadline, "the chooser's click was not answered"
            if (await position(db, table))[0] > version:
                return version + 1
            shown = result.messages[-1] if result.messages else result.message
            if shown is not None:
                assert "❌" not in shown.text, shown.text
                if forward_choices(shown) and forward_choices(shown) != choices:  # the next step
                    message = shown
                    break
            await asyncio.sleep(0.05)
    raise AssertionError("twenty clicks in the chooser made no move")


async def wait_announced(db: SharedDb, game: int, version: int, limit: float) -> list[tuple[str, str]]:
    """(kind, done_by) of the move's outbox rows, once all are done."""
    deadline = time.monotonic() + limit
    while True:
        rows = await db.rows("SELECT kind, done_by, done_at FROM outbox WHERE game_id = $1 AND version = $2"
                             " AND kind IN ('board', 'hand')", game, version)
        if rows and all(r[2] is not None for r in rows):
            return [(str(r[0]), str(r[1])) for r in rows]
        assert time.monotonic() < deadline, f"move {version} of game {game} not announced: {rows}"
        await asyncio.sleep(0.1)


def pid_of(done_by: str) -> int:
    """The pid in a lease name (``host:pid:random``)."""
    return int(done_by.rsplit(":", 2)[1])


async def test_a_dm_move_is_announced_by_its_servers_process(
    emulator: Emulator, harness: Harness, postgres_url: str, tmp_path: Path
) -> None:
    rng = random.Random(20261129)
    guild = await harness.add_guild("shard 1 server", shard=1)
    people = [await harness.add_user(f"p{i}", guild=guild) for i in range(2)]
    env = {"PYRAMID_SHARD_COUNT": "2", "PYRAMID_LOG_LEVEL": "WARNING"}
    bots = [ShardProcess(name, emulator, postgres_url, {**env, "PYRAMID_SHARD_IDS": str(k)}, tmp_path / f"{name}.log")
            for k, name in enumerate("AB")]
    db = await SharedDb.open(postgres_url)
    try:
        await asyncio.gather(*(bot.start() for bot in bots))
        a, b = bots
        assert a.bot is not None and b.bot is not None
        a_pid, b_pid = a.bot.pids()[0], b.bot.pids()[0]
        table = await open_game(harness, db, harness.channel("general", guild=guild), 1, people, ai=None,
                                turn_limit=16)

        # B alive: A answers the DM click and plays the move, B announces it.
        first = await move_from_dm(harness, db, table, rng)
        rows = await wait_announced(db, table.game, first, limit=30)
        assert {pid_of(by) for _kind, by in rows} == {b_pid}, (
            f"move {first}'s board and hands were not all delivered by B (pid {b_pid}; A is {a_pid}): {rows}")
        await harness.wait_for_message(table.thread, lambda m: bool(m.png_attachments())
                                       and f"· move {first}" in m.text, timeout=30)

        # B killed: A still answers the next DM move, and announces it itself once B's shard lease runs out.
        await b.kill()
        second = await move_from_dm(harness, db, table, rng)
        rows = await wait_announced(db, table.game, second, limit=60)
        assert {pid_of(by) for _kind, by in rows} == {a_pid}, f"move {second} after B's death: {rows}"
        await harness.wait_for_message(table.thread, lambda m: bool(m.png_attachments())
                                       and f"· move {second}" in m.text, timeout=30)
        await asyncio.sleep(2.0)  # time for a second post, were there one
        posts = Posts.of(emulator)
        posts.check()  # one board per (game, move), one hand DM per (game, move, player)
        assert posts.boards[(table.game, first)] == 1 and posts.boards[(table.game, second)] == 1
        left = await db.rows("SELECT kind, version FROM outbox WHERE game_id = $1 AND done_at IS NULL", table.game)
        assert not left, f"undelivered rows: {left}"
    finally:
        await asyncio.gather(*(bot.stop() for bot in bots), return_exceptions=True)
        await db.close()
