"""Rows read on every click (a player's preferences, a server's settings, closed DMs, the
turn clock's rows, quiet hours, times away) are
kept in memory on SQLite, and any write that names their table, the store's or raw SQL,
makes the next read go to the database again. On PostgreSQL, where other processes
write, the rows whose writes every process announces are kept while the announcements
can be heard, and a write by another process reaches the kept rows within
moments; the clock's rows are never kept there."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import asyncpg
import pytest

from bot.store import DatabaseTarget, GameStore, GuildSettings
from bot.store.availability import AvailabilityStore
from bot.store.clocks import ClockStore
from bot.store.players import PlayerStore
from bot.store.postgres import PostgresDatabase
from tests.bot.clock import FakeClock


async def test_kept_rows_are_read_again_after_any_write_to_their_table(store: GameStore) -> None:
    db, players = store.db, PlayerStore(store.db)
    cache = db.rows
    assert cache.enabled  # SQLite: its only writer; PostgreSQL: hearing the others' writes
    assert (await players.prefs(7)).language is None
    await players.prefs(7)
    assert cache.hits >= 1, "the second read came from memory"
    await players.choose(7, language="de")  # through the store
    assert (await players.prefs(7)).language == "de"
    async with db.transaction() as conn:  # raw SQL, as an operator's script or a test would
        await conn.execute("UPDATE players SET language = 'en' WHERE user_id = 7")
    assert (await players.prefs(7)).language == "en"

    default = (await store.guild_settings(5)).max_open_games
    await store.save_guild_settings(GuildSettings(guild_id=5, max_open_games=default + 1))
    assert (await store.guild_settings(5)).max_open_games == default + 1

    assert await store.dm_status(9) == "open"
    await store.mark_dm_closed(9)
    assert await store.dm_status(9) == "closed"
    await store.mark_dm_closed(9, False)
    assert await store.dm_status(9) == "open"


async def test_a_rolled_back_write_leaves_nothing_stale(store: GameStore) -> None:
    players = PlayerStore(store.db)
    await players.choose(8, language="de")
    try:
        async with store.db.transaction() as conn:
            await conn.execute("UPDATE players SET language = 'en' WHERE user_id = 8")
            await players.prefs(8)  # read meanwhile, on the other connection: the committed row
            raise RuntimeError("changed my mind")
    except RuntimeError:
        pass
    assert (await players.prefs(8)).language == "de"


async def test_clock_rows_quiet_hours_and_aways_are_read_again_after_a_write(store: GameStore) -> None:
    """The rows every move's board and hand DMs read for the turn clock (a seat's bank,
    when the last move was made, the player's quiet hours and times away) are kept on
    SQLite, and each is read afresh after a write to its tables, by the store or raw SQL."""
    db = store.db
    clocks, aways = ClockStore(db), AvailabilityStore(db)
    gid = await store.create_game("flaming-pyramids", guild_id=1, channel_id=2, options={}, seed=3, created_by=11)

    assert await clocks.bank(gid, 0) is None
    await clocks.set_bank(gid, 0, 3600.0)  # a None kept from before must not survive the write
    assert await clocks.bank(gid, 0) == 3600.0
    hits = db.rows.hits
    assert await clocks.bank(gid, 0) == 3600.0
    kept = db.dialect == "sqlite"  # the clock's rows feed the next move's write: never kept on PostgreSQL
    assert ("seat_clocks" in db.rows.only) == kept
    assert db.rows.hits == hits + kept, "the second read came from memory (SQLite only)"
    async with db.transaction() as conn:
        await conn.execute("UPDATE seat_clocks SET bank_seconds = 60 WHERE game_id = ? AND seat = 0", (gid,))
    assert await clocks.bank(gid, 0) == 60.0

    assert await clocks.move_time(gid, 1) is None
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO moves (game_id, seq, seat, move, actor_id, created_at) VALUES (?, 1, 0, 'x',"
                           " NULL, '2026-01-01T00:00:00+00:00')", (gid,))
    assert await clocks.move_time(gid, 1) == "2026-01-01T00:00:00+00:00"
    async with db.transaction() as conn:
        await conn.execute("UPDATE moves SET created_at = '2026-01-02T00:00:00+00:00' WHERE game_id = ?", (gid,))
    assert await clocks.move_time(gid, 1) == "2026-01-02T00:00:00+00:00"

    assert await aways.quiet(21) is None
    await aways.set_quiet(21, "22:00", "07:00", "Europe/Berlin")
    assert (await aways.quiet(21)) is not None
    assert await aways.clear_quiet(21)
    assert await aways.quiet(21) is None

    since = "2000-01-01T00:00:00+00:00"
    assert await aways.aways(21, since) == []
    await aways.start_away(21, 1, "2099-01-01T00:00:00+00:00", since=since, decide=lambda rows, guilds: {1: 3})
    [away] = await aways.aways(21, since)
    async with db.transaction() as conn:  # the grant alone changes: the join's other table
        await conn.execute("UPDATE away_grants SET days = 5 WHERE user_id = 21")
    [again] = await aways.aways(21, since)
    assert again != away


async def test_a_locale_seen_again_writes_nothing(store: GameStore) -> None:
    """Noting the locale a player's client sends (every click) writes only when it changed:
    on SQLite the player's kept row then stays in memory (a write would drop it)."""
    players, rows = PlayerStore(store.db), store.db.rows
    await players.note_locale(31, "de")
    assert (await players.prefs(31)).discord_locale == "de"
    hits = rows.hits
    await players.note_locale(31, "de")
    assert (await players.prefs(31)).discord_locale == "de"
    assert rows.hits == hits + 2, "no write dropped the kept row"
    await players.note_locale(31, "en-US")
    assert (await players.prefs(31)).discord_locale == "en-US"


async def eventually(check: Callable[[], Awaitable[bool]], seconds: float = 20.0) -> bool:
    """Whether ``check`` comes true within ``seconds`` (a notice takes a moment to arrive)."""
    for _ in range(int(seconds / 0.05)):
        if await check():
            return True
        await asyncio.sleep(0.05)
    return await check()


@pytest.mark.postgres
async def test_postgresql_processes_hear_each_others_writes(postgres_url: str) -> None:
    """Two bot processes on one PostgreSQL database (two ``Database`` objects, each with
    its own pools and listener, as each process has): a row one keeps is read afresh
    once the other writes its table; the clock's rows are never kept; and when a process
    can no longer hear the notices it keeps nothing."""
    first = await DatabaseTarget.parse(postgres_url).open(FakeClock())
    second = await DatabaseTarget.parse(postgres_url).open(FakeClock())
    assert isinstance(first, PostgresDatabase) and isinstance(second, PostgresDatabase)
    operator = await asyncpg.connect(postgres_url)
    try:
        here, there = PlayerStore(first), PlayerStore(second)
        assert first.rows.enabled and second.rows.enabled
        assert (await here.prefs(41)).language is None
        hits = first.rows.hits
        assert (await here.prefs(41)).language is None
        assert first.rows.hits == hits + 1, "kept in memory"

        await there.choose(41, language="de")  # the other process writes
        assert await eventually(lambda: _language(here, 41, "de"))
        async with second.transaction() as conn:  # raw SQL through the other process's store
            await conn.execute("UPDATE players SET language = 'en' WHERE user_id = 41")
        assert await eventually(lambda: _language(here, 41, "en"))
        with pytest.raises(RuntimeError):  # a write rolled back announces nothing (and changes nothing)
            async with second.transaction() as conn:
                await conn.execute("UPDATE players SET language = 'de' WHERE user_id = 41")
                raise RuntimeError("changed my mind")
        assert (await here.prefs(41)).language == "en"

        await AvailabilityStore(first).quiet(41)
        await AvailabilityStore(second).set_quiet(41, "22:00", "07:00", "UTC")
        assert await eventually(lambda: _quiet(AvailabilityStore(first), 41))

        gid = await GameStore(second).create_game("flaming-pyramids", guild_id=1, channel_id=2, options={}, seed=3,
                                                  created_by=11)
        assert await ClockStore(first).bank(gid, 0) is None
        await ClockStore(second).set_bank(gid, 0, 5.0)
        assert await ClockStore(first).bank(gid, 0) == 5.0, "at once: never kept"

        pid = first._listener.get_server_pid() if first._listener is not None else None
        assert pid is not None
        await operator.execute("SELECT pg_terminate_backend($1)", pid)  # the listening connection is lost
        assert await eventually(lambda: _deaf(first))
        await operator.execute("UPDATE players SET language = 'de' WHERE user_id = 41")
        assert (await here.prefs(41)).language == "de", "nothing kept: read at once"
    finally:
        await operator.close()
        await first.close()
        await second.close()


async def _language(players: PlayerStore, user_id: int, language: str) -> bool:
    return (await players.prefs(user_id)).language == language


async def _quiet(aways: AvailabilityStore, user_id: int) -> bool:
    return await aways.quiet(user_id) is not None


async def _deaf(db: PostgresDatabase) -> bool:
    return not db.rows.enabled
