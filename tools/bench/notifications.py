"""``python -m tools.bench.notifications [--players N] [--paced N]``: the daily digest's sweep with
``N`` (default 10,000) players whose digests fall due in the same hour (issue #39).

It seeds a real SQLite file with ``N`` running Flaming Pyramids games, one per player, each player
against a normal AI, and the player's ``/pyramid notify digest:`` hour; then runs the bot's own
digest sweep (:class:`bot.notifications.digest.Digests`: the store's queries, each game loaded,
the visibility rule, the clock and "since your last move" line, the text) with the bot's
services, and prints:

- the sweep's CPU per player (``time.process_time``), with the digests' own pace lifted;
- the pace: ``--paced`` digests (default 60) sent through the digests' real limiter
  (:data:`bot.notifications.digest.SHARE` of the bot's share of Discord's global limit), the most
  requests in any one second, and how long all ``N`` take at that pace (within the hour?);
- requests per player per day: a digest is one request (two on the day the process first opens
  the player's DM channel), at most one a day; batches add at most one request per minute of
  play, and never more than the cap (6) of buzzes an hour across all of a player's messages.

The "send" is the bench's: it counts the requests a DM would make instead of calling Discord
(there is no Discord here); everything before it is the bot's.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import tempfile
import time
from collections import deque
from datetime import UTC, datetime
from pathlib import Path

import discord

from bot.client.host import Host
from bot.config.settings import load_settings
from bot.core.services import Services
from bot.core.tasks import Tasks
from bot.notifications.digest import SHARE, Digests
from bot.notifications.gate import NotificationGate
from bot.posting.pings import Ping
from bot.posting.rest_budget import GlobalLimit
from engine.core.registry import get_game

GUILD = 1_000
CHANNEL = 2_000
FIRST_USER = 10_000_000
HOUR = 9
NOW = datetime(2027, 3, 1, HOUR, 5, tzinfo=UTC)
T0 = "2027-02-28T09:00:00+00:00"


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def seed(path: Path, players: int) -> None:
    """One running game per player, against a normal AI, the player in the seat to act, and their digest hour."""
    game = get_game("flaming-pyramids")
    conn = sqlite3.connect(path)
    games, seats, notify = [], [], []
    for n in range(players):
        game_id, user = n + 1, FIRST_USER + n
        first = game.to_act(game.setup(2, None, 1_000 + n)) or 0
        games.append((game_id, "flaming-pyramids", GUILD, CHANNEL + n, "{}", "active", 1_000 + n, user, T0, T0))
        seats += [(game_id, first, user, None, f"p{n}", 0, T0), (game_id, 1 - first, None, "normal", "AI", 0, T0)]
        notify.append((user, 0, HOUR, "UTC", T0))
    conn.executemany("INSERT INTO games (id, kind, guild_id, channel_id, options, status, seed, created_by,"
                     " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", games)
    conn.executemany("INSERT INTO seats (game_id, seat, user_id, ai_level, name, resigned, joined_at)"
                     " VALUES (?, ?, ?, ?, ?, ?, ?)", seats)
    conn.executemany("INSERT INTO notify_settings (user_id, game_id, digest_hour, zone, updated_at)"
                     " VALUES (?, ?, ?, ?, ?)", notify)
    conn.commit()
    conn.close()


async def open_bot(path: Path, clock: Clock) -> tuple[Services, NotificationGate]:
    settings = load_settings(discord_token="bench", database=str(path), render_workers=0)
    services = await Services.open(settings, clock)
    client = discord.Client(intents=discord.Intents.none())  # never connected: the sweep's sends are counted
    gate = NotificationGate(services, client)
    gate.attach(Host.build(services, client, Tasks(), gate))
    return services, gate


class Counter:
    """The bench's send: the requests a DM would make (the DM channel opened once, then one post)."""

    def __init__(self) -> None:
        self.requests = 0
        self.digests = 0
        self.opened: set[int] = set()
        self.at: deque[float] = deque()

    async def send(self, user_id: int, text: str, ping: Ping) -> bool:
        self.requests += 1 + (user_id not in self.opened)
        self.opened.add(user_id)
        self.digests += 1
        self.at.append(asyncio.get_running_loop().time())
        return True

    def busiest_second(self) -> int:
        times = list(self.at)
        best, start = 0, 0
        for end, t in enumerate(times):
            while times[start] <= t - 1.0:
                start += 1
            best = max(best, end - start + 1)
        return best


async def run(players: int, paced: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.db"
        clock = Clock(NOW)
        services, _gate = await open_bot(path, clock)  # the migrations, 0017 included
        await services.close()
        started = time.perf_counter()
        seed(path, players)
        seeded = time.perf_counter() - started
        services, gate = await open_bot(path, clock)
        try:
            rest = services.settings.rest_per_second
            counter = Counter()
            unpaced = Digests(gate, limit=GlobalLimit(1e9), send=counter.send)
            cpu0, wall0 = time.process_time(), time.perf_counter()
            done = await unpaced.sweep()
            cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
            again = await unpaced.sweep()  # the same day: nothing more
            # The pace, with the digests' real limiter, on a fresh day's first digests.
            clock.now = NOW.replace(day=2)
            pace = Counter()
            paced_digests = Digests(gate, send=pace.send)
            every = await services.store.games_of_user(FIRST_USER, None, ("active",))
            assert every, "the bench seeded no game"
            users = [FIRST_USER + n for n in range(min(paced, players))]
            t0 = time.perf_counter()
            for user_id in users:
                settings = await gate.settings(user_id)
                await paced_digests.one(user_id, settings, "UTC", clock.now)
            paced_wall = time.perf_counter() - t0
            rate = paced_digests.limit.per_second
        finally:
            await services.close()
    print(f"players with a digest due this hour: {players:,} (seeded in {seeded:.1f} s)")
    print(f"digests sent by one sweep: {len(done):,}; a second sweep the same day: {len(again)}")
    print(f"sweep: {wall:.1f} s wall, CPU {cpu:.1f} s = {1000 * cpu / max(1, players):.2f} ms per player")
    print(f"requests: {counter.requests:,} for {counter.digests:,} digests: "
          f"{counter.requests / max(1, counter.digests):.2f} per player on the first day (the DM channel opened), "
          f"1 a day after")
    print(f"pace: the digests' share is {SHARE:.0%} of {rest:g} requests/s = {rate:g}/s; "
          f"{len(pace.at)} paced digests ({pace.requests} requests) took {paced_wall:.1f} s, "
          f"at most {pace.busiest_second()} digests in any second")
    whole = players * 2 / rate
    print(f"all {players:,} at that pace: {whole / 60:.1f} min (two requests each on the first day, "
          f"{whole / 120:.1f} min after) "
          f"{'within' if whole <= 3600 else 'BEYOND'} the hour; boards and hands keep {1 - SHARE:.0%} of the budget")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--paced", type=int, default=60)
    args = parser.parse_args()
    asyncio.run(run(args.players, args.paced))


if __name__ == "__main__":
    main()
