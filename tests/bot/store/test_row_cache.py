"""Rows read on every click (a player's preferences, a server's settings, closed DMs) are
kept in memory on SQLite, and any write that names their table, the store's or raw SQL,
makes the next read go to the database again. On PostgreSQL, where other processes
write, nothing is kept."""

from __future__ import annotations

from bot.store import GameStore, GuildSettings
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
