"""Load benchmark: ``python -m tools.bench.load [--games 200] [--moves 5] [--think 10]
[--database sqlite|postgresql|postgresql://…] [--processes N] [--compare]``.

The production bot (``python -m bot``, in its own process with its render
workers, exactly as deployed) against the local emulator, with many Flaming
Pyramids games in progress at once. This process hosts the emulator and the
simulated players: each game's players make random legal moves by clicking through
the board's buttons and the private picker (every path the picker offers ends in a
legal move), waiting ``--think`` seconds on average before each move (an
exponential pause, so the load is bursty). With ``--peek P``, before a share P of
the moves the player to act first looks at their hand with **🂠 My hand**.

Prints, as one JSON line: p50/p95/p99 of click → interaction response (for the
click that makes the move, and for every click), click → new board posted, moves
per second (over the whole run, and in its busiest 10 s), the CPU the bot's
process tree and this process used (and, per move, the bot's own process apart
from its workers: ``bot_own_cpu_ms_per_move``), the bot's peak memory (its process tree: the
bot and its render workers), the pictures the bot drew and reused per move (read
from its /metrics endpoint), the Discord requests per move that count against the
global rate limit (by route) and those through the interaction endpoints (exempt),
the 429s (by scope and route) and the emulator's rule violations. Figures, not
assertions. The emulator enforces Discord's rate limits (``RateLimits.discord()``:
50 requests a second per bot token, 5 posts per 5 s per channel); ``--no-rate-limits``
turns them off. 200 games with 10 s of thought offer about 20 moves/s; with 5 s, 40.

``--database``: the bot's database, a SQLite file (the default) or PostgreSQL: a
throwaway server started for the run (``tools.postgres_server``), or an existing one
given by its ``postgresql://`` URL. ``--processes N`` runs N bot processes, one shard
each, with the games spread evenly over one guild per shard; more than one needs
PostgreSQL, which they share. CPU and memory are then summed over every bot process,
and with a throwaway server the CPU PostgreSQL used is reported too. ``--compare`` runs
1 process on SQLite, 1 on PostgreSQL and 2 on PostgreSQL with the same other options,
and prints the three side by side.

The DM share (issue #42): Discord sends events without a guild, DMs and the clicks on DM
messages, to shard 0 only. With ``--dm-moves P`` a share P of the moves is made from the
player's hand DM (its chooser) instead of the board, so those clicks all reach the process
of shard 0; each process's CPU per move, shard 0's share of the bots' CPU and the move
click's p95 by the shard that received it are reported. ``--scale`` runs 1, 2 and 4
processes on PostgreSQL and prints them side by side (``docs/benchmarks.md``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import socket
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from emulator.harness import Harness, InteractionResult
from emulator.model import Channel, Guild, Message, User
from emulator.ratelimits import RateLimits, exempt
from emulator.server import Emulator, RequestRecord
from tools.bot_process import BotProcess, tree_cpu_seconds
from tools.postgres_server import PostgresServer

BOARD_HEADER = re.compile(r"game #(\d+) · move (\d+)")
MENTION = re.compile(r"<@(\d+)>")


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(values: list[float]) -> dict[str, float]:
    return {"p50": pct(values, 0.5), "p95": pct(values, 0.95), "p99": pct(values, 0.99),
            "mean": statistics.fmean(values) if values else float("nan")}


def busiest_rate(times: list[float], window: float = 10.0) -> float:
    """Moves per second in the busiest ``window`` seconds: the run's average hides
    that the games start together and finish in a long tail."""
    ordered, best, lo = sorted(times), 0, 0
    for hi, t in enumerate(ordered):
        while t - ordered[lo] > window:
            lo += 1
        best = max(best, hi - lo + 1)
    return best / window


@dataclass
class Figures:
    move_response_ms: list[float] = field(default_factory=list)
    click_response_ms: list[float] = field(default_factory=list)
    board_ms: list[float] = field(default_factory=list)
    moves: int = 0
    lost: int = 0  # a move click whose board never appeared
    refused: int = 0  # a picker click answered without a way forward (stale or refused)
    peeks: int = 0  # 🂠 My hand clicks
    done_at: list[float] = field(default_factory=list)  # when each move's board appeared
    clicked_at: list[float] = field(default_factory=list)  # when each move's last click was made
    dm_moves: int = 0  # moves made from the hand DM's chooser (their clicks reach shard 0 only)
    #: click → response ms of the click that made the move, by the shard that received it (DMs: shard 0)
    move_ms_by_shard: dict[int, list[float]] = field(default_factory=dict)


def latest_board(harness: Harness, thread: Channel) -> Message | None:
    for message in reversed(harness.messages(thread)):
        if message.png_attachments() and BOARD_HEADER.search(message.text):
            return message
    return None


def to_act(board: Message, seats: dict[int, User]) -> User | None:
    """The seat the board asks to move. Read from what the message says wherever it says it (its content
    or, on a Components V2 card, its text displays; the last line is not always the status line: the
    first board ends with the deal's seal): the seat the board pinged, else the last seat it mentions."""
    pinged = [seats[u] for u in board.pinged if u in seats]
    if len(pinged) == 1:
        return pinged[0]
    named = [seats[int(u)] for u in MENTION.findall(board.text) if int(u) in seats]
    return named[-1] if named else None


Choice = tuple[str, str, str | None]  # (button or select, custom_id, the select's value)


def forward_choices(message: Message) -> list[Choice]:
    """(kind, custom_id, value) for every choice that goes towards a move: pick and move buttons
    (not "Back"), and each option of a select."""
    out: list[Choice] = []
    for b in message.buttons():
        cid = str(b.get("custom_id") or "")
        if b.get("disabled") or "Back" in str(b.get("label") or ""):
            continue
        if ":pick:" in cid or ":move:" in cid or ":page:" in cid:
            out.append(("button", cid, None))
    for s in message.selects():
        for option in s.get("options") or []:
            out.append(("select", str(s["custom_id"]), str(option["value"])))
    return out


MOVE_SAID = ("⏳ Playing ", "✅ You played ")


async def filled_in(harness: Harness, result: InteractionResult, timeout: float = 30.0,
                    before: list[Choice] | None = None) -> Message | None:
    """The click's answer once the bot has filled it in. A click is acknowledged first (a private
    "thinking…" or a silent update, within Discord's 3 seconds) and the chooser or the move's reply
    follows: the answer is the newest of its messages that offers a choice, tells the move, or refuses.
    ``before``: the choices the clicked message offered; a click answered by editing that message (a
    hand DM's chooser) is answered once it offers other ones (else the clicked message, not edited
    yet, would be taken for the answer, and clicked again: a stale click, answered with a board)."""
    loop = asyncio.get_running_loop()
    limit = loop.time() + timeout
    while True:
        shown = result.messages or ([result.message] if result.message is not None else [])
        for message in reversed(shown):
            if any(w in message.text for w in MOVE_SAID) or "❌" in message.text:
                return message
            choices = forward_choices(message)
            if choices and (before is None or choices != before):
                return message
        if loop.time() > limit:
            return shown[-1] if shown else None
        await harness.emulator.wait_changed(0.05)


class Player:
    """Both seats of one game: whoever the board names clicks."""

    def __init__(self, harness: Harness, thread: Channel, seats: dict[int, User], rng: random.Random,
                 figures: Figures, peek: float = 0.0, dm_moves: float = 0.0, shard: int = 0) -> None:
        self.harness, self.thread, self.seats, self.rng, self.figures = harness, thread, seats, rng, figures
        self.peek = peek
        self.dm_moves = dm_moves  # share of moves made from the hand DM (when it offers the chooser)
        self.shard = shard  # the shard of the game's guild

    def hand_dm(self, actor: User, game: str, version: int) -> Message | None:
        """The actor's hand DM for this game after ``version``, when it offers the move chooser."""
        said = f"game #{game} · your hand after move {version}"
        for message in reversed(self.harness.dm(actor)):
            if said in message.text:
                return message if forward_choices(message) else None
        return None

    async def timed(self, actor: User, message: Message, choice: Choice) -> tuple[InteractionResult, float]:
        kind, custom_id, value = choice
        start = time.perf_counter()
        if kind == "select":
            result = await self.harness.select(actor, message, custom_id, [value], settle=False, check=False)
        else:
            result = await self.harness.click(actor, message, custom_id=custom_id, settle=False, check=False)
        took = (time.perf_counter() - start) * 1000
        self.figures.click_response_ms.append(took)
        return result, start

    async def move_once(self) -> bool:
        """Make one move on the latest board; False when the game is over."""
        board = latest_board(self.harness, self.thread)
        if board is None or not board.buttons():
            return False
        header = BOARD_HEADER.search(board.text)
        actor = to_act(board, self.seats)
        if header is None or actor is None:
            return False
        version = int(header.group(2))
        if self.peek and self.rng.random() < self.peek:  # no draw without --peek: the same games as before
            hand = next(str(b["custom_id"]) for b in board.buttons() if ":hand:" in str(b["custom_id"]))
            await self.timed(actor, board, ("button", hand, None))
            self.figures.peeks += 1
        public: list[Choice] = [("button", str(b["custom_id"]), None) for b in board.buttons()
                                if ":move:" in str(b["custom_id"])]
        message: Message | None = board
        shard = self.shard
        dm = (self.hand_dm(actor, header.group(1), version)
              if self.dm_moves and self.rng.random() < self.dm_moves else None)
        if dm is not None:  # from the DM: every click goes to shard 0's process
            message, public, shard = dm, [], 0
            self.figures.dm_moves += 1
        elif not public:
            opener = next(str(b["custom_id"]) for b in board.buttons() if ":turn:" in str(b["custom_id"]))
            message = await filled_in(self.harness, (await self.timed(actor, board, ("button", opener, None)))[0])
        choices = public or (forward_choices(message) if message is not None else [])
        by_shard = self.figures.move_ms_by_shard.setdefault(shard, [])
        while True:
            if message is None or not choices:
                self.figures.refused += 1  # the picker went stale or refused: read the board again
                return True
            choice = self.rng.choice(choices)
            result, start = await self.timed(actor, message, choice)
            if ":move:" in choice[1]:
                self.figures.move_response_ms.append(self.figures.click_response_ms[-1])
                by_shard.append(self.figures.click_response_ms[-1])
                break
            answer = await filled_in(self.harness, result, before=choices)
            said = answer.text if answer is not None else ""
            if any(w in said for w in MOVE_SAID):
                self.figures.move_response_ms.append(self.figures.click_response_ms[-1])
                by_shard.append(self.figures.click_response_ms[-1])
                break
            message = answer
            choices = forward_choices(message) if message is not None else []
        try:
            await self.harness.wait_for_message(
                self.thread, lambda m: bool(m.png_attachments()) and f"· move {version + 1}" in m.text, timeout=60
            )
        except TimeoutError:
            self.figures.lost += 1
            return True
        self.figures.board_ms.append((time.perf_counter() - start) * 1000)
        self.figures.clicked_at.append(start)
        self.figures.done_at.append(time.perf_counter())
        self.figures.moves += 1
        return True

    async def play(self, moves: int, think: float) -> None:
        for _ in range(moves):
            if think:  # people take a while between moves; 200 simultaneous clicks is not a game night
                await asyncio.sleep(self.rng.expovariate(1 / think))
            if not await self.move_once():
                return


async def open_game(harness: Harness, emu: Emulator, general: Channel, a: User, b: User) -> Channel:
    lobby = (await harness.slash(a, general, "pyramid new", game="flaming-pyramids")).last
    await harness.click(b, lobby, label="Join")
    before = {t.id for t in harness.threads(general)}
    await harness.click(a, lobby, label="Start")
    loop = asyncio.get_running_loop()
    limit = loop.time() + 30
    while True:
        fresh = [t for t in harness.threads(general) if t.id not in before]
        if fresh and latest_board(harness, fresh[0]) is not None:
            return fresh[0]
        if loop.time() > limit:
            raise TimeoutError("the game's first board never appeared")
        await emu.wait_changed(0.05)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def pictures(port: int) -> dict[tuple[str, str], float]:
    """The bot's ``pyramid_pictures_total`` by (picture, source), from its /metrics
    endpoint; empty if it does not count them."""
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/metrics") as response:
        page = await response.text()
    return {(s.labels["picture"], s.labels["source"]): s.value
            for family in text_string_to_metric_families(page) if family.name == "pyramid_pictures"
            for s in family.samples if s.name == "pyramid_pictures_total"}


async def all_pictures(ports: list[int]) -> dict[tuple[str, str], float]:
    """``pictures`` summed over every bot process."""
    total: dict[tuple[str, str], float] = {}
    for port in ports:
        for key, value in (await pictures(port)).items():
            total[key] = total.get(key, 0.0) + value
    return total


def per_move(before: dict[tuple[str, str], float], after: dict[tuple[str, str], float],
             moves: int) -> dict[str, float | None]:
    """Pictures drawn and reused per move while playing (None: the bot does not count them)."""
    return {f"{picture}_{source}": (after[picture, source] - before.get((picture, source), 0.0)) / moves
            if (picture, source) in after and moves else None
            for picture, source in (("board", "drawn"), ("hand", "drawn"), ("hand", "reused"))}


def requests_per_move(records: list[RequestRecord], moves: int) -> dict[str, Any]:
    """What the bot asked of Discord while the players played: requests per move that count against the
    global rate limit (all of them, and by route, most first; a request refused with 429 and tried again
    counts once), interaction requests per move (exempt), and the 429s it got (by scope)."""
    limited = Counter(r.route for r in records if not exempt(r.route) and r.status != 429)
    answered = Counter(r.route for r in records if exempt(r.route) and r.status != 429)
    interactions = sum(answered.values())

    def per(count: int) -> float:
        return count / moves if moves else float("nan")

    too_many = [r for r in records if r.status == 429]
    return {
        "rate_limited_per_move": per(sum(limited.values())),
        "interaction_per_move": per(interactions),
        "rate_limited_by_route": {route: per(n) for route, n in limited.most_common()},
        "interaction_by_route": {route: per(n) for route, n in answered.most_common()},
        "429s": len(too_many),
        "429s_global": sum(1 for r in too_many if r.scope == "global"),
        "429s_by_route": dict(Counter(r.route for r in too_many).most_common()),
    }


class BenchError(Exception):
    """Options that cannot run together; the message says why."""


@dataclass(frozen=True)
class Load:
    """What the simulated players do, the same in every configuration of ``--compare``."""

    games: int
    moves: int
    seed: int
    think: float
    workers: int
    loop_debug: bool = False
    peek: float = 0.0
    #: Discord's rate limits in the emulator (global 50/s per token, route buckets); False: none.
    rate_limits: bool = True
    #: A CSV file to write each move's click time (seconds into the play) and click → board ms to.
    timeline: str | None = None
    #: Share of moves made from the hand DM's chooser instead of the board (DM clicks reach shard 0 only).
    dm_moves: float = 0.0


@dataclass(frozen=True)
class Deployment:
    """How the bot runs: its database (``sqlite``, ``postgresql`` for a throwaway server, or a
    ``postgresql://`` URL) and how many processes, one shard each."""

    database: str = "sqlite"
    processes: int = 1

    @property
    def backend(self) -> str:
        return "sqlite" if self.database == "sqlite" else "postgresql"

    @property
    def label(self) -> str:
        backend = "SQLite" if self.backend == "sqlite" else "PostgreSQL"
        return f"{self.processes} process{'es' if self.processes > 1 else ''}, {backend}"

    def check(self) -> None:
        if self.database not in ("sqlite", "postgresql") and not self.database.startswith(("postgresql://",
                                                                                            "postgres://")):
            raise BenchError(f"--database must be sqlite, postgresql or a postgresql://… URL, not {self.database!r}")
        if self.processes < 1:
            raise BenchError(f"--processes must be at least 1, not {self.processes}")
        if self.processes > 1 and self.backend == "sqlite":
            raise BenchError(f"--processes {self.processes} needs --database postgresql: bot processes share one "
                             "database, and a SQLite file serves one bot process only")


def postmaster_pid(server: PostgresServer) -> int:
    """The PostgreSQL server's main process, whose children serve the connections."""
    return int((server.data / "postmaster.pid").read_text().split()[0])


async def run(load: Load, deployment: Deployment, server: PostgresServer | None = None,
              database_name: str = "load") -> dict[str, Any]:
    """One configuration. ``server``: the throwaway PostgreSQL to create the bot's database on
    (needed when ``deployment.database`` is ``postgresql``); its CPU is then measured too."""
    deployment.check()
    rng = random.Random(load.seed)
    if load.loop_debug:  # the bots' loops only (this one is already running): they log callbacks over 100 ms
        os.environ["PYTHONASYNCIODEBUG"] = "1"
    workdir = Path(tempfile.mkdtemp(prefix="pyramid-load-"))
    database: str | Path
    if deployment.database == "sqlite":
        database, server = workdir / "bot.db", None
    elif deployment.database == "postgresql":
        if server is None:
            raise BenchError("--database postgresql needs a PostgreSQL server to create the database on")
        database = server.create_database(database_name)
    else:
        database, server = deployment.database, None  # someone else's server: its CPU is not ours to read
    count = deployment.processes
    emu = await Emulator.start(shard_count=count,
                               rate_limits=RateLimits.discord() if load.rate_limits else RateLimits.off())
    emu.interaction_deadline = 30.0  # measure lateness instead of failing on it
    ports = [free_port() for _ in range(count)]
    handles: list[BotProcess] = []

    def factory_for(shard: int) -> Any:
        env = {"PYRAMID_METRICS_PORT": str(ports[shard])}
        if count > 1:
            env |= {"PYRAMID_SHARD_COUNT": str(count), "PYRAMID_SHARD_IDS": str(shard)}

        async def factory(api_base_url: str, token: str) -> BotProcess:
            handles.append(BotProcess(api_base_url, database, emu, load.workers, env=env))
            return handles[-1]

        return factory

    harness = Harness(emu, factory_for(0), quiet=0.05, ready_timeout=60, deferral_grace=10.0)
    await harness.start_bot()
    for shard in range(1, count):
        await harness.start_extra_bot(factory_for(shard))
    # One guild per shard (one process: the emulator's own guild, as before), the games spread evenly.
    guilds: list[Guild] = ([emu.guild] if count == 1 else
                           [await harness.add_guild(f"shard {k}", shard=k) for k in range(count)])
    generals = [harness.channel("general", guild=g) for g in guilds]
    users = [await harness.add_user(f"player{i}", guild=guilds[(i // 2) % count]) for i in range(load.games * 2)]
    threads = [await open_game(harness, emu, generals[i % count], users[2 * i], users[2 * i + 1])
               for i in range(load.games)]
    await harness.settle(timeout=120)
    figures = Figures()
    players = [
        Player(harness, thread, {users[2 * i].id: users[2 * i], users[2 * i + 1].id: users[2 * i + 1]},
               random.Random(rng.random()), figures, load.peek, load.dm_moves, shard=i % count)
        for i, thread in enumerate(threads)
    ]
    postmaster = postmaster_pid(server) if server is not None else None

    def bot_cpu() -> float:
        return sum(bot.cpu_seconds() for bot in handles)

    def own_cpu() -> float:
        return sum(bot.own_cpu_seconds() for bot in handles)

    def db_cpu() -> float:
        return tree_cpu_seconds(postmaster) if postmaster is not None else 0.0

    counted = await all_pictures(ports)
    first_request = len(emu.requests)
    each_used = [bot.cpu_seconds() for bot in handles]  # handles[k] runs shard k
    own_used = own_cpu()
    started, bot_used, db_used, rig_used = time.perf_counter(), bot_cpu(), db_cpu(), time.process_time()
    await asyncio.gather(*(p.play(load.moves, load.think) for p in players))
    elapsed = time.perf_counter() - started
    if load.timeline:
        rows = sorted(zip(figures.clicked_at, figures.board_ms, strict=True))
        Path(load.timeline).write_text("seconds,click_to_board_ms\n" + "".join(
            f"{at - started:.3f},{ms:.1f}\n" for at, ms in rows))
    bot_used, db_used, rig_used = bot_cpu() - bot_used, db_cpu() - db_used, time.process_time() - rig_used
    own_used = own_cpu() - own_used
    each_used = [bot.cpu_seconds() - before for bot, before in zip(handles, each_used, strict=True)]
    await harness.settle(timeout=120)
    requests = requests_per_move(emu.requests[first_request:], figures.moves)
    # Counted once everything is delivered: the last moves' pictures are drawn after their clicks.
    drawn = per_move(counted, await all_pictures(ports), figures.moves)
    peak = sum(bot.peak_rss_mb() for bot in handles)
    await harness.close()
    await emu.close()
    if server is not None:
        server.drop_database(database_name)

    def per_second(used: float) -> float:
        return used / elapsed if elapsed else 0.0

    def per_move_ms(used: float) -> float:
        return 1000 * used / figures.moves if figures.moves else float("nan")

    return {
        "database": deployment.backend,
        "processes": count,
        "games": load.games,
        "moves": figures.moves,
        "lost_moves": figures.lost,
        "refused_clicks": figures.refused,
        "my_hand_clicks": figures.peeks,
        "click_to_response_ms_move_click": summary(figures.move_response_ms),
        "click_to_response_ms_every_click": summary(figures.click_response_ms),
        "click_to_board_ms": summary(figures.board_ms),
        "moves_per_second": figures.moves / elapsed if elapsed else 0.0,
        "moves_per_second_busiest": busiest_rate(figures.done_at),
        # the bot processes' trees (each bot and its workers), summed
        "bot_peak_rss_mb": peak,
        # cores busy on average while playing: the bots' trees, PostgreSQL's (a throwaway server only),
        # and this process (emulator + players)
        "bot_cpu_cores": per_second(bot_used),
        "db_cpu_cores": per_second(db_used) if postmaster is not None else None,
        "rig_cpu_cores": per_second(rig_used),
        "bot_cpu_ms_per_move": per_move_ms(bot_used),
        # of which the bot processes themselves (event loop, discord.py, the database's thread); the rest
        # is their workers (pictures, AI)
        "bot_own_cpu_ms_per_move": per_move_ms(own_used),
        "db_cpu_ms_per_move": per_move_ms(db_used) if postmaster is not None else None,
        # pictures per move: boards drawn, hands drawn, hands reused (the same view drawn before)
        "pictures_per_move": drawn,
        # Discord requests while playing (until everything was delivered), per move made
        **requests,
        "violations": len(emu.violations),
        # the DM share (issue #42): moves made from hand DMs, whose clicks only shard 0's process receives; each
        # process's CPU per move of the whole run (its tree), shard 0's share of the bots' CPU, and the move
        # click's p95 by the shard that received it
        "dm_moves": figures.dm_moves,
        "cpu_ms_per_move_by_process": [per_move_ms(used) for used in each_used],
        "shard0_cpu_share": each_used[0] / sum(each_used) if sum(each_used) else float("nan"),
        "move_click_p95_ms_by_shard": {str(k): pct(v, 0.95) for k, v in sorted(figures.move_ms_by_shard.items())},
    }


COMPARED = (Deployment("sqlite", 1), Deployment("postgresql", 1), Deployment("postgresql", 2))


def rounded(figures: dict[str, Any]) -> dict[str, Any]:
    return {k: (round(v, 1) if isinstance(v, float) else
                {kk: round(vv, 2 if k == "pictures_per_move" else 1) if isinstance(vv, float) else vv
                 for kk, vv in v.items()} if isinstance(v, dict) else v)
            for k, v in figures.items()}


SCALED = (Deployment("postgresql", 1), Deployment("postgresql", 2), Deployment("postgresql", 4))


def scale_table(results: list[tuple[Deployment, dict[str, Any]]]) -> str:
    """1, 2 and 4 processes side by side with the DM share (docs/benchmarks.md quotes it)."""
    lines = ["| bot | moves/s | move click → response ms p95 | click → board ms p95 | bot CPU ms/move "
             "| moves from DMs | shard 0's share of the bots' CPU | move click p95 ms, shard 0 / others "
             "| CPU ms/move by process |", "|---|---|---|---|---|---|---|---|---|"]
    for deployment, f in results:
        by_shard = f["move_click_p95_ms_by_shard"]
        others = [v for k, v in by_shard.items() if k != "0"]
        lines.append(
            f"| {deployment.label} | {f['moves_per_second']:.1f} | {f['click_to_response_ms_move_click']['p95']:.0f}"
            f" | {f['click_to_board_ms']['p95']:.0f} | {f['bot_cpu_ms_per_move']:.1f} | {f['dm_moves']} of "
            f"{f['moves']} | {f['shard0_cpu_share'] * 100:.0f} % | {by_shard.get('0', float('nan')):.0f} / "
            f"{(max(others) if others else float('nan')):.0f} | "
            f"{' / '.join(f'{v:.1f}' for v in f['cpu_ms_per_move_by_process'])} |")
    return "\n".join(lines)


def comparison_table(results: list[tuple[Deployment, dict[str, Any]]]) -> str:
    """The configurations side by side, as a Markdown table (the README quotes it)."""

    def trio(figures: dict[str, float]) -> str:
        return " / ".join(f"{figures[q]:.0f}" for q in ("p50", "p95", "p99"))

    def number(value: float | None, digits: int = 0) -> str:
        return "–" if value is None else f"{value:.{digits}f}"

    lines = ["| bot | moves/s | click → response ms p50 / p95 / p99 | click → board ms p50 / p95 / p99 "
             "| bot CPU ms/move | PostgreSQL CPU ms/move | peak MB | pictures drawn/move |",
             "|---|---|---|---|---|---|---|---|"]
    for deployment, f in results:
        pictures = f["pictures_per_move"]
        drawn = sum(v for k, v in pictures.items() if k.endswith("_drawn") and v is not None)
        lines.append(f"| {deployment.label} | {f['moves_per_second']:.1f} | "
                     f"{trio(f['click_to_response_ms_move_click'])} | {trio(f['click_to_board_ms'])} | "
                     f"{number(f['bot_cpu_ms_per_move'])} | {number(f['db_cpu_ms_per_move'])} | "
                     f"{f['bot_peak_rss_mb']:.0f} | {drawn:.2f} |")
    return "\n".join(lines)


@contextlib.contextmanager
def postgres_for(deployments: list[Deployment]) -> Iterator[PostgresServer | None]:
    """A throwaway PostgreSQL server when some configuration asks for one, stopped afterwards."""
    if not any(d.database == "postgresql" for d in deployments):
        yield None
        return
    with PostgresServer() as server:
        yield server


def run_all(load: Load, deployments: list[Deployment]) -> list[tuple[Deployment, dict[str, Any]]]:
    for deployment in deployments:
        deployment.check()
    results: list[tuple[Deployment, dict[str, Any]]] = []
    with postgres_for(deployments) as server:
        for index, deployment in enumerate(deployments):
            figures = asyncio.run(run(load, deployment, server, database_name=f"load_{index}"))
            figures["think_seconds"] = load.think
            print(json.dumps(rounded(figures)), flush=True)
            results.append((deployment, figures))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=5, help="moves per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=10.0,
                        help="mean seconds a simulated player waits before each move (0: click as fast as possible)")
    parser.add_argument("--workers", type=int, default=2, help="the bot's render worker processes")
    parser.add_argument("--peek", type=float, default=0.0,
                        help="share of moves before which the player looks at their hand (🂠 My hand) first")
    parser.add_argument("--loop-debug", action="store_true",
                        help="run the bot's event loop in asyncio debug mode: it logs callbacks that take over 100 ms "
                             "(slower; for finding what blocks the loop, not for the figures)")
    parser.add_argument("--database", default=None,
                        help="the bot's database: sqlite (a file, the default), postgresql (a throwaway server "
                             "started for the run) or the postgresql://… URL of an existing one")
    parser.add_argument("--processes", type=int, default=None,
                        help="bot processes, one shard each, the games spread evenly over them (more than one "
                             "needs PostgreSQL)")
    parser.add_argument("--compare", action="store_true",
                        help="run 1 process on SQLite, 1 on PostgreSQL and 2 on PostgreSQL with the same other "
                             "options, and print them side by side")
    parser.add_argument("--dm-moves", type=float, default=0.0,
                        help="share of moves made from the hand DM's chooser instead of the board (DM clicks "
                             "reach the process of shard 0 only)")
    parser.add_argument("--scale", action="store_true",
                        help="run 1, 2 and 4 processes on PostgreSQL with the same other options, and print them "
                             "side by side with the DM share (shard 0's CPU and latency against the others)")
    parser.add_argument("--no-rate-limits", action="store_true",
                        help="the emulator enforces none of Discord's rate limits (as before issue #31)")
    parser.add_argument("--timeline", default=None, metavar="CSV",
                        help="write each move's click time (seconds into the play) and click → board ms to CSV, "
                             "to see when the latency builds up")
    args = parser.parse_args()
    load = Load(args.games, args.moves, args.seed, args.think, args.workers, args.loop_debug, args.peek,
                rate_limits=not args.no_rate_limits, timeline=args.timeline, dm_moves=args.dm_moves)
    if args.scale:
        if args.compare or args.database is not None or args.processes is not None:
            parser.error("--scale runs its own three configurations: leave out --compare, --database, --processes")
        deployments = list(SCALED)
    elif args.compare:
        if args.database is not None or args.processes is not None:
            parser.error("--compare runs its own three configurations: leave out --database and --processes")
        deployments = list(COMPARED)
    else:
        deployments = [Deployment(args.database or "sqlite", args.processes or 1)]
    try:
        results = run_all(load, deployments)
    except BenchError as exc:
        parser.error(str(exc))
    if args.scale:
        print(f"\n{load.games} games, {load.moves} moves each, {load.think:g} s of thought, {load.dm_moves:.0%} of "
              f"moves from hand DMs, {load.workers} render workers per process:")
        print(scale_table(results))
    if args.compare:
        print(f"\n{load.games} games, {load.moves} moves each, {load.think:g} s of thought, "
              f"{load.workers} render workers per process:")
        print(comparison_table(results))


if __name__ == "__main__":
    main()
