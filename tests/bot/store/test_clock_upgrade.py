"""Upgrading to the clock takes no time from a running turn (issue #37): a turn running
when the clock came falls due exactly when the old per-turn timeout would have fired,
for a player with quiet hours (the old timeout did not count them) and for one back
from an away (the old timeout started afresh at the return), or with an away running
then. The upgrade is played for real: the games are written at schema 11 (before the
clock), then the bot opens the file and migrates it. These tests failed on the code
before the fix, which counted a full bank from the last move (45 h and 30 h lost)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.clock.clocks import Clocks
from bot.store import DatabaseTarget, GameStore
from bot.store.availability import AvailabilityStore
from bot.store.migrate import bundled_migrations
from tests.bot.clock import START, FakeClock
from tests.bot.store.test_clock_store import ANA, BEN, CHANNEL, GUILD_A, services_on

H = timedelta(hours=1)


def iso(at: datetime) -> str:
    return at.astimezone(UTC).isoformat(timespec="seconds")


async def running_before_the_clock(path: Path, clock: FakeClock, *, quiet: tuple[str, str] | None = None,
                                   aways: tuple[tuple[datetime, datetime], ...] = (),
                                   away_days: int | None = None) -> int:
    """A two-player game started at ``clock.now`` by the bot before the clock (schema 11), both
    players with the same quiet hours (UTC) and times away; returns its number."""
    target = DatabaseTarget.parse(path)
    db = await target.open(clock, migrations=bundled_migrations(target.dialect)[:11])
    try:
        assert db.schema_version == 11
        store = GameStore(db)
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO guild_settings (guild_id, timeout_hours) VALUES (?, 72)", (GUILD_A,))
            if away_days is not None:
                await conn.execute("UPDATE guild_settings SET away_days = ? WHERE guild_id = ?", (away_days, GUILD_A))
        game_id = await store.create_game("flaming-pyramids", created_by=ANA, guild_id=GUILD_A,
                                          channel_id=CHANNEL, options={}, seed=7)
        for user in (ANA, BEN):
            await store.add_seat(game_id, user_id=user, limit=4, name=str(user))
        await store.begin_game(game_id, min_players=2, max_players=4)
        async with db.transaction() as conn:
            for user in (ANA, BEN):
                if quiet is not None:
                    await conn.execute("INSERT INTO quiet_hours (user_id, starts, ends, zone, updated_at)"
                                       " VALUES (?, ?, ?, 'UTC', ?)", (user, *quiet, db.now()))
                for starts, ends in aways:
                    await conn.execute("INSERT INTO away_periods (user_id, starts_at, ends_at, guild_id, created_at)"
                                       " VALUES (?, ?, ?, ?, ?)", (user, iso(starts), iso(ends), GUILD_A, iso(starts)))
    finally:
        await db.close()
    return game_id


async def deadline_after_the_upgrade(path: Path, clock: FakeClock, game_id: int) -> datetime:
    async with services_on(path, clock) as services:
        assert services.db.schema_version == bundled_migrations()[-1].version
        turn = await Clocks(services).turn(await services.sessions.load(game_id))
        assert turn is not None
        return turn.deadline


async def test_nightly_quiet_hours_keep_their_old_deadline(tmp_path: Path) -> None:
    clock = FakeClock()  # Sunday 12:00 UTC
    game_id = await running_before_the_clock(tmp_path / "bot.db", clock, quiet=("22:00", "07:00"))
    clock.advance(hours=1)
    # The old timeout counted 72 h outside 22:00-07:00: 10 h on the first day, 15 h on each of the next
    # four, and 2 h on the sixth morning. The bank from the last move alone ran out 45 h earlier.
    deadline = await deadline_after_the_upgrade(tmp_path / "bot.db", clock, game_id)
    assert deadline == datetime(2026, 11, 27, 9, 0, tzinfo=UTC)


async def test_a_player_back_from_an_away_keeps_the_fresh_start_the_old_timeout_gave(tmp_path: Path) -> None:
    clock = FakeClock()
    away = (START + 30 * H, START + 78 * H)  # idle 30 h, then away two days, and back
    game_id = await running_before_the_clock(tmp_path / "bot.db", clock, aways=(away,))
    clock.advance(hours=80)
    deadline = await deadline_after_the_upgrade(tmp_path / "bot.db", clock, game_id)
    assert deadline == away[1] + 72 * H  # the old clock started afresh at the return


@pytest.mark.parametrize("away_days", [None, 2])
async def test_an_away_running_at_the_upgrade_keeps_its_old_deadline_and_back_still_counts(
    tmp_path: Path, away_days: int | None
) -> None:
    clock = FakeClock()
    away = (START + 30 * H, START + 30 * H + timedelta(days=5))  # longer than a server allowing 2 days away
    game_id = await running_before_the_clock(tmp_path / "bot.db", clock, aways=(away,), away_days=away_days)
    clock.advance(hours=40)
    path = tmp_path / "bot.db"
    assert await deadline_after_the_upgrade(path, clock, game_id) == away[1] + 72 * H
    clock.advance(hours=10)  # back early, after the upgrade: the old clock would restart at the return
    async with services_on(path, clock) as services:
        session = await services.sessions.load(game_id)
        user = session.seat(session.to_act).user_id
        await AvailabilityStore(services.db).end_away(user)
    assert await deadline_after_the_upgrade(path, clock, game_id) == START + 50 * H + 72 * H


async def test_a_plain_turn_falls_due_as_before_and_the_next_turn_is_on_the_clock(tmp_path: Path) -> None:
    clock = FakeClock()
    game_id = await running_before_the_clock(tmp_path / "bot.db", clock, quiet=("22:00", "07:00"))
    clock.advance(hours=5)
    path = tmp_path / "bot.db"
    async with services_on(path, clock) as services:
        session = await services.sessions.load(game_id)
        seat = session.seat(session.to_act)
        while (await services.sessions.load(game_id)).to_act == seat.seat:
            session = await services.sessions.load(game_id)
            await services.sessions.make_move(game_id, session.game.legal_moves(session.state)[0],
                                              user_id=seat.user_id)
        # The next turn began after the upgrade: a full bank from its start, quiet hours or not.
        turn = await Clocks(services).turn(await services.sessions.load(game_id))
        assert turn is not None and turn.deadline == clock.now + 72 * H
        # The mover kept what their (longer) old turn had left, never more than a full bank.
        assert await Clocks(services).store.bank(game_id, seat.seat) == 72 * 3600.0


async def test_on_a_database_already_on_the_clock_only_turns_from_before_it_are_kept(tmp_path: Path) -> None:
    """A database that took migrations 12-14 earlier: 0015 notes only the turns begun before 0012 was applied."""
    path = tmp_path / "bot.db"
    clock = FakeClock()
    old_game = await running_before_the_clock(path, clock, quiet=("22:00", "07:00"))
    target = DatabaseTarget.parse(path)
    db = await target.open(clock, migrations=bundled_migrations(target.dialect)[:14])  # the clock came (now)
    try:
        clock.now = datetime.now(UTC).replace(microsecond=0) + timedelta(days=1)  # a game begun on the clock, later
        store = GameStore(db)
        new_game = await store.create_game("flaming-pyramids", created_by=ANA, guild_id=GUILD_A,
                                           channel_id=CHANNEL, options={}, seed=8)
        for user in (ANA, BEN):
            await store.add_seat(new_game, user_id=user, limit=4, name=str(user))
        await store.begin_game(new_game, min_players=2, max_players=4)
    finally:
        await db.close()
    async with services_on(path, clock) as services:
        clocks = Clocks(services)
        assert await clocks.store.upgraded_turn(old_game) is not None
        assert await clocks.store.upgraded_turn(new_game) is None
        turn = await clocks.turn(await services.sessions.load(new_game))
        assert turn is not None and turn.deadline == clock.now + 72 * H  # quiet hours or not: the clock's rule
