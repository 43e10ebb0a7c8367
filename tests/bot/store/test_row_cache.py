"""Rows read on every click (a player's preferences, a server's settings, closed DMs, the
turn clock's rows, quiet hours, times away) are
kept in memory on SQLite, and any write that names their table, the store's or raw SQL,
makes the next read go to the database again. On PostgreSQL, where other processes
write, nothing is kept."""

from __future__ import annotations

from bot.store import GameStore, GuildSettings
from bot.store.availability import AvailabilityStore
from bot.store.clocks import ClockStore
from bot.store.players import PlayerStore


async def test_kept_rows_are_read_again_after_any_write_to_their_table(store: GameStore) -> None:
    db, players = store.db, PlayerStore(store.db)
    cache = db.rows
    assert cache.enabled == (db.dialect == "sqlite")
    assert (await players.prefs(7)).language is None
    await players.prefs(7)
    if cache.enabled:
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
    if db.rows.enabled:
        assert db.rows.hits == hits + 1, "the second read came from memory"
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
    if rows.enabled:
        assert rows.hits == hits + 2, "no write dropped the kept row"
    await players.note_locale(31, "en-US")
    assert (await players.prefs(31)).discord_locale == "en-US"
