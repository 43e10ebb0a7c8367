"""The queue's statements for matches across servers, on SQLite and PostgreSQL (migration 0021): an
entry across servers is its player's only one for its game, whichever server; leaving from any server
takes it out; a match writes a game of no server played in DMs, in one transaction with both entries
out; and a match left a lobby is found for the sweep only once it is a minute old."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.seeks.store import Entry, SeekStore
from bot.store import DatabaseTarget, GameStore
from tests.bot.clock import FakeClock


@pytest.fixture
async def stores(database_target: DatabaseTarget) -> AsyncIterator[tuple[SeekStore, GameStore, FakeClock]]:
    clock = FakeClock()
    db = await database_target.open(clock)
    yield SeekStore(db), GameStore(db), clock
    await db.close()


def entry(clock: FakeClock, guild: int, user: int, *, across: bool) -> Entry:
    return Entry(guild, "pyrinoes", user, f"p{user}", guild * 10, 1.5, clock.now, across, 2.5 if across else None)


async def test_one_entry_across_servers_per_player_and_game(stores: tuple[SeekStore, GameStore, FakeClock]) -> None:
    seeks, _games, clock = stores
    assert await seeks.enter(entry(clock, 1, 100, across=True))
    assert not await seeks.enter(entry(clock, 2, 100, across=True))  # not from another server either
    assert not await seeks.enter(entry(clock, 2, 100, across=False))  # nor a server's own entry beside it
    assert await seeks.enter(entry(clock, 1, 200, across=False))
    assert not await seeks.enter(entry(clock, 2, 200, across=True))  # a server entry first: no entry across
    [waiting_across, waiting_home] = await seeks.waiting()
    assert (waiting_across.across, waiting_across.wide_rating) == (True, 2.5)
    assert (waiting_home.across, waiting_home.wide_rating) == (False, None)
    assert await seeks.leave(2, "pyrinoes", 100)  # left from another server
    assert not await seeks.leave(2, "pyrinoes", 200)  # a server's own entry stays its server's
    assert [e.user_id for e in await seeks.waiting()] == [200]


async def test_a_match_across_servers_writes_a_game_in_dms(stores: tuple[SeekStore, GameStore, FakeClock]) -> None:
    seeks, games, clock = stores
    first, second = entry(clock, 1, 100, across=True), entry(clock, 2, 200, across=True)
    assert await seeks.enter(first) and await seeks.enter(second)
    game_id = await seeks.match_across(first, second, {}, 5, (1000, 2000))
    assert game_id is not None and await seeks.waiting() == []
    record = await games.game_record(game_id)
    assert record is not None and record.seat_dms and record.guild_id is None and record.channel_id == 1000
    assert [s.user_id for s in await games.seats(game_id)] == [100, 200]
    assert await seeks.match_across(first, second, {}, 5, (1000, 2000)) is None  # written once
    assert await seeks.open_dm_games(100) == 1 and await seeks.open_dm_games(300) == 0
    assert await seeks.unstarted_dm_games() == []  # it may still be telling its players
    clock.advance(seconds=61)
    assert await seeks.unstarted_dm_games() == [game_id]
    assert await seeks.put_back(first) and [e.joined_at for e in await seeks.waiting()] == [
        first.joined_at]  # back in its place
