"""Wins per server, kept as games finish (issue #37), list exactly what reading every
finished game listed: for the games finished before migration 0015 (its backfill) and
for those finished after (by a final move, by a seat's leaving, twice over), on SQLite
and PostgreSQL."""

from __future__ import annotations

import json
import random

import pytest

from bot.store import DatabaseTarget, GameStore
from bot.store.database import Database
from bot.store.migrate import bundled_migrations
from bot.store.tallies import server_board
from tests.bot.clock import FakeClock

GUILDS = (11, 12)
T0 = "2026-01-01T00:00:00+00:00"


async def listed_the_old_way(db: Database, guild: int) -> list[tuple[int, int, int]]:
    """The listing as it was: every finished game of the server and its seats (the oracle)."""
    games = await db.read_all("SELECT id, result FROM games WHERE status = 'finished' AND guild_id = ? ORDER BY id",
                              (guild,))
    wins: dict[int, int] = {}
    played: dict[int, int] = {}
    for game in games:
        seats = await db.read_all("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game["id"],))
        winners = set((json.loads(game["result"]) if game["result"] else {}).get("winners", []))
        for seat in seats:
            if seat["user_id"] is None:
                continue
            user = int(seat["user_id"])
            played[user] = played.get(user, 0) + 1
            if seat["seat"] in winners and not seat["resigned"]:
                wins[user] = wins.get(user, 0) + 1
    ranking = sorted(played, key=lambda u: (-wins.get(u, 0), played[u]))
    return [(u, wins.get(u, 0), played[u]) for u in ranking[:15]]


def table(rng: random.Random) -> list[int | None]:
    people = rng.sample(range(1, 9), rng.randint(1, 3))
    return [*people, *([None] * rng.randint(0, 1))]


async def old_history(db: Database, rng: random.Random, games: int) -> None:
    """Games as a bot before 0015 left them, written directly."""
    async with db.transaction() as conn:
        for _ in range(games):
            status = rng.choice(["finished", "finished", "finished", "active", "cancelled"])
            winners = rng.sample(range(3), rng.randint(0, 2))
            result = json.dumps({"winners": winners}) if status == "finished" and rng.random() < 0.9 else None
            row = await conn.fetch_one(
                "INSERT INTO games (kind, guild_id, channel_id, options, status, seed, created_by, result,"
                " created_at, updated_at) VALUES ('pyrinoes', ?, 5, '{}', ?, 1, 1, ?, ?, ?) RETURNING id",
                (rng.choice(GUILDS), status, result, T0, T0))
            assert row is not None
            game_id = int(row[0])
            for seat, user in enumerate(table(rng)):
                await conn.execute(
                    "INSERT INTO seats (game_id, seat, user_id, ai_level, name, resigned, joined_at)"
                    " VALUES (?, ?, ?, ?, '', ?, ?)",
                    (game_id, seat, user, None if user else "easy", int(rng.random() < 0.2), T0))


async def new_history(store: GameStore, rng: random.Random, games: int) -> None:
    """Games the store finishes itself: by a final move, or by a leaving seat (some twice)."""
    for _ in range(games):
        seats = table(rng)
        game_id = await store.create_game("pyrinoes", created_by=1, guild_id=rng.choice(GUILDS), channel_id=5,
                                          options={}, seed=1)
        for user in seats:
            await store.add_seat(game_id, user_id=user, ai_level=None if user else "easy", limit=6)
        await store.begin_game(game_id, min_players=1, max_players=6)
        result = {"winners": rng.sample(range(len(seats)), rng.randint(0, 1))}
        how = rng.choice(["move", "leave", "leave twice", "running"])
        if how == "move":
            await store.append_move(game_id, 1, 0, "x", actor_id=seats[0], status="finished", result=result)
        elif how != "running":
            await store.set_seat_ai(game_id, len(seats) - 1, None if seats[-1] else "easy", resigned=True)
            await store.set_status(game_id, "finished", result=result)
            if how == "leave twice":
                await store.set_status(game_id, "finished", result=result)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
async def test_kept_wins_list_what_every_finished_game_lists(database_target: DatabaseTarget, seed: int) -> None:
    rng = random.Random(seed)
    dialect = "sqlite" if database_target.path is not None else "postgresql"
    clock = FakeClock()
    db = await database_target.open(clock, [m for m in bundled_migrations(dialect) if m.version <= 14])
    try:
        await old_history(db, rng, 30)
    finally:
        await db.close()
    db = await database_target.open(clock)  # migration 0015 counts what was finished before
    try:
        for guild in GUILDS:
            assert [(w.user_id, w.wins, w.played) for w in await server_board(db, guild, 15)] == \
                await listed_the_old_way(db, guild)
        await new_history(GameStore(db), rng, 25)
        for guild in GUILDS:
            assert [(w.user_id, w.wins, w.played) for w in await server_board(db, guild, 15)] == \
                await listed_the_old_way(db, guild)
    finally:
        await db.close()


async def test_a_listing_of_the_newest_games_reads_only_those(store: GameStore) -> None:
    """``newest``: the newest games matching, oldest first, as the full listing ends."""
    for _ in range(30):
        game_id = await store.create_game("pyrinoes", created_by=1, guild_id=11, channel_id=5, options={}, seed=1)
        await store.add_seat(game_id, user_id=7, limit=6)
    every = await store.games_of_user(7, 11, ("lobby",))
    assert len(every) == 30
    assert await store.games_of_user(7, 11, ("lobby",), newest=25) == every[-25:]
    assert await store.games_of_user_in_channel(7, 5, ("lobby",), newest=3) == every[-3:]
    assert await store.games_of_user(7, 12, ("lobby",), newest=25) == []
