"""The daily deal's rows, on SQLite and PostgreSQL: one secret, one deal a day, one
daily game per player and day, a score recorded once, opted-in channels and the
day's results message."""

from __future__ import annotations

import asyncio

import pytest

from bot.daily.store import AlreadyPlayed, DailyStore, Score
from bot.store import GameStore
from tests.bot.clock import FakeClock

#: Discord ids are 64-bit: PostgreSQL must keep them whole (BIGINT).
ANA, BEN = 1_180_000_000_000_000_001, 1_180_000_000_000_000_002
GUILD, OTHER_GUILD = 1_190_000_000_000_000_001, 1_190_000_000_000_000_002
DM_ANA, DM_BEN = 1_200_000_000_000_000_001, 1_200_000_000_000_000_002
SEED = 2**63 - 5
OPTIONS = {"undo": True, "winnable_only": True, "edition": 2}


async def open_daily(daily: DailyStore, day: str, user: int, *, challenge_id: int, guild: int | None = GUILD,
                     dm: int = DM_ANA, name: str = "ana") -> int:
    return await daily.open_game(day, "continuous-pyramid", user_id=user, name=name, challenge_id=challenge_id,
                                 seed=SEED, options=OPTIONS, play_channel_id=dm, guild_id=guild,
                                 channel_id=(guild or 0) + 1)


async def test_the_secret_is_made_once_and_shared(store: GameStore) -> None:
    first, second = DailyStore(store.db), DailyStore(store.db)
    made = await asyncio.gather(*(s.secret("daily") for s in (first, second, first, second)))
    assert len(set(made)) == 1 and len(made[0]) == 32
    assert await second.secret("daily") == made[0]
    assert await first.secret("other") != made[0]
    rows = await store.db.read_all("SELECT name FROM bot_secrets ORDER BY name")
    assert [r[0] for r in rows] == ["daily", "other"]


async def test_a_day_has_one_deal(store: GameStore) -> None:
    daily = DailyStore(store.db)
    assert await daily.deal("2026-11-22") is None
    made = await asyncio.gather(*(daily.ensure_deal("2026-11-22", seed=SEED, options=OPTIONS) for _ in range(4)))
    assert len(set(made)) == 1
    assert await daily.deal("2026-11-22") == made[0]
    challenge = await store.get_challenge(made[0])
    assert challenge is not None and challenge.seed == SEED and challenge.options == OPTIONS
    assert challenge.guild_id is None and challenge.message_id is None
    # Another day, another deal (its seed is the caller's; the same one is kept for a day).
    other = await daily.ensure_deal("2026-11-23", seed=SEED - 1, options=OPTIONS)
    assert other != made[0]
    assert await daily.ensure_deal("2026-11-22", seed=1, options={}) == made[0]
    again = await store.get_challenge(made[0])
    assert again is not None and again.seed == SEED


async def test_one_daily_game_per_player_and_day(store: GameStore, clock: FakeClock) -> None:
    daily = DailyStore(store.db)
    deal = await daily.ensure_deal("2026-11-22", seed=SEED, options=OPTIONS)
    game_id = await open_daily(daily, "2026-11-22", ANA, challenge_id=deal)
    record = await store.game_record(game_id)
    assert record is not None
    assert (record.guild_id, record.channel_id, record.status) == (None, DM_ANA, "lobby")
    assert (record.seed, record.challenge_id, record.created_by) == (SEED, deal, ANA)
    assert [(s.seat, s.user_id, s.name) for s in await store.seats(game_id)] == [(0, ANA, "ana")]
    row = await daily.result("2026-11-22", ANA)
    assert row is not None and not row.finished
    assert (row.game_id, row.guild_id, row.channel_id, row.tiles) == (game_id, GUILD, GUILD + 1, None)

    with pytest.raises(AlreadyPlayed) as refused:  # from any server: one a day
        await open_daily(daily, "2026-11-22", ANA, challenge_id=deal, guild=OTHER_GUILD)
    assert refused.value.result.game_id == game_id
    # A double command: one game.
    results = await asyncio.gather(*(open_daily(daily, "2026-11-22", BEN, challenge_id=deal, dm=DM_BEN, name="ben")
                                     for _ in range(3)), return_exceptions=True)
    made = [r for r in results if isinstance(r, int)]
    assert len(made) == 1 and all(isinstance(r, AlreadyPlayed) for r in results if not isinstance(r, int))
    # The next day is another deal.
    clock.advance(days=1)
    tomorrow = await daily.ensure_deal("2026-11-23", seed=SEED - 1, options=OPTIONS)
    assert await open_daily(daily, "2026-11-23", ANA, challenge_id=tomorrow) not in (game_id, made[0])
    assert len(await store.challenge_games(deal)) == 2


async def test_a_score_is_recorded_once(store: GameStore, clock: FakeClock) -> None:
    daily = DailyStore(store.db)
    deal = await daily.ensure_deal("2026-11-22", seed=SEED, options=OPTIONS)
    game_id = await open_daily(daily, "2026-11-22", ANA, challenge_id=deal)
    clock.advance(minutes=30)
    first = await daily.record_score(game_id, Score(tiles=97, won=False, undos=2))
    assert first is not None and first.finished
    assert (first.tiles, first.won, first.undos, first.timed_out) == (97, False, 2, False)
    clock.advance(minutes=5)
    again = await daily.record_score(game_id, Score(tiles=144, won=True, undos=0, timed_out=True))
    assert again == first  # the game's end followed twice: nothing changes
    other = await store.create_game("continuous-pyramid", guild_id=GUILD, channel_id=5, options={}, seed=1,
                                    created_by=ANA)
    assert await daily.result_of_game(other) is None
    assert await daily.record_score(other, Score(tiles=1, won=False, undos=0)) is None
    assert await daily.result_of_game(game_id) == first


async def test_results_of_a_day_in_a_server_and_finished_days(store: GameStore, clock: FakeClock) -> None:
    daily = DailyStore(store.db)
    days = ["2026-11-20", "2026-11-21", "2026-11-22"]
    for n, day in enumerate(days):
        deal = await daily.ensure_deal(day, seed=SEED - n, options=OPTIONS)
        ana = await open_daily(daily, day, ANA, challenge_id=deal)
        await daily.record_score(ana, Score(tiles=100 + n, won=False, undos=n))
        if day != "2026-11-21":
            await open_daily(daily, day, BEN, challenge_id=deal, guild=OTHER_GUILD, dm=DM_BEN, name="ben")
        clock.advance(days=1)
    today = await daily.results_of_day("2026-11-22", GUILD)
    assert [(r.user_id, r.tiles) for r in today] == [(ANA, 102)]
    assert [r.user_id for r in await daily.results_of_day("2026-11-22", OTHER_GUILD)] == [BEN]
    assert await daily.finished_days([ANA, BEN, 7]) == {ANA: days, BEN: [], 7: []}
    assert await daily.finished_days([]) == {}
    assert await daily.server_players(GUILD) == {ANA: "ana"}
    assert await daily.server_players(OTHER_GUILD) == {BEN: "ben"}


async def test_channels_and_the_days_message(store: GameStore) -> None:
    daily = DailyStore(store.db)
    channel = GUILD + 10
    assert await daily.channels(GUILD) == []
    assert await daily.set_channel(GUILD, channel, True, by=ANA)
    assert not await daily.set_channel(GUILD, channel, True, by=ANA)  # already on
    assert await daily.set_channel(GUILD, channel + 1, True, by=ANA)
    assert await daily.channels(GUILD) == [channel, channel + 1]
    assert await daily.channels(OTHER_GUILD) == []
    assert not await daily.set_channel(OTHER_GUILD, channel, False, by=BEN)  # not that server's channel
    assert await daily.set_channel(GUILD, channel + 1, False, by=ANA)
    assert await daily.channels(GUILD) == [channel]

    message = 1_300_000_000_000_000_001
    assert await daily.post("2026-11-22", channel) is None
    assert await daily.record_post("2026-11-22", channel, message) == message
    assert await daily.record_post("2026-11-22", channel, message + 1) == message  # the first is the day's
    assert await daily.post("2026-11-22", channel) == message
    assert await daily.post("2026-11-23", channel) is None
    await daily.forget_post("2026-11-22", channel, message + 1)  # not the recorded one: kept
    assert await daily.post("2026-11-22", channel) == message
    await daily.forget_post("2026-11-22", channel, message)
    assert await daily.post("2026-11-22", channel) is None
