"""Interaction fuzzing: ``python -m tools.fuzz [--interactions 100000] [--seed 1]``.

The deployed bot (``python -m bot`` in its own process, as in the load benchmark)
against the emulator, in two servers, with games of all four kinds in progress. A
few concurrent "users" fire random interactions at it: valid moves through the
board's buttons and the picker, clicks on superseded boards, clicks by people who
are not to move or not in the game, forged and malformed custom ids, and oversize,
malformed or foreign-game slash commands and autocompletes (from channels, threads,
another server and DMs).

It also forges (``tools.forge``) application commands from the command tree the bot
registered, every command and option with one thing wrong (a value of the wrong type,
outside its choices or bounds, oversized, a missing required or an unknown option, an
unresolved user, another server's channel, a malformed autocomplete), and clicks with
every argument of a component out of range.

It checks what no input may ever cause: an interaction left unanswered, an internal
error ("something went wrong", or an ERROR logged by the bot), and a game whose move
log does not replay to the position the bot stored for it. Prints one JSON line of
figures; ``run()`` is what the slow test calls.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sqlite3
import string
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from emulator.harness import Harness
from emulator.interactions import HarnessError, build_command_data, dispatch_interaction, find_command
from emulator.messages import create_message
from emulator.model import APPLICATION_COMMAND, AUTOCOMPLETE, MESSAGE_COMPONENT, Channel, Message, User
from emulator.server import Emulator
from engine.core import get_game
from tools.bot_process import BotProcess
from tools.forge import Forger

#: What a player may see when the bot failed inside; never acceptable.
INTERNAL = ("something went wrong", "traceback", "internal error")
#: Game tables to open: (game, humans, extra /pyramid new options).
TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("flaming-pyramids", 3, {}),
    ("flaming-pyramids", 2, {"curse": True}),
    ("pyrinoes", 2, {}),
    ("pyramido", 2, {"mode": "coop"}),
    ("pyramido", 2, {"mode": "competitive"}),
    ("pyramido", 1, {"mode": "solo"}),
    ("continuous-pyramid", 1, {}),
]
ACTIONS = ("join", "leave", "addai", "start", "cancel", "turn", "pick", "page", "move", "hand", "board", "sel",
           "chal", "nope", "")


@dataclass
class Tally:
    sent: Counter[str] = field(default_factory=Counter)
    unanswered: list[str] = field(default_factory=list)
    internal: list[str] = field(default_factory=list)
    moves: int = 0

    def delivered(self) -> int:
        return sum(n for kind, n in self.sent.items() if kind != "not-deliverable")


@dataclass
class Table:
    game: str
    thread: Channel
    players: list[User]


def garbage(rng: random.Random, size: int) -> str:
    alphabet = string.ascii_letters + string.digits + " :,|-_#@<>`*~\n\t💥ÄÖ"
    return "".join(rng.choice(alphabet) for _ in range(size))


def forged_custom_id(rng: random.Random, game_ids: list[int]) -> str:
    kind = rng.randrange(6)
    gid = rng.choice([*game_ids, 0, 999_999, 10**17, rng.randrange(1, 10**6)])
    version = rng.choice([0, 1, rng.randrange(0, 500), 999_999_999])
    action = rng.choice(ACTIONS)
    if kind == 0:
        return f"pb:{action}:{gid}:{version}"
    if kind == 1:
        return f"pb:{action}:{gid}:{version}:{garbage(rng, rng.randrange(0, 60))}"[:100]
    if kind == 2:
        return garbage(rng, rng.randrange(1, 101))
    if kind == 3:
        return f"pb:{action}:{'9' * rng.randrange(19, 40)}:{version}"[:100]
    if kind == 4:
        return f"pb:pick:{gid}:{version}:" + ":".join(garbage(rng, 3) for _ in range(rng.randrange(1, 12)))[:80]
    return f"pb:sel:{gid}:{version}:{rng.choice(['', '0', '-1', '99', '1|2|3', garbage(rng, 10)])}"


def garbage_move(rng: random.Random) -> str:
    kind = rng.randrange(6)
    if kind == 0:
        return garbage(rng, rng.randrange(1, 100))
    if kind == 1:
        return f"place R {'9' * 5000}:1,1"[: rng.choice([100, 5000, 6000])]
    if kind == 2:
        return f"play B5 1:{'7' * 5000},1"[: rng.choice([100, 5000, 6000])]
    if kind == 3:
        return rng.choice(["play", "fall", "fall up", "undo", "resign", "take", "build", "pass", "end", ""])
    if kind == 4:
        return "play " + " ".join(garbage(rng, 4) for _ in range(rng.randrange(1, 8)))
    return "x" * rng.choice([101, 1000, 6000])


class Fuzzer:
    def __init__(self, harness: Harness, emu: Emulator, rng: random.Random, tally: Tally) -> None:
        self.harness, self.emu, self.rng, self.tally = harness, emu, rng, tally
        self.tables: list[Table] = []
        self.answer: Message | None = None
        self.users: list[User] = []
        self.channels: list[Channel] = []

    def twin(self, seed: float) -> Fuzzer:
        """Another concurrent user over the same world, with its own random stream."""
        other = Fuzzer(self.harness, self.emu, random.Random(seed), self.tally)
        other.tables, other.users, other.channels = self.tables, self.users, self.channels
        return other

    # --- sending ------------------------------------------------------------------------------------------------
    async def send(self, kind: str, *, type: int, user: User, channel: Channel, data: dict[str, Any],
                   message: Message | None = None) -> str:
        """Dispatch one interaction and wait for its first answer; returns the text answered
        (the message answered with is kept in ``self.answer``)."""
        self.answer = None
        try:
            inter = await dispatch_interaction(self.emu, type=type, user=user, channel=channel, data=data,
                                               message=message)
        except HarnessError:  # Discord would not let this user act there at all (not a member, not their DM)
            self.tally.sent["not-deliverable"] += 1
            return ""
        self.tally.sent[kind] += 1
        loop = asyncio.get_running_loop()
        while not inter.answered.is_set() and loop.time() < inter.deadline + 1.0 and not inter.rejected:
            await self.emu.wait_changed(0.05)
        what = f"{kind} {json.dumps(data)[:160]}"
        if not inter.answered.is_set():
            self.tally.unanswered.append(f"{what}: {', '.join(inter.rejected) or 'no answer'}")
            return ""
        texts = []
        limit = loop.time() + 15.0
        while inter.original_message_id is not None and loop.time() < limit:  # a deferred answer: wait for it
            original = self.emu.world.messages.get(inter.original_message_id)
            if original is None or not original.loading:
                break
            await self.emu.wait_changed(0.05)
        if inter.response_type == 7 and message is not None:  # the clicked message itself was updated
            self.answer = self.emu.world.messages.get(message.id)
            if self.answer is not None:
                texts.append(self.answer.text)
        if inter.original_message_id is not None:
            original = self.emu.world.messages.get(inter.original_message_id)
            self.answer = original
            if original is not None:
                texts.append(original.text)
                texts.extend(json.dumps(e) for e in original.embeds)
        for choice in inter.choices or []:
            texts.append(str(choice.get("name", "")))
        text = "\n".join(texts)
        if any(marker in text.lower() for marker in INTERNAL):
            self.tally.internal.append(f"{what}: {text[:200]}")
        return text

    async def slash(self, kind: str, user: User, channel: Channel, command: str, **options: Any) -> str:
        parts = command.split()
        try:
            cmd = find_command(self.emu, channel, parts[0])
            data = build_command_data(self.emu, cmd, parts[1:], options, guild_id=channel.guild_id)
        except HarnessError:  # Discord's client refuses it (an option out of its declared bounds)
            self.tally.sent["not-deliverable"] += 1
            return ""
        return await self.send(kind, type=APPLICATION_COMMAND, user=user, channel=channel, data=data)

    async def autocomplete(self, kind: str, user: User, channel: Channel, value: str, **options: Any) -> str:
        try:
            cmd = find_command(self.emu, channel, "pyramid")
            data = build_command_data(self.emu, cmd, ["play"], {**options, "move": value},
                                      guild_id=channel.guild_id, focused="move")
        except HarnessError:
            self.tally.sent["not-deliverable"] += 1
            return ""
        return await self.send(kind, type=AUTOCOMPLETE, user=user, channel=channel, data=data)

    async def click(self, kind: str, user: User, message: Message, custom_id: str, value: str | None = None) -> str:
        """A click as Discord sends it: the component's own type, and a value for a select."""
        channel = self.emu.world.channels[message.channel_id]
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        select = next((s for s in message.selects() if s.get("custom_id") == custom_id), None)
        if select is not None and value is None:
            value = self.rng.choice([str(o.get("value")) for o in select.get("options") or [{"value": "x"}]])
        if value is not None:
            data = {"custom_id": custom_id, "component_type": int(select["type"]) if select else 3, "values": [value]}
        return await self.send(kind, type=MESSAGE_COMPONENT, user=user, channel=channel, data=data, message=message)

    # --- the world ----------------------------------------------------------------------------------------------
    def game_messages(self, table: Table) -> list[Message]:
        """Everything in the game's thread, old ephemeral pickers of anyone included."""
        return list(self.harness.messages(table.thread))

    def boards(self, table: Table) -> list[Message]:
        return [m for m in self.game_messages(table) if m.png_attachments() and "· move " in m.text]

    def any_custom_ids(self, message: Message) -> list[str]:
        """The components a message still has (Discord delivers clicks on nothing else)."""
        return [str(c.get("custom_id")) for c in message.buttons() + message.selects()
                if c.get("custom_id") and not c.get("disabled")]

    def game_ids(self) -> list[int]:
        return list(range(1, len(self.tables) + 3))

    # --- actions ------------------------------------------------------------------------------------------------
    async def valid_step(self) -> None:
        """One click along a real move: a public move button, or the picker towards a move."""
        table = self.rng.choice(self.tables)
        boards = self.boards(table)
        if not boards or not boards[-1].buttons():
            return
        board = boards[-1]
        movers = [u for u in table.players if f"<@{u.id}>" in board.text] or table.players
        actor = self.rng.choice(movers)
        public = [str(b["custom_id"]) for b in board.buttons() if ":move:" in str(b.get("custom_id"))]
        if public:
            await self.click("valid-public", actor, board, self.rng.choice(public))
            self.tally.moves += 1
            return
        opener = [str(b["custom_id"]) for b in board.buttons() if ":turn:" in str(b.get("custom_id"))]
        if not opener:
            return
        await self.click("valid-turn", actor, board, opener[0])
        for _ in range(6):  # follow the picker the bot just showed this user
            picker = self.answer
            if picker is None or not (picker.buttons() or picker.selects()):
                return
            forward: list[tuple[str, str | None]] = [(str(b["custom_id"]), None) for b in picker.buttons()
                       if any(f":{a}:" in str(b.get("custom_id")) for a in ("pick", "move", "page"))
                       and not b.get("disabled")]
            for s in picker.selects():
                forward.extend((str(s["custom_id"]), str(o["value"])) for o in s.get("options") or [])
            if not forward:
                return
            custom_id, value = self.rng.choice(forward)
            text = await self.click("valid-pick", actor, picker, custom_id, value)
            if ":move:" in custom_id or "played" in text.lower() or "playing `" in text.lower():
                self.tally.moves += 1
                return

    async def stale_click(self) -> None:
        """Anyone clicks any component still on any message of a game: old pickers (someone
        else's, or their own from moves ago), hands, the lobby, the current board."""
        table = self.rng.choice(self.tables)
        messages = [m for m in self.game_messages(table) if self.any_custom_ids(m)]
        if not messages:
            return
        message = self.rng.choice(messages)
        user = self.emu.world.users.get(message.visible_to) if message.visible_to else None
        user = user or self.rng.choice(self.users)
        await self.click("stale", user, message, self.rng.choice(self.any_custom_ids(message)))

    async def forged_click(self) -> None:
        """A button the bot never made as it is now: a message of the bot's own (an older
        version, a damaged row) carrying a forged custom id, clicked by anyone. Discord only
        delivers clicks on components a message really has, so that is how they arrive."""
        table = self.rng.choice(self.tables)
        channel = self.rng.choice([table.thread, *self.channels])
        custom_id = forged_custom_id(self.rng, self.game_ids()) or "x"
        button = {"type": 2, "style": 1, "label": "old", "custom_id": custom_id}
        message = create_message(self.emu, channel, self.emu.world.bot, {
            "content": "an old message", "components": [{"type": 1, "components": [button]}]}, [])
        await self.click("forged", self.rng.choice(self.users), message, custom_id)

    async def bad_slash(self) -> None:
        user = self.rng.choice(self.users)
        channel = self.rng.choice(self.channels + [t.thread for t in self.tables])
        game = self.rng.choice([None, *self.game_ids(), 0, 10**9])
        which = self.rng.randrange(5)
        options: dict[str, Any] = {} if game is None else {"game": game}
        if which == 0:
            await self.slash("slash-play", user, channel, "pyramid play", move=garbage_move(self.rng), **options)
        elif which == 1:
            await self.autocomplete("autocomplete", user, channel, garbage_move(self.rng)[:100], **options)
        elif which == 2:
            await self.slash("slash-status", user, channel, "pyramid status", **options)
        elif which == 3:
            await self.slash("slash-hand", user, channel, "pyramid hand", **options)
        else:
            await self.slash("slash-history", user, channel, "pyramid history", **options)

    async def dm_probe(self) -> None:
        """Someone asks about a game by number from their DMs."""
        user = self.rng.choice(self.users)
        dm = self.emu.world.dm_channel(user) or self.harness.dm_channel(user)
        game = self.rng.choice(self.game_ids())
        command = self.rng.choice(["pyramid status", "pyramid history", "pyramid hand"])
        await self.slash("dm-" + command.split()[1], user, dm, command, game=game)

    async def forged_command(self) -> None:
        """A command made from the registered tree with one thing Discord's client would
        never send (``tools.forge.COMMAND_KINDS``), from any channel, thread or DM."""
        user = self.rng.choice(self.users)
        places = self.channels + [t.thread for t in self.tables]
        channel = self.rng.choice(places) if self.rng.random() < 0.9 else (
            self.emu.world.dm_channel(user) or self.harness.dm_channel(user))
        kind, interaction_type, data = self.forger().command(channel)
        await self.send("cmd-" + kind, type=APPLICATION_COMMAND if interaction_type == 2 else AUTOCOMPLETE,
                        user=user, channel=channel, data=data)

    async def forged_component(self) -> None:
        """A click on a component of the bot's own whose arguments are out of range, or
        whose data does not fit it (``tools.forge.COMPONENT_KINDS``)."""
        table = self.rng.choice(self.tables)
        boards = self.boards(table)
        version = 0
        if boards:
            header = boards[-1].text.split("· move ", 1)[-1].split()[0] if "· move " in boards[-1].text else ""
            version = int(header) if header.isdigit() else 0
        kind, custom_id, data = self.forger().component(version)
        if data.get("component_type") == 3:
            component = {"type": 3, "custom_id": custom_id, "options": [{"label": "a", "value": "a"}]}
        elif data.get("component_type") in (5, 6, 7, 8):  # Discord sends a click with its component's type
            component = {"type": data["component_type"], "custom_id": custom_id}
        else:
            component = {"type": 2, "style": 1, "label": "old", "custom_id": custom_id}
        message = create_message(self.emu, table.thread, self.emu.world.bot, {
            "content": "an old message", "components": [{"type": 1, "components": [component]}]}, [])
        user = self.rng.choice(table.players if self.rng.random() < 0.7 else self.users)
        await self.send("click-" + kind, type=MESSAGE_COMPONENT, user=user, channel=table.thread, data=data,
                        message=message)

    def forger(self) -> Forger:
        return Forger(self.emu, self.rng, self.users, self.game_ids)

    async def actor(self, count: int) -> None:
        steps = [(self.valid_step, 25), (self.stale_click, 15), (self.forged_click, 15), (self.bad_slash, 10),
                 (self.dm_probe, 5), (self.forged_command, 20), (self.forged_component, 10)]
        funcs, weights = zip(*steps, strict=True)
        while self.tally.delivered() < count:  # shared by all actors: stop once the run has sent enough
            await self.rng.choices(funcs, weights)[0]()


async def open_table(harness: Harness, emu: Emulator, channel: Channel, game: str, players: list[User],
                     options: dict[str, Any]) -> Channel:
    before = {t.id for t in harness.threads(channel)}
    res = await harness.slash(players[0], channel, "pyramid new", game=game, **options)
    if len(players) > 1:
        lobby = res.last
        for p in players[1:]:
            await harness.click(p, lobby, label="Join")
        await harness.click(players[0], lobby, label="Start")
    loop = asyncio.get_running_loop()
    limit = loop.time() + 60
    while True:
        fresh = [t for t in harness.threads(channel) if t.id not in before]
        if fresh and any(m.png_attachments() for m in harness.messages(fresh[0])):
            return fresh[0]
        if loop.time() > limit:
            raise TimeoutError(f"the first board of a {game} game never appeared")
        await emu.wait_changed(0.05)


def replay_check(database: Path) -> tuple[int, list[str]]:
    """Every started game's move log replays (legally) to the position stored for it."""
    problems: list[str] = []
    conn = sqlite3.connect(database)
    conn.row_factory = sqlite3.Row
    games = conn.execute("SELECT * FROM games WHERE status IN ('active', 'finished')").fetchall()
    for g in games:
        seats = conn.execute("SELECT seat FROM seats WHERE game_id = ? ORDER BY seat", (g["id"],)).fetchall()
        moves = conn.execute("SELECT seq, seat, move FROM moves WHERE game_id = ? ORDER BY seq", (g["id"],)).fetchall()
        if [m["seq"] for m in moves] != list(range(1, len(moves) + 1)):
            problems.append(f"game {g['id']}: move numbers are not 1..{len(moves)}")
            continue
        game = get_game(g["kind"])
        try:
            log = [(m["seat"], m["move"]) for m in moves]
            state = game.replay(len(seats), json.loads(g["options"]), g["seed"], log)
        except Exception as exc:  # noqa: BLE001 - a log that does not replay is the finding
            problems.append(f"game {g['id']}: the move log does not replay ({exc})")
            continue
        snap = conn.execute("SELECT seq, position FROM snapshots WHERE game_id = ?", (g["id"],)).fetchone()
        if snap is not None and snap["seq"] == len(moves):
            stored = game.from_position(json.loads(snap["position"]))
            if game.to_position(stored) != game.to_position(state):
                problems.append(f"game {g['id']}: the stored position differs from its replayed log")
    conn.close()
    return len(games), problems


def errors_in(log_text: str) -> list[str]:
    """The ERROR records (and tracebacks) of the bot's log, each with what follows it."""
    lines = log_text.splitlines()
    return ["\n".join(lines[i: i + 25]) for i, line in enumerate(lines) if " ERROR " in line or "Traceback" in line]


async def report_progress(path: Path, tally: Tally, log_path: Path, started: float) -> None:
    """Every 30 s, the figures so far as one JSON object in ``path`` (a long run on a busy
    machine can then be read before it ends)."""
    while True:
        await asyncio.sleep(30)
        log_text = log_path.read_bytes().decode(errors="replace") if log_path.exists() else ""
        path.write_text(json.dumps({
            "delivered": tally.delivered(), "unanswered": len(tally.unanswered),
            "internal_errors": len(tally.internal), "bot_errors_logged": len(errors_in(log_text)),
            "moves_attempted": tally.moves, "seconds": round(time.perf_counter() - started, 1),
            "by_kind": dict(tally.sent),
            "examples": {"unanswered": tally.unanswered[:5], "internal": tally.internal[:5],
                         "logged": errors_in(log_text)[:5]},
        }))


async def run(interactions: int, seed: int, concurrency: int = 6, workers: int = 1,
              progress: Path | None = None) -> dict[str, Any]:
    rng = random.Random(seed)
    workdir = Path(tempfile.mkdtemp(prefix="pyramid-fuzz-"))
    emu = await Emulator.start()
    emu.interaction_deadline = 10.0  # a loaded 2-core machine: lateness is not what this run looks for
    log_path = workdir / "bot.log"

    async def factory(api_base_url: str, token: str) -> BotProcess:
        return BotProcess(api_base_url, workdir / "bot.db", emu, workers, env={"PYRAMID_LOG_LEVEL": "WARNING"},
                          log_path=log_path)

    harness = Harness(emu, factory, quiet=0.05, ready_timeout=60, deferral_grace=10.0)
    tally = Tally()
    started = time.perf_counter()
    judged = 0
    try:
        await harness.start_bot()
        users = [await harness.add_user(f"fuzz{i}") for i in range(14)]
        other = await harness.add_guild("elsewhere", members=users[10:])
        fuzzer = Fuzzer(harness, emu, rng, tally)
        fuzzer.users = users
        fuzzer.channels = [emu.general, harness.channel("general", guild=other)]
        seat = 0
        for game, humans, options in TABLES:
            players = users[seat: seat + humans]
            seat = (seat + humans) % 10
            thread = await open_table(harness, emu, emu.general, game, players, options)
            fuzzer.tables.append(Table(game, thread, players))
        reporter = asyncio.create_task(report_progress(progress, tally, log_path, started)) if progress else None
        await asyncio.gather(*(fuzzer.twin(rng.random()).actor(interactions) for _ in range(concurrency)))
        if reporter is not None:
            reporter.cancel()
        with contextlib.suppress(TimeoutError):
            await harness.settle(timeout=120)
    finally:
        # What the bot logs while it is being stopped is about stopping, not about the
        # input: only the log written before the stop is judged.
        judged = log_path.stat().st_size if log_path.exists() else 0
        await harness.close()
        await emu.close()
    elapsed = time.perf_counter() - started
    games, problems = replay_check(workdir / "bot.db")
    log_text = log_path.read_bytes()[:judged].decode(errors="replace") if log_path.exists() else ""
    errors = errors_in(log_text)
    return {
        "interactions": sum(tally.sent.values()),
        "delivered": tally.delivered(),
        "by_kind": dict(tally.sent),
        "moves_attempted": tally.moves,
        "games": games,
        "unanswered": len(tally.unanswered),
        "internal_errors": len(tally.internal),
        "bot_errors_logged": len(errors),
        "replay_problems": len(problems),
        "seconds": round(elapsed, 1),
        "examples": {"unanswered": tally.unanswered[:5], "internal": tally.internal[:5], "logged": errors[:5],
                     "replay": problems[:5]},
        "violations": len(emu.violations),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--interactions", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=6)
    parser.add_argument("--progress", type=Path, help="write the figures so far to this file every 30 s")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.interactions, args.seed, args.concurrency, progress=args.progress))))


if __name__ == "__main__":
    main()
