"""Deployed bot processes killed while people play (``test_sigkill.py``: one process on
SQLite; ``test_two_shards_postgres.py``: one per shard on one PostgreSQL database): what
these tests need to run them, play through them and look at what they did.

The bot processes are outside this one, so their database is read as an operator
would (a connection of our own), their output is read from their log files, and what
players saw is read from the emulator.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import sqlite3
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import asyncpg

from emulator.harness import Harness, InteractionResult
from emulator.interactions import BotNotConnected
from emulator.model import Channel, Message, User
from emulator.server import Emulator
from engine.core import get_game
from tests.bot.e2e.deployed.helpers import new_thread
from tools.bot_process import BotProcess

ANSWERS = ("✅", "❌", "⌛", "Something went wrong")
REMINDER = re.compile(r"⏰ .*it's your turn in game #(\d+)")
#: What ``bot.posting.ai_turns`` logs when an AI's move is refused after its search: the board
#: moved on meanwhile, which with nobody resigning means the same AI turn was played twice.
AI_REFUSED = re.compile(r"AI move .* in game (\d+) refused: (.*)")
#: A log line at ERROR or worse, as discord.py's handler writes it (``2026-11-24 07:26:37 ERROR    bot…``).
ERROR_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d (ERROR|CRITICAL)\b")
#: discord.py colours its log lines inside Docker even when they go to a file.
COLOUR = re.compile(r"\x1b\[[0-9;]*m")
BOARD = re.compile(r"game #(\d+) · move (\d+)")
HAND = re.compile(r"game #(\d+) · your hand after move (\d+)")
#: A placeholder as PostgreSQL writes it; SQLite's is ``?``.
PLACEHOLDER = re.compile(r"\$\d+")


class Db(Protocol):
    """Reads of the bots' database from outside, as an operator would take them. The SQL
    is PostgreSQL's (``$1`` placeholders, each used once and in order)."""

    async def rows(self, sql: str, *args: Any) -> list[tuple[Any, ...]]: ...

    async def value(self, sql: str, *args: Any) -> Any: ...


class FileDb:
    """A :class:`Db` over one bot process's SQLite file, opened read-only for each look."""

    def __init__(self, path: Path) -> None:
        self.path = path

    async def rows(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        with contextlib.closing(sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=10)) as conn:
            return list(conn.execute(PLACEHOLDER.sub("?", sql), args).fetchall())

    async def value(self, sql: str, *args: Any) -> Any:
        rows = await self.rows(sql, *args)
        return rows[0][0] if rows else None


class SharedDb:
    """A :class:`Db` over the bots' PostgreSQL database."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    @classmethod
    async def open(cls, url: str) -> SharedDb:
        return cls(await asyncpg.create_pool(url, min_size=1, max_size=4))

    async def close(self) -> None:
        await self.pool.close()

    async def rows(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in await self.pool.fetch(sql, *args)]

    async def value(self, sql: str, *args: Any) -> Any:
        return await self.pool.fetchval(sql, *args)

    async def move_counts(self) -> dict[int, int]:
        return {int(g): int(n) for g, n in await self.rows("SELECT game_id, COUNT(*) FROM moves GROUP BY game_id")}


@dataclass(frozen=True)
class Table:
    """A game being played: where, by whom, and how to rebuild it from the log."""

    game: int
    shard: int
    kind: str
    players: int
    options: dict[str, Any]
    seed: int
    users: dict[int, User]  # seat -> user (AI seats absent)
    thread: Channel
    sleepy: bool = False  # its players wait to be reminded before moving (``test_two_shards_postgres.py``)


async def position(db: Db, table: Table) -> tuple[int, Any, str]:
    """(version, state, status) of a game, rebuilt by the engine from the log in the database."""
    moves = await db.rows("SELECT seat, move FROM moves WHERE game_id = $1 ORDER BY seq", table.game)
    status = await db.value("SELECT status FROM games WHERE id = $1", table.game)
    game = get_game(table.kind)
    return len(moves), game.replay(table.players, table.options, table.seed, [(s, m) for s, m in moves]), status


async def open_game(harness: Harness, db: Db, channel: Channel, shard: int, users: list[User], *,
                    ai: str | None, sleepy: bool = False, **options: Any) -> Table:
    """A Flaming Pyramids game opened, joined and started in ``channel`` through ``/pyramid new``."""
    lobby = (await harness.slash(users[0], channel, "pyramid new", game="flaming-pyramids", **options)).message
    assert lobby is not None, "/pyramid new answers with the lobby"
    for user in users[1:]:
        await harness.click(user, lobby, label="Join")
    if ai is not None:
        await harness.select(users[0], lobby, None, [ai])
    before = len(harness.threads(channel))
    await harness.click(users[0], lobby, label="Start")
    thread = await new_thread(harness, channel, before)
    await harness.wait_for_message(thread, lambda m: bool(m.png_attachments()), timeout=120)
    game_id = int(await db.value("SELECT MAX(id) FROM games WHERE guild_id = $1", channel.guild_id))
    kind, opts, seed = (await db.rows("SELECT kind, options, seed FROM games WHERE id = $1", game_id))[0]
    seats = await db.rows("SELECT seat, user_id FROM seats WHERE game_id = $1 ORDER BY seat", game_id)
    by_id = {u.id: u for u in users}
    return Table(game_id, shard, kind, len(seats), json.loads(opts), int(seed),
                 {seat: by_id[uid] for seat, uid in seats if uid is not None}, thread, sleepy)


@dataclass(frozen=True)
class Attempt:
    game: int
    version: int  # the move number the player saw; the move becomes version + 1
    seat: int
    move: str


@dataclass
class Tally:
    attempts: list[Attempt] = field(default_factory=list)
    acked: list[Attempt] = field(default_factory=list)
    #: per shard, bumped at every kill of its process: an attempt in flight then is unresolved, not failed
    generation: Counter[int] = field(default_factory=Counter)


async def wait_answer(result: InteractionResult, tally: Tally, shard: int, generation: int,
                      limit: float = 60.0) -> str | None:
    """The final answer to a move, or None when its shard's process was killed before giving one."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        for message in result.messages:
            if any(mark in message.text for mark in ANSWERS):
                return message.text
        if tally.generation[shard] != generation:
            return None
        await asyncio.sleep(0.02)
    raise AssertionError(f"the live bot of shard {shard} never answered a move")


#: Asked before a player's move at a version: True when they waited instead (the position is then read again).
BeforeMove = Callable[[Table, int], Awaitable[bool]]


async def play(harness: Harness, db: Db, table: Table, up: asyncio.Event, tally: Tally, rng: random.Random, *,
               stop: asyncio.Event | None = None, before_move: BeforeMove | None = None) -> None:
    """Move after move in one game, as its players would: read the board (here, the log), pick a legal
    move, send it, wait for the answer (or for the process of the game's shard to die). ``up`` is clear
    while that process is down; the game ends, or ``stop`` is set."""
    while stop is None or not stop.is_set():
        await up.wait()
        version, state, status = await position(db, table)
        game = get_game(table.kind)
        seat = game.to_act(state)
        if status != "active" or seat is None:
            return
        user = table.users.get(seat)
        if user is None:  # the AI's turn: it moves by itself
            await asyncio.sleep(0.05)
            continue
        if before_move is not None and await before_move(table, version):
            continue
        attempt = Attempt(table.game, version, seat, rng.choice(game.legal_moves(state)))
        generation = tally.generation[table.shard]
        try:
            result = await harness.slash(user, table.thread, "pyramid play", move=attempt.move, game=table.game,
                                         settle=False, check=False)
        except BotNotConnected:  # killed between our look and our move
            await asyncio.sleep(0.05)
            continue
        tally.attempts.append(attempt)
        answer = await wait_answer(result, tally, table.shard, generation) if result.answered else None
        if answer is not None:
            assert "✅" in answer, f"a legal move in turn was refused in game {table.game}: {answer}"
            tally.acked.append(attempt)


async def wait_delivered(db: Db, limit: float = 90.0) -> str:
    """Wait until every outbox row is done; returns what is left undelivered ("" when nothing)."""
    deadline = time.monotonic() + limit
    while True:
        left = await db.rows("SELECT game_id, version, kind, seat, blocked, last_error FROM outbox"
                             " WHERE done_at IS NULL")
        if not left:
            return ""
        if time.monotonic() > deadline:
            return f"undelivered outbox rows after the run: {left}"
        await asyncio.sleep(0.1)


@dataclass(frozen=True)
class MoveLog:
    """The move log, set against what players sent and were told."""

    rows: list[tuple[Any, ...]]  # (game_id, seq, seat, move, actor_id), game by game
    lost: list[Attempt]  # acknowledged, yet missing from the log
    doubled: list[tuple[Any, ...]]  # human moves in the log that no player sent at that point

    @property
    def ai_moves(self) -> int:
        return sum(1 for r in self.rows if r[4] is None)

    def check(self) -> None:
        """Every acknowledged move is in the log, and every human move in it was sent once."""
        assert not self.lost, f"acknowledged moves missing from the log: {self.lost}"
        assert not self.doubled, f"moves in the log not sent exactly once: {self.doubled}"


async def move_log(db: Db, tally: Tally) -> MoveLog:
    rows = await db.rows("SELECT game_id, seq, seat, move, actor_id FROM moves ORDER BY game_id, seq")
    by_move = {(g, seq - 1, seat, move) for g, seq, seat, move, actor in rows if actor is not None}
    sent = Counter((a.game, a.version, a.seat, a.move) for a in tally.attempts)
    lost = [a for a in tally.acked if (a.game, a.version, a.seat, a.move) not in by_move]
    # A move applied twice lands among the doubled (a move sent again after a kill lost the first try is sent
    # twice and made once: not a double).
    return MoveLog(rows, lost, [r for r in by_move if sent[r] == 0])


@dataclass(frozen=True)
class Posts:
    """What the bot posted, as the channels show it."""

    messages: list[Message]  # not deleted
    boards: Counter[tuple[int, int]]  # (game, move) -> board pictures posted
    hands: Counter[tuple[int, int, int]]  # (DM channel, game, move) -> hand DMs sent

    @classmethod
    def of(cls, emulator: Emulator) -> Posts:
        posts = [m for m in emulator.world.messages.values() if not m.deleted and m.author.id == emulator.bot.id]
        boards = Counter((int(h.group(1)), int(h.group(2))) for m in posts if m.png_attachments()
                         if (h := BOARD.search(m.text)))
        hands = Counter((m.channel_id, int(h.group(1)), int(h.group(2))) for m in posts
                        if (h := HAND.search(m.text)))
        return cls(posts, boards, hands)

    @property
    def duplicate_boards(self) -> dict[tuple[int, int], int]:
        return {k: n for k, n in self.boards.items() if n > 1}

    @property
    def duplicate_hands(self) -> dict[tuple[int, int, int], int]:
        return {k: n for k, n in self.hands.items() if n > 1}

    def latest(self, game: int) -> int:
        """The move number of the game's newest board (-1: none)."""
        return max((v for g, v in self.boards if g == game), default=-1)

    def check(self) -> None:
        """One board per (game, move), one hand DM per (game, move, player)."""
        assert not self.duplicate_boards, f"boards posted more than once: {self.duplicate_boards}"
        assert not self.duplicate_hands, f"hand DMs sent more than once: {self.duplicate_hands}"


async def board_verdict(db: Db, emulator: Emulator, table: Table, stored: int, shown: int) -> str:
    """Why a game's newest board (``shown``: its move number as the channel shows it, -1 for
    none) is behind its ``stored`` moves, said so that a failure names its kind:

    - LOST: the board row of the last move is marked done, yet no board picture of that move
      is in Discord (delivered on paper only: a bug of the bot);
    - PENDING: the row is still undelivered when the wait ended (slow, or stuck: its
      ``attempts``/``last_error`` say which);
    - UNQUEUED: the last move has no board row at all.

    Then the game's board rows and the bot's messages in its thread, as Discord has them
    (deleted ones too), so the story can be read without running the test again."""
    rows = await db.rows("SELECT version, kind, seat, attempts, uncertain, blocked, last_error, done_at, outcome"
                         " FROM outbox WHERE game_id = $1 ORDER BY id", table.game)
    boards = {r[0]: r for r in rows if r[1] == "board"}
    last = boards.get(stored)
    if last is None:
        kind = f"UNQUEUED: move {stored} has no board row"
    elif last[7] is None:
        kind = f"PENDING: the board row of move {stored} was not delivered when the wait ended"
    else:
        kind = (f"LOST: the board row of move {stored} is done ({last[8]!r}) but no board picture of move "
                f"{stored} is in Discord")
    history = []
    for message in emulator.world.channel_messages(table.thread.id, include_deleted=True):
        if message.author.id != emulator.bot.id or not (h := BOARD.search(message.text)):
            continue
        history.append(f"  message {message.id}: move {h.group(2)}, {len(message.png_attachments())} picture(s)"
                       f"{', deleted' if message.deleted else ''}{', buttons' if message.buttons() else ''}"
                       f"{', edited' if message.edited else ''}{', follow-up' if message.webhook_id else ''}")
    outbox = "\n".join(f"  {r}" for r in rows if r[1] in ("board", "ai", "finish"))
    return (f"game {table.game}: {stored} moves stored, newest board shows move {shown}. {kind}\n"
            f" outbox (version, kind, seat, attempts, uncertain, blocked, last_error, done_at, outcome):\n"
            f"{outbox}\n boards in its thread:\n" + "\n".join(history))


def forgive_cut_requests(harness: Harness) -> None:
    """A request cut off by a kill ends in the emulator as "Connection lost": the kill's doing, not a bug."""
    harness.bot_errors[:] = [r for r in harness.bot_errors
                             if not (r.exc_info and isinstance(r.exc_info[1], ConnectionResetError))]


class ReminderWatch:
    """Which move each "⏰ it's your turn" reminder was about, as seen from outside.

    A reminder does not name the move number, so it is placed by time: a reminder goes
    to a game idle for at least ``period`` seconds, so it is about the move that was
    made at least that long before it was posted, and was sent before the next one.
    Every ``poll`` seconds this notes when each move first appears in the log and each
    reminder in the emulator; a reminder is about the moves seen ``period / 2`` before
    it (half the period is the margin for the polling and the sweep's own delay)."""

    def __init__(self, db: SharedDb, emulator: Emulator, period: float, poll: float = 0.05) -> None:
        self.db, self.emulator, self.period, self.poll = db, emulator, period, poll
        self.move_seen: dict[int, list[float]] = defaultdict(list)  # game -> when move 1, 2, … first appeared
        self.reminders: Counter[tuple[int, int]] = Counter()  # (game, version) -> reminders posted about it
        self._seen_messages: set[int] = set()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="reminder watch")

    async def stop(self) -> None:
        """Stop watching; a failure of the watch itself is raised here."""
        if self._task is None:
            return
        if self._task.done():
            self._task.result()
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task

    async def _run(self) -> None:
        while True:
            await self.look()
            await asyncio.sleep(self.poll)

    async def look(self) -> None:
        now = time.monotonic()
        for game, count in (await self.db.move_counts()).items():
            seen = self.move_seen[game]
            seen.extend([now] * (count - len(seen)))
        bot = self.emulator.bot.id
        for message in list(self.emulator.world.messages.values()):
            if message.id in self._seen_messages or message.author.id != bot:
                continue
            self._seen_messages.add(message.id)
            found = REMINDER.search(message.text)
            if found is not None:
                game = int(found.group(1))
                version = sum(1 for t in self.move_seen[game] if t <= now - self.period / 2)
                self.reminders[game, version] += 1

    async def wait_for(self, game: int, version: int, limit: float) -> None:
        """Until the players of ``game`` are reminded of move ``version``."""
        deadline = time.monotonic() + limit
        while not self.reminders[game, version]:
            if self._task is not None and self._task.done():
                self._task.result()
                raise AssertionError("the reminder watch stopped")
            if time.monotonic() > deadline:
                raise AssertionError(f"game {game} sat idle at move {version} for {limit:.0f} s and nobody was "
                                     f"reminded (the reminder period is {self.period:.0f} s; reminders seen, by "
                                     f"(game, move): {dict(self.reminders)})")
            await asyncio.sleep(self.poll)


class ShardProcess:
    """One deployed bot process running some shards; after a kill, started again (a new process)."""

    def __init__(self, name: str, emulator: Emulator, database: str, env: dict[str, str], log_path: Path,
                 workers: int = 0) -> None:
        self.name, self.emulator, self.database, self.env, self.log_path = name, emulator, database, env, log_path
        self.workers = workers
        self.bot: BotProcess | None = None
        self._task: asyncio.Task[None] | None = None
        self.starts = 0
        self.kills = 0
        self.restart_seconds: list[float] = []

    async def start(self, timeout: float = 60.0) -> None:
        """Start a new process and wait until it serves its shards."""
        began = time.monotonic()
        self.bot = BotProcess(self.emulator.base_url, self.database, self.emulator, self.workers, env=self.env,
                              log_path=self.log_path)
        self._task = asyncio.create_task(self.bot.start(self.emulator.token), name=f"bot process {self.name}")
        ready = asyncio.ensure_future(self.bot.wait_until_ready())
        done, _ = await asyncio.wait({self._task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if self._task in done:
            ready.cancel()
            raise RuntimeError(f"bot process {self.name} stopped while starting: {self._task.exception()!r} "
                               f"(its output: {self.log_path})")
        if ready not in done:
            ready.cancel()
            raise RuntimeError(f"bot process {self.name} was not connected within {timeout:.0f} s")
        self.starts += 1
        if self.starts > 1:
            self.restart_seconds.append(time.monotonic() - began)

    async def kill(self) -> None:
        """SIGKILL, and wait until it is gone."""
        assert self.bot is not None and self._task is not None
        self.bot.kill()
        self.kills += 1
        await self._task

    async def stop(self) -> None:
        """SIGTERM, as ``docker stop`` sends, and wait until it is gone."""
        if self.bot is not None:
            await self.bot.close()
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)

    def log_lines(self) -> list[str]:
        """Its output, every process it started one after the other, without colours."""
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return COLOUR.sub("", text).splitlines()


def refused_ai_moves(lines: list[str]) -> list[str]:
    """Lines saying an AI's move was refused after its search (see ``AI_REFUSED``)."""
    return [line for line in lines if AI_REFUSED.search(line)]


def error_lines(lines: list[str]) -> list[str]:
    return [line for line in lines if ERROR_LINE.match(line) or line.startswith("Traceback")]
