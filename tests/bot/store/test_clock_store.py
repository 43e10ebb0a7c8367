"""The clock through the store: a move writes its mover's bank in its own transaction;
the games running at the upgrade (migration 0012) start their turn with a full bank and
keep their old deadline; each game hears of a player's away or return at most once a
day; and, by property (lighter than tests/bot/clock/test_clock.py), random sequences of away
(asked in the game's server, another one, or a DM), back, quiet hours, moves and time
passing, played through the real store, sessions and clocks, never keep a seat past the
bound the README documents."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any, cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.clock.clocks import Clocks
from bot.config.settings import load_settings
from bot.core.services import Services
from bot.posting.away import Availability, OverBudget
from bot.store import DatabaseTarget, GameStore, GuildSettings
from bot.store.availability import AvailabilityStore, AwayRow
from bot.store.database import Conflict
from bot.store.migrate import bundled_migrations
from tests.bot.clock import START, FakeClock

ANA, BEN = 1_180_000_000_000_000_001, 1_180_000_000_000_000_002
GUILD_A, GUILD_B, CHANNEL = 1_190_000_000_000_000_001, 1_190_000_000_000_000_005, 1_190_000_000_000_000_002
H = timedelta(hours=1)
_files = itertools.count()


@asynccontextmanager
async def services_on(path: Path, clock: FakeClock) -> AsyncIterator[Services]:
    """The bot's services (no Discord) on a SQLite file, with the clock kept by each move."""
    bot_settings = load_settings(discord_token="x", database=str(path), render_workers=0, backup_hours=0)
    services = await Services.open(bot_settings, clock)
    services.sessions.clocks = Clocks(services)
    try:
        yield services
    finally:
        await services.close()


async def two_player_game(services: Services, guild_id: int | None = GUILD_A) -> int:
    store = services.store
    game_id = await store.create_game("flaming-pyramids", created_by=ANA, guild_id=guild_id, channel_id=CHANNEL,
                                      options={}, seed=7)
    for user in (ANA, BEN):
        await store.add_seat(game_id, user_id=user, limit=4, name=str(user))
    await services.sessions.start(game_id)
    return game_id


async def move(services: Services, game_id: int) -> None:
    """Whoever is to act plays their first legal move."""
    session = await services.sessions.load(game_id)
    seat = session.seat(session.to_act) if session.to_act is not None else None
    assert seat is not None and seat.user_id is not None
    await services.sessions.make_move(game_id, session.game.legal_moves(session.state)[0], user_id=seat.user_id)


async def test_a_move_keeps_its_movers_bank(tmp_path: Path) -> None:
    clock = FakeClock()
    async with services_on(tmp_path / "bot.db", clock) as services:
        await services.store.save_guild_settings(GuildSettings(guild_id=GUILD_A, timeout_hours=72.0,
                                                               increment_hours=24.0))
        game_id = await two_player_game(services)
        clocks = Clocks(services)
        session = await services.sessions.load(game_id)
        first = session.to_act
        assert first is not None
        turn = await clocks.turn(session)
        assert turn is not None and turn.bank == 72 * H and turn.deadline == START + 72 * H
        clock.advance(hours=30)
        while (await services.sessions.load(game_id)).to_act == first:
            await move(services, game_id)
        assert await clocks.store.bank(game_id, first) == (72 - 30 + 24) * 3600.0
        # The other seat's turn began with that move, on a full bank.
        session = await services.sessions.load(game_id)
        turn = await clocks.turn(session)
        assert turn is not None and turn.started == clock.now and turn.bank == 72 * H


async def test_games_running_at_the_upgrade_start_their_turn_with_a_full_bank(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    target = DatabaseTarget.parse(path)
    clock = FakeClock()
    db = await target.open(clock, migrations=bundled_migrations(target.dialect)[:11])
    try:
        assert db.schema_version == 11
        store = GameStore(db)
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, reminder_hours, timeout_hours) VALUES (?, 12, 48)", (GUILD_A,))
        game_id = await store.create_game("flaming-pyramids", created_by=ANA, guild_id=GUILD_A,
                                          channel_id=CHANNEL, options={}, seed=7)
        for user in (ANA, BEN):
            await store.add_seat(game_id, user_id=user, limit=4, name=str(user))
    finally:
        await db.close()
    async with services_on(path, clock) as services:
        assert services.db.schema_version >= 12
        await services.sessions.start(game_id)
        clock.advance(hours=10)
        await move(services, game_id)
        session = await services.sessions.load(game_id)
        # Written the way the old bot wrote it: no bank kept for anyone.
        async with services.db.transaction() as conn:
            await conn.execute("DELETE FROM seat_clocks")
        clock.advance(hours=5)
        turn = await Clocks(services).turn(session)
        assert turn is not None and turn.bank == 48 * H  # a full bank (the server's timeout_hours)
        assert turn.deadline == START + 10 * H + 48 * H  # the old timeout: 48 h after the last move
        assert turn.reminder_due == START + 10 * H + 12 * H  # the old reminder: 12 h after it


async def test_a_game_hears_of_a_players_away_or_return_at_most_once_a_day(store: GameStore, clock: FakeClock) -> None:
    availability = AvailabilityStore(store.db)
    game_id = await store.create_game("flaming-pyramids", created_by=ANA, guild_id=GUILD_A, channel_id=CHANNEL,
                                      options={}, seed=7)
    for user in (ANA, BEN):
        await store.add_seat(game_id, user_id=user, limit=4, name=str(user))
    await store.begin_game(game_id, min_players=1, max_players=4)

    def grant(_rows: list[AwayRow], servers: set[int]) -> dict[int, int]:
        return dict.fromkeys(servers, 1)

    posted: list[str] = []
    for _ in range(15):  # away and back a minute apart, each notice posted at once
        await availability.start_away(ANA, GUILD_A, (clock.now + timedelta(days=1)).isoformat(timespec="seconds"),
                                      since=(clock.now - timedelta(days=90)).isoformat(), decide=grant)
        for notice in await availability.untold(ANA):
            assert await availability.claim_notice(notice)
            posted.append(notice.kind)
        clock.advance(seconds=30)
        await availability.end_away(ANA)
        for notice in await availability.untold(ANA):
            assert await availability.claim_notice(notice)
            posted.append(notice.kind)
        clock.advance(seconds=30)
    assert posted == ["away"]
    clock.advance(days=1)
    await availability.start_away(ANA, GUILD_A, (clock.now + timedelta(days=1)).isoformat(timespec="seconds"),
                                  since=(clock.now - timedelta(days=90)).isoformat(), decide=grant)
    assert [n.kind for n in await availability.untold(ANA)] == ["away"]  # a day later: news again


# --- the bound, by property, through the store ------------------------------------------------

steps = st.lists(st.one_of(
    st.tuples(st.just("wait"), st.integers(1, 4 * 24)),  # hours
    st.tuples(st.just("away"), st.integers(1, 30), st.sampled_from(["A", "B", "DM"])),
    st.tuples(st.just("back")),
    st.tuples(st.just("quiet"), st.integers(0, 23), st.integers(1, 12)),
    st.tuples(st.just("move")),
), min_size=1, max_size=25)
servers = st.tuples(st.integers(2, 240), st.integers(0, 72), st.integers(0, 30), st.sampled_from([7, 30, 90]))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(servers, steps)
def test_no_sequence_through_the_store_keeps_a_seat_past_the_bound(
    tmp_path: Path, server: tuple[int, int, int, int], commands: list[tuple[Any, ...]]
) -> None:
    asyncio.run(play_sequence(tmp_path / f"bot{next(_files)}.db", server, commands))


async def play_sequence(path: Path, server: tuple[int, int, int, int], commands: list[tuple[Any, ...]]) -> None:
    bank_hours, increment, away_days, window = server
    clock = FakeClock()
    async with services_on(path, clock) as services:
        store = services.store
        await store.save_guild_settings(GuildSettings(
            guild_id=GUILD_A, timeout_hours=float(bank_hours), reminder_hours=1.0,
            increment_hours=float(min(increment, bank_hours)), away_days=away_days,
            away_window_days=max(window, away_days)))
        await store.save_guild_settings(GuildSettings(guild_id=GUILD_B, away_days=60, away_window_days=60))
        game_id = await two_player_game(services)
        await two_player_game(services, GUILD_B)
        clocks = Clocks(services)
        availability = Availability(services, cast(Any, None), cast(Any, None))
        rules = await clocks.rules(GUILD_A)
        assert rules.bound == timedelta(hours=bank_hours, days=away_days)
        for command in commands:
            session = await services.sessions.load(game_id)
            if session.over:
                return
            match command:
                case ("wait", hours):
                    clock.advance(hours=hours)
                case ("away", days, where):
                    guild = {"A": GUILD_A, "B": GUILD_B, "DM": None}[where]
                    try:
                        await availability.go_away(ANA, guild, days)
                    except (OverBudget, Conflict, Exception) as exc:  # noqa: BLE001 - refusals change nothing
                        assert type(exc).__name__ in {"OverBudget", "AwayDisabled", "AlreadyAway", "Conflict"}
                case ("back",):
                    await availability.come_back(ANA)
                case ("quiet", start, length):
                    await availability.store.set_quiet(ANA, f"{start:02d}:00", f"{(start + length) % 24:02d}:00",
                                                       "UTC")
                case ("move",):
                    if session.seat(session.to_act or 0) is not None:
                        await move(services, game_id)
            session = await services.sessions.load(game_id)
            if session.over or session.to_act is None:
                return
            turn = await clocks.turn(session)
            assert turn is not None
            assert turn.deadline - turn.started <= rules.bound
            assert timedelta() <= turn.bank <= rules.bank
            if turn.timed_out(clock.now):  # what the sweep does: an AI takes the seat; this game is done
                return
            assert clock.now - turn.started < rules.bound


@pytest.mark.parametrize("where", [GUILD_B, None])
async def test_an_away_asked_elsewhere_pauses_this_game_only_by_its_own_grant(tmp_path: Path,
                                                                               where: int | None) -> None:
    clock = FakeClock()
    async with services_on(tmp_path / "bot.db", clock) as services:
        await services.store.save_guild_settings(GuildSettings(guild_id=GUILD_A, away_days=1, away_window_days=90))
        await services.store.save_guild_settings(GuildSettings(guild_id=GUILD_B, away_days=60, away_window_days=60))
        game_id = await two_player_game(services)
        session = await services.sessions.load(game_id)
        acting = session.seat(session.to_act) if session.to_act is not None else None
        if acting is not None and acting.user_id != ANA:
            await move(services, game_id)
        availability = Availability(services, cast(Any, None), cast(Any, None))
        started = await availability.go_away(ANA, where, 29)
        assert started.days == {game_id: 1}
        turn = await Clocks(services).turn(await services.sessions.load(game_id))
        assert turn is not None and turn.deadline == turn.started + 72 * H + timedelta(days=1)
