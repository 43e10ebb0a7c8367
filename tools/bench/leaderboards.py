"""``python -m tools.bench.leaderboards [--games N] [--path FILE]``: what each listing
command reads from a server with a long history.

It seeds ``N`` (default 100,000) finished Pyrinoes games of one server into a real SQLite
file (two people a game among 200 players; ratings for them; a challenge of 40 entrants;
one player with 25 games), at the schema of migration 0014, then opens it with the
bot's store (which applies the later migrations, timed) and runs each listing the way
its command does: the wins leaderboard and the challenge's (``/pyramid leaderboard``),
the rating leaderboard (``/pyramid leaderboard game:``), ``/pyramid stats``,
``/pyramid games``, the game lookup of ``/pyramid history`` without a number and the
daily deal's streak board (50 players, a day of daily deals per 1,000 games). For each
it prints the time, the statements run and the rows they returned.

It runs on older code too (the numbers before a change): copy this file into a checkout
of that code and run it there (``python -m tools.bench.leaderboards`` from its folder).
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import random
import sqlite3
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any, cast

from bot.daily.store import DailyStore
from bot.games.catalogue import Catalogue
from bot.leaderboards.leaderboards import Leaderboards
from bot.ratings.store import RatingStore
from bot.stats.ratings import Ratings
from bot.store import GameStore, SqliteDatabase
from bot.store.database import Database
from bot.store.migrate import bundled_migrations

GUILD = 1_000
CHANNEL = 2_000
PLAYERS = 200
#: The player whose own games are listed (``/pyramid games``, the lookup): 25 of them, 2 running.
ME = 10_001
ENTRANTS = 40
#: Players of the server who take the daily deal (on 80% of days; a day per 1,000 games seeded).
DAILY_PLAYERS = 50
T0 = "2026-01-01T00:00:00+00:00"


def seed(path: Path, games: int) -> None:
    """``games`` finished games and the rest (see the module docstring) into ``path``,
    already migrated to 0014, by plain SQL (fast; nothing of the bot runs)."""
    rng = random.Random(37)
    conn = sqlite3.connect(path)
    challenge = conn.execute("INSERT INTO challenges (guild_id, channel_id, seed, options, created_at)"
                             " VALUES (?, ?, 1, '{}', ?) RETURNING id", (GUILD, CHANNEL, T0)).fetchone()[0]
    game_rows: list[tuple[Any, ...]] = []
    seat_rows: list[tuple[Any, ...]] = []
    for game_id in range(1, games + 1):
        a, b = rng.sample(range(1, PLAYERS + 1), 2)
        winner = rng.randrange(2)
        result = json.dumps({"winners": [winner], "scores": [100, 60] if winner == 0 else [60, 100]})
        game_rows.append((game_id, "pyrinoes", GUILD, CHANNEL, "{}", "finished", game_id, a, None, result))
        seat_rows += [(game_id, 0, a, None, f"p{a}", 0), (game_id, 1, b, None, f"p{b}", 0)]
    next_id = games + 1
    for n in range(ENTRANTS):  # a challenge: Continuous Pyramid, one entrant each
        status = "finished" if n % 4 else "active"
        result = json.dumps({"winners": [], "scores": [n], "details": {"tiles_placed": 60 + n, "undos": n % 3}})
        game_rows.append((next_id, "continuous-pyramid", GUILD, CHANNEL, "{}", status, next_id, 500 + n,
                          challenge, result if status == "finished" else None))
        seat_rows.append((next_id, 0, 500 + n, None, f"e{n}", 0))
        next_id += 1
    for n in range(25):  # ME's own games: 23 finished, 2 running
        status = "active" if n >= 23 else "finished"
        game_rows.append((next_id, "pyrinoes", GUILD, CHANNEL, "{}", status, next_id, ME, None,
                          json.dumps({"winners": [0]}) if status == "finished" else None))
        seat_rows += [(next_id, 0, ME, None, "me", 0), (next_id, 1, None, "easy", "", 0)]
        next_id += 1
    daily_rows: list[tuple[Any, ...]] = []
    start = date(2026, 1, 1)
    for offset in range(max(2, games // 1000)):  # the daily deal: 50 players of the server, most days
        day = (start + timedelta(days=offset)).isoformat()
        for user in range(1, DAILY_PLAYERS + 1):
            if rng.random() < 0.2:
                continue
            game_rows.append((next_id, "continuous-pyramid", None, CHANNEL, "{}", "finished", next_id, user, None,
                              json.dumps({"winners": [], "scores": [1]})))
            daily_rows.append((day, user, next_id, GUILD, CHANNEL, f"p{user}", day + "T10:00:00+00:00",
                               day + "T11:00:00+00:00"))
            next_id += 1
    conn.executemany("INSERT INTO games (id, kind, guild_id, channel_id, options, status, seed, created_by,"
                     " challenge_id, result, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     [(*row, T0, T0) for row in game_rows])
    conn.executemany("INSERT INTO seats (game_id, seat, user_id, ai_level, name, resigned, joined_at)"
                     " VALUES (?, ?, ?, ?, ?, ?, ?)", [(*row, T0) for row in seat_rows])
    conn.executemany("INSERT INTO ratings (scope, kind, user_id, mu, sigma, games, wins, losses, streak, best_streak,"
                     " last_game_id, updated_at) VALUES (?, 'pyrinoes', ?, ?, ?, ?, 0, 0, 0, 0, 0, ?)",
                     [(scope, user, 15 + rng.random() * 20, 2 + rng.random() * 4, 3 + user % 50, T0)
                      for scope in (GUILD, 0) for user in range(1, PLAYERS + 1)])
    conn.executemany("INSERT INTO daily_results (day, user_id, game_id, guild_id, channel_id, name, started_at,"
                     " finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", daily_rows)
    conn.commit()
    conn.close()


@dataclass
class Counter:
    """Statements the store ran and rows they returned (wrapping the database's reads)."""

    statements: list[str] = field(default_factory=list)
    rows: int = 0

    def wrap(self, db: Database) -> None:
        read_one, read_all = db.read_one, db.read_all

        async def one(sql: str, params: Iterable[Any] = ()) -> Any:
            self.statements.append(sql)
            row = await read_one(sql, params)
            self.rows += row is not None
            return row

        async def every(sql: str, params: Iterable[Any] = ()) -> Any:
            self.statements.append(sql)
            rows = await read_all(sql, params)
            self.rows += len(rows)
            return rows

        db.read_one, db.read_all = one, every  # type: ignore[method-assign]


def _newest(method: Callable[..., Awaitable[Any]], count: int) -> dict[str, int]:
    """``newest=count`` where the store takes it (older code read every game)."""
    return {"newest": count} if "newest" in inspect.signature(method).parameters else {}


def commands(db: Database) -> dict[str, Callable[[], Awaitable[Any]]]:
    """Each listing as its command runs it (without Discord: their texts)."""
    store = GameStore(db)
    catalogue = Catalogue.default()
    boards = Leaderboards(store, catalogue, cast(Any, None))
    ratings = Ratings(store, RatingStore(db), catalogue)
    lookup = store.games_of_user_in_channel
    daily = DailyStore(db)

    async def streaks() -> Any:
        """The daily deal's streak board, as ``/pyramid daily show:streaks`` reads it."""
        if hasattr(daily, "streak_board"):
            return await daily.streak_board(GUILD, date(2026, 6, 1), 15)
        players = await daily.server_players(GUILD)  # before: every result of the server's players
        return await daily.finished_days(players)

    return {
        "leaderboard (wins, challenge)": lambda: boards.server_text(GUILD, CHANNEL),
        "leaderboard game:pyrinoes": lambda: ratings.leaderboard_text(GUILD, "pyrinoes"),
        "stats": lambda: ratings.stats_text(7, GUILD, who="<@7>"),
        "games": lambda: store.games_of_user(ME, GUILD, ("lobby", "active"),
                                             **_newest(store.games_of_user, 20)),
        "history (lookup)": lambda: lookup(ME, CHANNEL, ("active", "finished"), **_newest(lookup, 25)),
        "daily (streaks)": streaks,
    }


@dataclass(frozen=True)
class Measured:
    seconds: float
    statements: int
    rows: int
    sql: tuple[str, ...]


async def measure(path: Path) -> tuple[float, dict[str, Measured]]:
    """Open ``path`` with the bot's store (migrating it: the seconds it took), then run
    every command once to warm up and once measured."""
    started = time.perf_counter()
    db = await SqliteDatabase.open(path)
    opened = time.perf_counter() - started
    try:
        out: dict[str, Measured] = {}
        for name, run in commands(db).items():
            await run()
            counter = Counter()
            counter.wrap(db)
            began = time.perf_counter()
            await run()
            seconds = time.perf_counter() - began
            del db.read_one, db.read_all  # back to the class's methods
            out[name] = Measured(seconds, len(counter.statements), counter.rows, tuple(counter.statements))
        return opened, out
    finally:
        await db.close()


async def prepared(path: Path, games: int) -> None:
    """An empty database at migration 0014, then seeded."""
    db = await SqliteDatabase.open(path, migrations=[m for m in bundled_migrations() if m.version <= 14])
    await db.close()
    seed(path, games)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.leaderboards", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--path", type=Path, default=None, help="the SQLite file (default: a temporary one)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        path = args.path or Path(folder) / "bench.sqlite3"
        began = time.perf_counter()
        asyncio.run(prepared(path, args.games))
        print(f"seeded {args.games:,} finished games in {time.perf_counter() - began:.1f} s ({path})")
        opened, results = asyncio.run(measure(path))
        print(f"opened (migrations applied) in {opened:.2f} s")
        print(f"{'command':32} {'ms':>9} {'statements':>11} {'rows':>8}")
        for name, m in results.items():
            print(f"{name:32} {m.seconds * 1000:9.1f} {m.statements:11,} {m.rows:8,}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
