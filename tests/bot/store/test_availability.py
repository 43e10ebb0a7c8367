"""Time away and quiet hours on SQLite and PostgreSQL: an away checked against the
budget in its own transaction, one at a time, ended early; the notices to the other
players written with it and claimed once; quiet hours kept as the player said them."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.store import GameStore
from bot.store.availability import AlreadyAway, AvailabilityStore, AwayRow
from tests.bot.clock import START, FakeClock

#: Discord ids are 64-bit: PostgreSQL must keep them whole (BIGINT).
ANA, BEN = 1_180_000_000_000_000_001, 1_180_000_000_000_000_002
GUILD, CHANNEL, THREAD = 1_190_000_000_000_000_001, 1_190_000_000_000_000_002, 1_190_000_000_000_000_003


class Refused(Exception):
    pass


def iso(days: float = 0) -> str:
    return (START + timedelta(days=days)).isoformat(timespec="seconds")


async def running_game(store: GameStore, *players: int, thread: int | None = THREAD) -> int:
    game_id = await store.create_game("flaming-pyramids", created_by=players[0], guild_id=GUILD,
                                      channel_id=CHANNEL, options={}, seed=7)
    for user in players:
        await store.add_seat(game_id, user_id=user, limit=4, name=str(user))
    await store.begin_game(game_id, min_players=1, max_players=4)
    if thread is not None:
        await store.set_thread(game_id, thread)
    return game_id


def allow(_rows: list[AwayRow], servers: set[int]) -> dict[int, int]:
    """Every server grants 3 days."""
    return dict.fromkeys(servers, 3)


async def test_going_away_writes_the_away_and_one_notice_per_running_game(store: GameStore) -> None:
    availability = AvailabilityStore(store.db)
    first = await running_game(store, ANA, BEN)
    second = await running_game(store, BEN, ANA, thread=None)
    lobby = await store.create_game("flaming-pyramids", created_by=ANA, guild_id=GUILD, channel_id=CHANNEL,
                                    options={}, seed=1)
    await store.add_seat(lobby, user_id=ANA, limit=4)
    handed_over = await running_game(store, ANA, BEN)
    await store.set_seat_ai(handed_over, 0, "normal")
    parked = await running_game(store, ANA, BEN)
    await store.park_game(parked, "gone")

    away, games = await availability.start_away(ANA, GUILD, iso(3), since=iso(-90), decide=allow)
    assert (away.user_id, away.starts_at, away.ends_at, away.guild_id) == (ANA, iso(), iso(3), GUILD)
    assert games == [first, second]  # not the lobby, the seat an AI plays, or the parked game
    assert await availability.current_away(ANA) == away
    assert await availability.current_away(BEN) is None
    untold = await availability.untold()
    assert [(n.game_id, n.kind, n.play_channel_id, n.ends_at) for n in untold] == [
        (first, "away", THREAD, iso(3)), (second, "away", CHANNEL, iso(3))]
    assert untold[0].guild_id == GUILD and await availability.untold(BEN) == []

    # One notice, one teller: two claims of the same row, one wins.
    wins = await asyncio.gather(*(availability.claim_notice(untold[0]) for _ in range(3)))
    assert sorted(wins) == [False, False, True]
    assert [n.game_id for n in await availability.untold(ANA)] == [second]
    await availability.release_notice(untold[0])  # the post failed: it waits for the next try
    assert len(await availability.untold(ANA)) == 2
    with pytest.raises(AlreadyAway) as already:
        await availability.start_away(ANA, GUILD, iso(5), since=iso(-90), decide=allow)
    assert already.value.away.ends_at == iso(3)


async def test_the_budget_check_sees_past_aways_and_refuses_inside_the_transaction(
    store: GameStore, clock: FakeClock
) -> None:
    availability = AvailabilityStore(store.db)
    await running_game(store, ANA, BEN)
    await availability.start_away(ANA, GUILD, iso(2), since=iso(-90), decide=allow)
    clock.advance(days=1)
    back = await availability.end_away(ANA)
    assert back is not None and back.ends_at == iso(1)  # ended early: only the day used counts
    assert await availability.end_away(ANA) is None and await availability.current_away(ANA) is None
    clock.advance(days=1)
    seen: list[list[AwayRow]] = []

    def refuse(rows: list[AwayRow], servers: set[int]) -> dict[int, int]:
        assert servers == {GUILD}
        seen.append(rows)
        raise Refused()

    with pytest.raises(Refused):
        await availability.start_away(ANA, GUILD, iso(12), since=iso(-88), decide=refuse)
    assert [(r.starts_at, r.ends_at) for r in seen[0]] == [(iso(0), iso(1))]
    assert await availability.current_away(ANA) is None  # nothing written
    assert [(r.starts, r.ends) for r in await availability.aways(ANA, iso(-90))] == [
        (START, START + timedelta(days=1))]
    assert await availability.aways(ANA, iso(1)) == []  # only aways ending after `since`


async def test_two_aways_at_once_start_one(store: GameStore) -> None:
    availability = AvailabilityStore(store.db)
    results = await asyncio.gather(
        *(availability.start_away(ANA, GUILD, iso(days), since=iso(-90), decide=allow) for days in (1, 2, 3)),
        return_exceptions=True,
    )
    started = [r for r in results if not isinstance(r, BaseException)]
    assert len(started) == 1 and all(isinstance(r, AlreadyAway) for r in results if r not in started)
    assert len(await availability.aways(ANA, iso(-90))) == 1


async def test_coming_back_tells_the_games_that_heard_of_the_away(store: GameStore, clock: FakeClock) -> None:
    availability = AvailabilityStore(store.db)
    told = await running_game(store, ANA, BEN)
    untold = await running_game(store, ANA, BEN)
    ended = await running_game(store, ANA, BEN)
    await availability.start_away(ANA, GUILD, iso(5), since=iso(-90), decide=allow)
    for notice in await availability.untold(ANA):
        if notice.game_id in (told, ended):
            assert await availability.claim_notice(notice)
    await store.set_status(ended, "finished")
    clock.advance(hours=30)
    away = await availability.end_away(ANA)
    assert away is not None
    # The away notice nobody posted is dropped; the game told of the away hears of the return,
    # the finished game hears nothing.
    assert [(n.game_id, n.kind) for n in await availability.untold(ANA)] == [(told, "back")]
    assert untold not in {n.game_id for n in await availability.untold()}


async def test_an_away_notice_is_no_news_once_the_away_is_over(store: GameStore, clock: FakeClock) -> None:
    availability = AvailabilityStore(store.db)
    await running_game(store, ANA, BEN)
    await availability.start_away(ANA, GUILD, iso(1), since=iso(-90), decide=allow)
    assert len(await availability.untold()) == 1
    clock.advance(days=1)
    assert await availability.untold() == []


async def test_quiet_hours_are_kept_as_said_and_removed(store: GameStore) -> None:
    availability = AvailabilityStore(store.db)
    assert await availability.quiet(ANA) is None
    await availability.set_quiet(ANA, "22:00", "07:00", "Europe/Berlin")
    await availability.set_quiet(BEN, "12:00", "13:30", "America/New_York")
    await availability.set_quiet(ANA, "23:00", "06:30", "Europe/Berlin")
    quiet = await availability.quiet(ANA)
    assert quiet is not None and (quiet.starts, quiet.ends, quiet.zone) == ("23:00", "06:30", "Europe/Berlin")
    assert await availability.clear_quiet(ANA)
    assert not await availability.clear_quiet(ANA)
    assert await availability.quiet(ANA) is None
    other = await availability.quiet(BEN)
    assert other is not None and other.zone == "America/New_York"


async def test_when_a_turn_was_reminded(store: GameStore, clock: FakeClock) -> None:
    availability = AvailabilityStore(store.db)
    game_id = await running_game(store, ANA, BEN)
    assert await availability.reminded_at(game_id, 0) is None
    clock.advance(hours=25)
    await store.mark_reminded(game_id, 0)
    assert await availability.reminded_at(game_id, 0) == (START + timedelta(hours=25)).isoformat(timespec="seconds")
    assert await availability.reminded_at(game_id, 1) is None
