"""The tournaments' store (migration 0018) on both backends: a round is paired exactly once
however many processes write it at the same moment (its primary key), a sign-up is taken
once and never past the most entrants (checked in the transaction that writes it), and a
second migration of one number is refused rather than one of them picked by chance."""

from __future__ import annotations

import asyncio
import itertools
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.store import DatabaseTarget, GameStore, SqliteDatabase
from bot.store.migrate import SchemaError, bundled_migrations
from bot.tournaments.store import AlreadyIn, Full, Table, TournamentStore
from tests.bot.clock import FakeClock

_files = itertools.count()


async def a_tournament(tournaments: TournamentStore, players: int) -> int:
    number = await tournaments.create(guild_id=1, channel_id=2, name="Cup", kind="pyrinoes", format="swiss",
                                      rounds=3, table_size=None, starts_at=datetime(2026, 1, 1, tzinfo=UTC),
                                      round_hours=48, rated=True, created_by=10)
    for user in range(players):
        assert await tournaments.join(number, 100 + user, f"p{user}", 1500.0) == user + 1
    return number


async def test_a_round_written_by_two_processes_at_once_is_paired_once(database_target: DatabaseTarget,
                                                                      clock: FakeClock) -> None:
    first_db, second_db = await database_target.open(clock), await database_target.open(clock)
    try:
        first, second = TournamentStore(first_db), TournamentStore(second_db)
        number = await a_tournament(first, 4)
        t = await first.get(number)
        assert t is not None
        tables = [Table(((100, "p0", 1), (101, "p1", 2)), 1), Table(((102, "p2", 3), (103, "p3", 4)), 2)]
        deadline = datetime(2026, 1, 3, tzinfo=UTC)
        wrote = await asyncio.gather(*(store.write_round(t, 1, deadline, tables, [], {})
                                       for store in (first, second, first, second)))
        assert sorted(wrote) == [False, False, False, True]
        games = await first.games(number)
        assert [(g.round, g.board) for g in games] == [(1, 0), (1, 1)]
        seats = [s.user_id for g in games for s in await GameStore(first_db).seats(g.game_id)]
        assert seats == [100, 101, 102, 103]
        assert [r.round for r in await second.rounds(number)] == [1]
        # The next round is another key: written once too.
        assert await second.write_round(t, 2, deadline + timedelta(days=2), tables[:1], [(3, 1.0), (4, 1.0)], {})
        assert not await first.write_round(t, 2, deadline, tables, [], {})
        assert [b for b in await first.byes(number)] == [(2, 3, 1.0), (2, 4, 1.0)]
    finally:
        await first_db.close()
        await second_db.close()


async def test_sign_up_closes_at_the_start_and_withdrawals_keep_finished_games(database_target: DatabaseTarget,
                                                                              clock: FakeClock) -> None:
    db = await database_target.open(clock)
    try:
        store = TournamentStore(db)
        number = await a_tournament(store, 3)
        assert await store.withdraw(number, 102, 0)  # before the start: struck out
        assert [e.user_id for e in await store.entrants(number)] == [100, 101]
        assert await store.move_on(number, "signup", "running", rounds=2)
        assert not await store.move_on(number, "signup", "running")  # once
        assert await store.join(number, 104, "late", 0.0) == 0  # a late joiner is refused
        assert await store.withdraw(number, 101, 1)
        assert not await store.withdraw(number, 101, 1)
        assert [(e.user_id, e.withdrawn_round) for e in await store.entrants(number)] == [(100, None), (101, 1)]
    finally:
        await db.close()


def test_two_migrations_of_one_number_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib import resources

    folder = tmp_path / "migrations"
    folder.mkdir()
    for migration in bundled_migrations():
        (folder / f"{migration.version:04d}_{migration.name}.sql").write_text(migration.sql)
    (folder / "0001_another.sql").write_text("SELECT 1;")
    monkeypatch.setattr(resources, "files", lambda _package: folder)
    with pytest.raises(SchemaError, match="Two migrations are numbered 0001"):
        bundled_migrations()


async def test_sign_ups_at_the_same_moment_fill_the_last_places_once(database_target: DatabaseTarget,
                                                                     clock: FakeClock) -> None:
    """Two processes, eight players for three places, one of them clicking twice: three entries, numbered
    1 to 3, one per player; the others are told the tournament is full (or that they are in already)."""
    first_db, second_db = await database_target.open(clock), await database_target.open(clock)
    try:
        stores = (TournamentStore(first_db), TournamentStore(second_db))
        number = await a_tournament(stores[0], 0)

        async def sign_up(n: int, user: int) -> int | str:
            try:
                return await stores[n % 2].join(number, user, f"u{user}", 0.0, most=3)
            except Full:
                return "full"
            except AlreadyIn:
                return "already"

        said = await asyncio.gather(*(sign_up(n, user) for n, user in enumerate([200, 200, *range(201, 208)])))
        entrants = await stores[1].entrants(number)
        assert [e.entrant for e in entrants] == [1, 2, 3] and len({e.user_id for e in entrants}) == 3
        assert sorted(x for x in said if isinstance(x, int)) == [1, 2, 3]
        assert said.count("full") + said.count("already") == 6
    finally:
        await first_db.close()
        await second_db.close()


async def test_the_cards_leave_strikes_out_a_sign_up_and_never_withdraws_from_games(
        database_target: DatabaseTarget, clock: FakeClock) -> None:
    db = await database_target.open(clock)
    try:
        store = TournamentStore(db)
        number = await a_tournament(store, 3)
        assert await store.strike_out(number, 100)
        assert not await store.strike_out(number, 100)  # not in (any more)
        assert await store.move_on(number, "signup", "running", rounds=2)
        assert not await store.strike_out(number, 101)  # started: the command's withdrawal, not the button's
        assert [(e.user_id, e.withdrawn_round) for e in await store.entrants(number)] == [(101, None), (102, None)]
    finally:
        await db.close()


SIGN_UPS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
STEPS = st.lists(st.tuples(st.sampled_from(["join", "leave", "start"]), st.integers(0, 5)), max_size=25)


@SIGN_UPS
@given(most=st.integers(1, 4), steps=STEPS)
def test_sign_ups_follow_the_rule_whatever_the_order(tmp_path: Path, most: int, steps: list[tuple[str, int]]
                                                     ) -> None:
    """Over any order of joins, leaves and the start: in only during the sign-up, once, never more than
    ``most``; a leave strikes out only a sign-up; a new entrant is numbered after everyone in."""
    asyncio.run(_sign_up_property(tmp_path / f"s{next(_files)}.db", most, steps))


async def _sign_up_property(path: Path, most: int, steps: list[tuple[str, int]]) -> None:
    db = await SqliteDatabase.open(path)
    try:
        store = TournamentStore(db)
        number = await a_tournament(store, 0)
        signed: list[int] = []
        started = False
        for step, user in steps:
            if step == "start":
                assert await store.move_on(number, "signup", "running", rounds=1) is not started
                started = True
            elif step == "leave":
                assert await store.strike_out(number, user) == (not started and user in signed)
                if not started and user in signed:
                    signed.remove(user)
            else:
                try:
                    entrant = await store.join(number, user, f"u{user}", 0.0, most=most)
                except AlreadyIn:
                    assert not started and user in signed
                except Full:
                    assert not started and user not in signed and len(signed) == most
                else:
                    assert (entrant == 0) == started
                    if entrant:
                        assert user not in signed and len(signed) < most
                        assert all(entrant > e.entrant for e in await store.entrants(number) if e.user_id != user)
                        signed.append(user)
            assert [e.user_id for e in await store.entrants(number)] == signed
    finally:
        await db.close()
