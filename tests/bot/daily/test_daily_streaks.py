"""The daily deal's streak board, kept as daily games finish (issue #37), ranks exactly
as reading every daily result of the server's players did: for the results recorded
before migration 0015 (its count) and after, on SQLite and PostgreSQL."""

from __future__ import annotations

import random
from datetime import date, timedelta

import pytest

from bot.daily.deals import streak
from bot.daily.store import DailyStore, Run, Score
from bot.store import DatabaseTarget
from bot.store.database import Database
from bot.store.migrate import bundled_migrations
from tests.bot.clock import FakeClock

GUILDS = (21, 22)
START = date(2026, 3, 1)
DAYS = 40


async def board_the_old_way(store: DailyStore, guild: int, today: date) -> list[tuple[int, str, int, int]]:
    """The oracle: every result of the server's players, their days, their streaks."""
    players = await store.server_players(guild)
    played = await store.finished_days(players)
    runs = {user: streak(days, today) for user, days in played.items()}
    ranked = sorted((u for u in players if runs[u].best), key=lambda u: (-runs[u].current, -runs[u].best, u))
    return [(u, players[u], runs[u].current, runs[u].best) for u in ranked[:15]]


def kept(board: list[Run], today: date) -> list[tuple[int, str, int, int]]:
    return [(r.user_id, r.name, r.current(today), r.best) for r in board]


async def play_days(db: Database, rng: random.Random, first: int, last: int, *, old: bool) -> None:
    """Each player takes (and mostly finishes) the deal on some of the days; before 0015
    the rows are written directly, after it by the store."""
    store = DailyStore(db)
    for offset in range(first, last):
        day = (START + timedelta(days=offset)).isoformat()
        deal = await store.ensure_deal(day, seed=offset, options={})
        for user in range(1, 7):
            if rng.random() < 0.3:
                continue
            guild = rng.choice([*GUILDS, None])
            name = f"u{user}-{offset}"
            finished = rng.random() < 0.85
            if old:  # as a bot before 0015 wrote them
                at = day + "T12:00:00+00:00"
                async with db.transaction() as conn:
                    row = await conn.fetch_one(
                        "INSERT INTO games (kind, guild_id, channel_id, options, status, seed, created_by,"
                        " challenge_id, created_at, updated_at) VALUES ('continuous-pyramid', NULL, 9, '{}',"
                        " 'finished', 1, ?, ?, ?, ?) RETURNING id", (user, deal, at, at))
                    assert row is not None
                    await conn.execute(
                        "INSERT INTO daily_results (day, user_id, game_id, guild_id, channel_id, name, started_at,"
                        " finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (day, user, int(row[0]), guild, 5, name, at, at if finished else None))
                continue
            game_id = await store.open_game(day, "continuous-pyramid", user_id=user, name=name, challenge_id=deal,
                                            seed=offset, options={}, play_channel_id=9, guild_id=guild,
                                            channel_id=None if guild is None else 5)
            if finished:
                await store.record_score(game_id, Score(tiles=1, won=False, undos=0))


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_kept_streaks_rank_as_every_result_ranked(database_target: DatabaseTarget, seed: int) -> None:
    rng = random.Random(seed)
    dialect = "sqlite" if database_target.path is not None else "postgresql"
    clock = FakeClock()
    db = await database_target.open(clock, [m for m in bundled_migrations(dialect) if m.version <= 14])
    try:
        await play_days(db, rng, 0, DAYS // 2, old=True)
    finally:
        await db.close()
    db = await database_target.open(clock)
    try:
        store = DailyStore(db)
        for when in (DAYS // 2 - 1, DAYS // 2, DAYS // 2 + 3):
            today = START + timedelta(days=when)
            for guild in GUILDS:
                assert kept(await store.streak_board(guild, today, 15), today) == \
                    await board_the_old_way(store, guild, today)
        await play_days(db, rng, DAYS // 2, DAYS, old=False)
        for when in (DAYS - 1, DAYS, DAYS + 5):
            today = START + timedelta(days=when)
            for guild in GUILDS:
                assert kept(await store.streak_board(guild, today, 15), today) == \
                    await board_the_old_way(store, guild, today)
    finally:
        await db.close()
