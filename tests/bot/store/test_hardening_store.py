"""The store's own guards, against real SQLite files: atomic game starts and entries,
the per-user cap on open games, and bounded server settings (migration 0004)."""

from __future__ import annotations

import asyncio
import json
import math

import pytest
from pydantic import ValidationError

from bot.store import DatabaseTarget, GameStore, GuildSettings, LobbyError
from bot.store.lobbies import AlreadyEntered, TooManyOpenGames
from bot.store.migrate import bundled_migrations


async def open_one(store: GameStore, user: int = 7, guild: int = 1, **extra: object) -> int:
    return await store.open_game("flaming-pyramids", guild_id=guild, channel_id=2, options={}, seed=3,
                                 created_by=user, name="u", **extra)  # type: ignore[arg-type]


async def test_open_game_seats_the_opener_in_the_same_write(store: GameStore) -> None:
    game_id = await open_one(store)
    record = await store.game_record(game_id)
    seats = await store.seats(game_id)
    assert record is not None and record.status == "lobby" and record.created_by == 7
    assert [(s.seat, s.user_id, s.name) for s in seats] == [(0, 7, "u")]


async def test_a_burst_of_opens_stops_at_the_cap(store: GameStore) -> None:
    async def attempt() -> bool:
        try:
            await open_one(store)
        except TooManyOpenGames:
            return False
        return True

    wins = await asyncio.gather(*(attempt() for _ in range(12)))
    assert sum(wins) == 3
    assert len([g for g in await store.all_games() if g.created_by == 7]) == 3
    # Per user and per server.
    await open_one(store, user=8)
    await open_one(store, guild=99)
    # Finished and cancelled games don't count; the server's setting moves the cap.
    first = next(g for g in await store.all_games() if g.created_by == 7)
    await store.set_status(first.id, "cancelled")
    await open_one(store)
    with pytest.raises(TooManyOpenGames, match="3 open games"):
        await open_one(store)
    await store.save_guild_settings(GuildSettings(guild_id=1, max_open_games=4))
    await open_one(store)
    with pytest.raises(TooManyOpenGames, match="4 open games"):
        await open_one(store)


async def test_entering_a_challenge_twice_at_once_makes_one_game(store: GameStore) -> None:
    challenge = await store.create_challenge(guild_id=1, channel_id=2, seed=5, options={}, created_by=1)

    async def enter() -> int | None:
        try:
            return await store.open_game("continuous-pyramid", guild_id=1, channel_id=2, options={}, seed=5,
                                         created_by=7, name="u", challenge_id=challenge)
        except AlreadyEntered as exc:
            assert exc.game_id > 0
            return None

    made = [g for g in await asyncio.gather(*(enter() for _ in range(6))) if g is not None]
    assert len(made) == 1
    assert len(await store.challenge_games(challenge)) == 1


async def test_begin_game_freezes_the_seats_and_refuses_later_changes(store: GameStore) -> None:
    game_id = await open_one(store)
    await store.add_seat(game_id, user_id=8, limit=6, name="b")
    with pytest.raises(LobbyError, match="needs at least 3"):
        await store.begin_game(game_id, min_players=3, max_players=6)
    seats = await store.begin_game(game_id, min_players=2, max_players=6)
    assert [s.user_id for s in seats] == [7, 8]
    record = await store.game_record(game_id)
    assert record is not None and record.status == "active"
    with pytest.raises(LobbyError):
        await store.add_seat(game_id, user_id=9, limit=6)
    with pytest.raises(LobbyError):
        await store.remove_seat(game_id, 1)
    with pytest.raises(LobbyError, match="already started"):
        await store.begin_game(game_id, min_players=2, max_players=6)
    # A set-up that fails hands the lobby back, as long as nothing was played.
    assert await store.reopen_lobby(game_id)
    assert (await store.game_record(game_id)).status == "lobby"  # type: ignore[union-attr]


@pytest.mark.parametrize("bad", [
    {"reminder_hours": -5.0}, {"reminder_hours": 0.5}, {"reminder_hours": 721.0}, {"reminder_hours": math.nan},
    {"timeout_hours": 1e308}, {"timeout_hours": math.inf}, {"timeout_hours": 2161.0}, {"timeout_hours": 0.5},
    {"reminder_hours": 10.0, "timeout_hours": 10.0}, {"max_open_games": 0}, {"max_open_games": 26},
])
def test_guild_settings_are_bounded(bad: dict[str, float]) -> None:
    with pytest.raises(ValidationError):
        GuildSettings(guild_id=1, **bad)


async def test_the_store_revalidates_settings_it_is_given(store: GameStore) -> None:
    forged = GuildSettings.model_construct(guild_id=1, use_threads=True, reminder_hours=None,
                                           timeout_hours=1e308, timeout_action="ai", max_open_games=3)
    with pytest.raises(ValueError, match="timeout_hours"):
        await store.save_guild_settings(forged)
    assert await store.guild_settings(1) == GuildSettings(guild_id=1)
    await store.save_guild_settings(GuildSettings(guild_id=1, reminder_hours=1, timeout_hours=2160, max_open_games=25))
    assert (await store.guild_settings(1)).max_open_games == 25


async def test_migration_0004_brings_old_rows_into_bounds(database_target: DatabaseTarget) -> None:
    """Settings saved under the old, looser limits (and lobbies opened with forged
    options) stay loadable after the upgrade."""
    migrations = bundled_migrations(database_target.dialect)
    db = await database_target.open(migrations=[m for m in migrations if m.version < 4])
    try:
        async with db.transaction() as conn:
            await conn.execute_many(
                "INSERT INTO guild_settings (guild_id, use_threads, reminder_hours, timeout_hours, timeout_action)"
                " VALUES (?, ?, ?, ?, ?)",
                [(1, 1, 0.05, 0.1, "ai"), (2, 1, 800.0, 5000.0, "ai"), (3, 0, None, None, "forfeit"),
                 (4, 1, 30.0, 20.0, "ai")])
            await conn.execute_many(
                "INSERT INTO games (kind, channel_id, options, status, seed, created_at, updated_at)"
                " VALUES (?, 1, ?, 'lobby', 1, 'x', 'x')",
                [("pyrinoes", '{"target": 1}'), ("flaming-pyramids", '{"turn_limit": 1000000000000}'),
                 ("pyrinoes", '{"target": 50}')])
    finally:
        await db.close()
    db = await database_target.open()
    try:
        assert db.schema_version == migrations[-1].version
        rows = await db.read_all("SELECT * FROM guild_settings ORDER BY guild_id")
        settings = [GuildSettings.model_validate(dict(r)) for r in rows]  # every row loads
        assert [(s.reminder_hours, s.timeout_hours) for s in settings] == [
            (1.0, 3.0), (720.0, 2160.0), (None, None), (30.0, 90.0)]
        assert all(s.max_open_games == 3 for s in settings)
        options = [json.loads(r[0]) for r in await db.read_all("SELECT options FROM games ORDER BY id")]
        assert options == [{"target": 10}, {"turn_limit": 2000}, {"target": 50}]
    finally:
        await db.close()
