"""Load benchmark: ``python -m tests.load_bench [--games 200] [--moves 5]``.

The real bot against the local emulator, with many Flaming Pyramids games in
progress at once; simulated players make random legal moves by clicking through
the board's picker, each waiting ``--think`` seconds on average between moves (an
exponential pause, so the load is bursty). Prints p50/p95/p99 of click → interaction response and click →
new board posted, moves per second and peak memory (RSS of this process, which
also hosts the emulator and the simulated players). Figures, not assertions.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.api_base import configure_api_base
from bot.picker import node_at
from bot.services import Services
from bot.settings import load_settings
from bot.store import utc_now
from tests.bot_e2e.conftest import BotUnderTest
from tests.emulator.harness import Harness
from tests.emulator.server import Emulator


def button_path(custom_id: str) -> list[str]:
    return custom_id.split(":", 4)[4].split() if custom_id.count(":") >= 4 else []


async def walk_picker(harness: Harness, actor: Any, message: Any, legal: list[str],
                      target: list[str]) -> tuple[Any, str]:
    """Click through the private picker towards ``target``; return the message and
    the custom_id of the click that makes the move (not yet clicked)."""
    while True:
        options = [(button_path(b["custom_id"]), b["custom_id"]) for b in message.buttons()
                   if ":pick:" in b["custom_id"]]
        path, custom_id = max(((p, c) for p, c in options if p == target[: len(p)] and p), key=lambda pc: len(pc[0]))
        node = node_at(legal, path)
        if node.complete is not None and not node.choices:
            return message, custom_id
        message = (await harness.click(actor, message, custom_id=custom_id, settle=False)).message


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(games: int, moves: int, seed: int, think: float) -> dict[str, Any]:
    rng = random.Random(seed)
    workdir = Path(tempfile.mkdtemp(prefix="pyramid-load-"))
    emu = await Emulator.start()
    emu.interaction_deadline = 30.0  # measure lateness instead of failing on it

    async def factory(api_base_url: str, token: str) -> BotUnderTest:
        settings = load_settings(discord_token=token, api_base_url=api_base_url,
                                 database_path=workdir / "bot.db", ai_delay_seconds=0)
        configure_api_base(settings.api_base_url)
        services = await Services.open(settings, utc_now, sweep_seconds=3600.0)
        return BotUnderTest(services)

    harness = Harness(emu, factory, busy_check=lambda bot: bot.client.busy(), quiet=0.01)
    await harness.start_bot()
    users = [await harness.add_user(f"player{i}") for i in range(games * 2)]
    game_ids: list[int] = []
    channels: dict[int, Any] = {}
    for i in range(games):
        a, b = users[2 * i], users[2 * i + 1]
        res = await harness.slash(a, emu.general, "pyramid new", game="flaming-pyramids")
        await harness.click(b, res.message, label="Join")
        await harness.click(a, res.message, label="Start")
        record = (await harness.bot.services.store.games_where("1 = 1"))[-1]
        game_ids.append(record.id)
        channels[record.id] = next(t for t in harness.threads(emu.general) if t.id == record.thread_id)
    response_ms: list[float] = []
    board_ms: list[float] = []
    made = 0

    async def player(game_id: int, seats: tuple[Any, Any]) -> None:
        nonlocal made
        thread = channels[game_id]
        for _ in range(moves):
            if think:  # people take a while between moves; a burst of 200 at once is not a game night
                await asyncio.sleep(rng.expovariate(1 / think))
            session = await harness.bot.services.sessions.load(game_id)
            if session.result is not None:
                return
            actor = seats[session.to_act]
            legal = session.game.legal_moves(session.state)
            target = rng.choice(legal)
            board = [m for m in harness.messages(thread) if m.png_attachments()][-1]
            if not board.buttons():
                return
            label = "▶ Your move" if "▶ Your move" in board.button_labels else None
            if label is None:  # a public decision (a fall) is a button on the board itself
                message, custom_id = board, next(b["custom_id"] for b in board.buttons() if "move" in b["custom_id"])
            else:
                message = (await harness.click(actor, board, label=label, settle=False)).message
                message, custom_id = await walk_picker(harness, actor, message, legal, target.split())
            version = session.version
            start = time.perf_counter()
            result = await harness.click(actor, message, custom_id=custom_id, settle=False, check=False)
            response_ms.append((time.perf_counter() - start) * 1000)
            del result
            try:
                await harness.wait_for_message(
                    thread, lambda m, v=version: bool(m.png_attachments()) and f"· move {v + 1}" in m.text, timeout=60
                )
            except TimeoutError:
                continue
            board_ms.append((time.perf_counter() - start) * 1000)
            made += 1

    started = time.perf_counter()
    await asyncio.gather(*(player(gid, (users[2 * i], users[2 * i + 1])) for i, gid in enumerate(game_ids)))
    elapsed = time.perf_counter() - started
    await harness.settle(timeout=120)
    await harness.close()
    await emu.close()
    configure_api_base(None)
    return {
        "games": games,
        "moves": made,
        "click_to_response_ms": {"p50": pct(response_ms, 0.5), "p95": pct(response_ms, 0.95),
                                 "p99": pct(response_ms, 0.99), "mean": statistics.fmean(response_ms or [0])},
        "click_to_board_ms": {"p50": pct(board_ms, 0.5), "p95": pct(board_ms, 0.95), "p99": pct(board_ms, 0.99)},
        "moves_per_second": made / elapsed if elapsed else 0.0,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "violations": len(emu.violations),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=5, help="moves per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=10.0,
                        help="mean seconds a simulated player waits before each move (0: click as fast as possible)")
    args = parser.parse_args()
    figures = asyncio.run(run(args.games, args.moves, args.seed, args.think))
    figures["think_seconds"] = args.think
    print(json.dumps({k: (round(v, 1) if isinstance(v, float) else
                          {kk: round(vv, 1) for kk, vv in v.items()} if isinstance(v, dict) else v)
                      for k, v in figures.items()}))


if __name__ == "__main__":
    main()
