"""``pyramid-bot migrate-db`` from a real SQLite file to a real PostgreSQL server: games of
all four kinds in progress keep going on PostgreSQL, a re-run copies nothing, a target
holding other rows is refused and left as it was, and the refusals say what to do."""

from __future__ import annotations

import asyncio
import io
import random
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.config.settings import load_operator_settings
from bot.core.session_service import SessionService
from bot.games.catalogue import Catalogue
from bot.ops.exit_codes import ExitCode
from bot.ops.migrate_db import NOT_COPIED, VerificationFailed, migrate_database, migrate_db_command
from bot.ops.running import DatabaseBusy, bot_running
from bot.ratings import GameOutcome, SeatOutcome
from bot.ratings.store import RatingStore
from bot.seasons.store import SeasonStore
from bot.seeks.store import Entry, SeekStore
from bot.store import GameStore, GuildSettings, SqliteDatabase
from bot.store.availability import AvailabilityStore
from bot.store.clocks import ClockStore
from bot.store.departures import TIMEOUT_AI, record_departure
from bot.store.identifies import IdentifyLog
from bot.store.notifications import NotificationStore
from bot.store.players import PlayerStore
from bot.store.postgres import PostgresDatabase
from bot.tournaments.store import Table, TournamentStore
from engine.core import Game
from engine.core.registry import game_ids
from tests.bot.ops.helpers import run_bot
from tools.postgres_server import free_port

#: Options and players for each kind: Pyramido competitive, so two of its players take turns.
SETUPS: dict[str, tuple[dict[str, Any], int]] = {
    "flaming-pyramids": ({}, 3),
    "continuous-pyramid": ({}, 1),
    "pyrinoes": ({}, 2),
    "pyramido": ({"mode": "competitive"}, 2),
}
PASSWORD = "hunter2"


@dataclass(frozen=True)
class Laid:
    """What ``lay_out`` put in the SQLite file."""

    running: dict[str, int]
    finished: int
    lobby: int
    challenge: int


def with_password(url: str) -> str:
    """The test server trusts the loopback, so any password logs in: enough to check it is never printed."""
    return url.replace("postgresql://postgres@", f"postgresql://postgres:{PASSWORD}@", 1)


def next_move(game: Game[Any], state: Any, seat: int, rng: random.Random, *, finish: bool) -> str:
    """A random legal move; unless ``finish``, one after which the game still goes on."""
    moves = game.legal_moves(state)
    rng.shuffle(moves)
    if finish:
        return moves[0]
    for move in moves:
        if game.waiting_for(game.play(state, seat, move)[0]) is not None:
            return move
    raise AssertionError("every legal move ends the game")


async def play(service: SessionService, game_id: int, count: int, rng: random.Random, *,
               finish: bool = False) -> list[tuple[int, str]]:
    """Up to ``count`` moves through the service, as players' clicks make them; the moves played."""
    played: list[tuple[int, str]] = []
    for _ in range(count):
        session = await service.load(game_id)
        seat = session.to_act
        if seat is None:
            break
        move = next_move(session.game, session.state, seat, rng, finish=finish)
        await service.make_move(game_id, move, user_id=100 + seat, expected_version=session.version)
        played.append((seat, move))
    return played


async def new_game(store: GameStore, kind: str, *, seed: int, challenge_id: int | None = None) -> int:
    options, players = SETUPS[kind]
    game_id = await store.create_game(kind, guild_id=1, channel_id=2, options=options, seed=seed, created_by=100,
                                      challenge_id=challenge_id)
    for seat in range(players):
        await store.add_seat(game_id, user_id=100 + seat, limit=6, name=f"Zoë 🌵 '{seat}'")
    return game_id


async def lay_out(path: Path, moves: int = 25) -> Laid:
    """A bot's database: a game of each kind in progress, a finished one, a lobby, a
    challenge, server settings, and a row in every other table."""
    db = await SqliteDatabase.open(path)
    store = GameStore(db)
    service = SessionService(store, Catalogue.default())
    rng = random.Random(16)
    try:
        challenge = await store.create_challenge(guild_id=1, channel_id=2, seed=5, options={}, created_by=100)
        running: dict[str, int] = {}
        for number, kind in enumerate(game_ids()):
            game_id = await new_game(store, kind, seed=40 + number,
                                     challenge_id=challenge if kind == "continuous-pyramid" else None)
            await service.start(game_id)
            await play(service, game_id, moves, rng)
            running[kind] = game_id
        finished = await new_game(store, "pyramido", seed=7)
        await service.start(finished)
        await play(service, finished, 400, rng, finish=True)
        assert (await store.game_record(finished)).status == "finished"  # type: ignore[union-attr]
        await store.save_guild_settings(GuildSettings(guild_id=1, reminder_hours=12.5, timeout_hours=40.25,
                                                      max_open_games=9))
        lobby = await store.open_game("flaming-pyramids", guild_id=1, channel_id=2, options={}, seed=8,
                                      created_by=100, name="opener")
        await store.set_message(running["pyrinoes"], "board", 2, 777, version=moves)
        await store.set_challenge_message(challenge, 778)
        await store.mark_reminded(running["flaming-pyramids"], moves)
        await store.mark_dm_closed(101)
        await store.claim_notice(running["pyramido"], "missing permissions", "dm")
        ratings = RatingStore(db)
        await ratings.apply(GameOutcome(game_id=finished, kind="pyramido", guild_id=1, finished_at=db.now(),
                                        rated=False, variant="solo",
                                        seats=(SeatOutcome(seat=0, user_id=100, won=True, score=40.0),)))
        await ratings.apply(GameOutcome(game_id=running["pyrinoes"], kind="pyrinoes", guild_id=1,
                                        finished_at=db.now(), rated=True,
                                        seats=(SeatOutcome(seat=0, user_id=100, rank=0, won=True),
                                               SeatOutcome(seat=1, user_id=None, ai_level="hard", rank=1))))
        await record_departure(db, running["flaming-pyramids"], 1, "timed out", after_move=moves,
                               ai_level=TIMEOUT_AI)  # a seat's departure
        players = PlayerStore(db)  # a player's preferences, time away (with its notices) and quiet hours
        await players.note_locale(100, "de")
        await players.choose(101, language="de", preview=True)
        away = AvailabilityStore(db)
        await away.start_away(100, 1, "2099-01-01T00:00:00+00:00", since=db.now(),
                              decide=lambda aways, servers: dict.fromkeys(servers | {1}, 3))
        await away.set_quiet(101, "22:00", "07:00", "Europe/Berlin")
        await ClockStore(db).set_bank(running["flaming-pyramids"], 0, 3600.0)  # a seat's time bank
        notes = NotificationStore(db)  # notification settings, the gate's verdicts, a turn's repeats, a digest
        at = datetime.fromisoformat(db.now())
        await notes.save(100, 0, {"mode": "dm", "digest_hour": 9, "zone": "Europe/Berlin"})
        await notes.decide(100, running["pyrinoes"], moves, "turn", at, lambda _history: "buzz")
        await notes.repeated(100, running["pyrinoes"], moves)
        await notes.digest_sent(100, "2026-11-24", at)
        async with db.transaction() as conn:  # a turn running when the clock came, as migration 0015 notes it
            await conn.execute("INSERT INTO clock_upgrade_turns (game_id, seq, started_at) VALUES (?, ?, ?)",
                               (running["pyrinoes"], moves, db.now()))
            await conn.execute("INSERT INTO clock_upgrade_quiet (user_id, starts, ends, zone)"
                               " VALUES (101, '21:00', '11:00', 'Europe/Berlin')")
        async with db.transaction() as conn:  # the daily deal's tables, as its store leaves them
            now = db.now()
            await conn.execute("INSERT INTO bot_secrets (name, value, created_at) VALUES ('daily', 'c0ffee', ?)",
                               (now,))
            await conn.execute("INSERT INTO daily_deals (day, challenge_id, created_at) VALUES ('2026-11-24', ?, ?)",
                               (challenge, now))
            await conn.execute(
                "INSERT INTO daily_results (day, user_id, game_id, guild_id, channel_id, name, tiles, won, undos,"
                " started_at, finished_at) VALUES ('2026-11-24', 100, ?, 1, 2, 'ana', 144, 1, 0, ?, ?)",
                (running["continuous-pyramid"], now, now))
            await conn.execute("INSERT INTO daily_channels (channel_id, guild_id, enabled_by, enabled_at)"
                               " VALUES (2, 1, 100, ?)", (now,))
            await conn.execute("INSERT INTO daily_posts (day, channel_id, message_id) VALUES ('2026-11-24', 2, 779)")
            await conn.execute("INSERT INTO daily_streaks (user_id, best, run, last_day)"
                               " VALUES (100, 1, 1, '2026-11-24')")
            await conn.execute("INSERT INTO daily_players (guild_id, user_id, name, last_day, last_started)"
                               " VALUES (1, 100, 'ana', '2026-11-24', ?)", (now,))
        await IdentifyLog(db, "host:1:aa").take_turn(0, bucket=0, now=1_764_000_000.25, spacing=5.25)  # a login
        await lay_out_tournament(db)
        async with db.transaction() as conn:  # taking moves back, forced moves and forecasts (0019; moves
            # fill before_moves)
            game = running["flaming-pyramids"]
            await conn.execute("INSERT INTO undos (game_id, seq, seat, user_id, move, undone_at)"
                               " VALUES (?, 1, 0, 100, 'play B7 2,0', ?)", (game, db.now()))
            await conn.execute("INSERT INTO undo_settings (guild_id, mode) VALUES (1, 'all')")
            await conn.execute("INSERT INTO autoplay (user_id, game_id, enabled) VALUES (100, 0, 1)")
            await conn.execute("INSERT INTO forecasts (game_id, seat, line, after_seq, others, answer, created_at)"
                               " VALUES (?, 0, 1, 1, '[[1, \"pass\"]]', 'pass', ?)", (game, db.now()))
            await conn.execute("INSERT INTO move_notes (game_id, seq, note) VALUES (?, 1, 'auto')", (game,))
    finally:
        await db.close()
    return Laid(running, finished, lobby, challenge)


async def lay_out_tournament(db: SqliteDatabase) -> None:
    """A tournament (migration 0018) with its entrants, a round, its game, a bye and a place; a seek; a queue."""
    tournaments = TournamentStore(db)
    number = await tournaments.create(guild_id=1, channel_id=2, name="Cup", kind="pyrinoes", format="swiss",
                                      rounds=2, table_size=None, starts_at=datetime(2026, 11, 24, tzinfo=UTC),
                                      round_hours=48.0, rated=True, created_by=100)
    for user in (100, 101, 102):
        await tournaments.join(number, user, f"p{user}", 0.0)
    t = await tournaments.get(number)
    assert t is not None
    await tournaments.write_round(t, 1, datetime(2026, 11, 26, tzinfo=UTC),
                                  [Table(((100, "p100", 1), (101, "p101", 2)), 7)], [(3, 1.0)], {})
    game = (await tournaments.games(number))[0]
    await tournaments.record_places(game.game_id, {1: 1, 2: 2})
    seeks = SeekStore(db)  # a seek (of that game, for the rows' sake) and a player in the queue
    await seeks.add_seek(game.game_id, 1, 100, 2, "easy", datetime(2026, 11, 26, tzinfo=UTC))
    await seeks.enter(Entry(1, "pyrinoes", 102, "p102", 2, 3.5, datetime(2026, 11, 26, tzinfo=UTC)))
    assert await SeasonStore(db).claim_card(1, "pyrinoes", "2026-10")  # a season's champion card, posted


async def max_id(db: SqliteDatabase | PostgresDatabase, table: str) -> int:
    row = await db.read_one(f"SELECT COALESCE(MAX(id), 0) FROM {table}")
    assert row is not None
    return int(row[0])


@pytest.mark.postgres
async def test_games_of_all_four_kinds_continue_on_postgresql(tmp_path: Path, postgres_url: str) -> None:
    source = tmp_path / "bot.db"
    laid = await lay_out(source)
    url = with_password(postgres_url)

    done = run_bot("migrate-db", "--to", url, env={"PYRAMID_DATABASE": str(source)})
    output = done.stdout + done.stderr
    assert done.returncode == ExitCode.OK, output
    assert PASSWORD not in output and "postgres:***@" in output
    assert "Next: set PYRAMID_DATABASE=postgresql://postgres:***@" in done.stdout
    for table in ("challenges", "games", "moves", "outbox", "guild_settings"):
        assert table in done.stdout
    assert "schema_migrations" not in done.stdout and "leases" not in done.stdout

    # The function on the same pair: nothing new, every table present, non-empty and equal.
    report = await migrate_database(source, url)
    assert report.copied == 0 and not report.differing
    sqlite = await SqliteDatabase.open(source)
    tables = {str(row[0]) for row in await sqlite.read_all(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'")}
    assert {check.table for check in report.tables} == tables - NOT_COPIED
    empty = [check.table for check in report.tables if check.source.rows == 0]
    assert not empty, f"lay_out() should put rows in {empty} too, so their copy is tested"
    order = [check.table for check in report.tables]
    assert order.index("challenges") < order.index("games") < order.index("moves"), "parents before children"

    postgres = await PostgresDatabase.open(postgres_url)
    try:
        pg_store = GameStore(postgres)
        pg_service = SessionService(pg_store, Catalogue.default())
        sqlite_service = SessionService(GameStore(sqlite), Catalogue.default())
        rng = random.Random(61)
        for kind, game_id in laid.running.items():
            before = await sqlite_service.load(game_id)
            assert before.to_act is not None, f"the {kind} game is in progress"
            assert (await pg_store.moves(game_id)) == (await sqlite_service.store.moves(game_id))
            more = await play(pg_service, game_id, 10, rng)
            assert len(more) == 10, kind
            # The same moves on the SQLite side's state give the same position as PostgreSQL now holds...
            state = before.state
            for seat, move in more:
                state = before.game.play(state, seat, move)[0]
            fresh = await SessionService(pg_store, Catalogue.default()).load(game_id)
            assert fresh.version == before.version + 10
            assert before.game.to_position(fresh.state) == before.game.to_position(state), kind
            # ... and so does replaying PostgreSQL's whole move log from the deal.
            record = fresh.record
            replayed = before.game.replay(len(fresh.seats), record.options, record.seed,
                                          [(m.seat, m.move) for m in await pg_store.moves(game_id)])
            assert before.game.to_position(replayed) == before.game.to_position(state), kind

        assert (await pg_store.game_record(laid.finished)).status == "finished"  # type: ignore[union-attr]
        await pg_store.add_seat(laid.lobby, user_id=101, limit=6, name="joiner")
        await pg_service.start(laid.lobby)
        assert len(await play(pg_service, laid.lobby, 3, rng)) == 3
        challenge = await pg_store.get_challenge(laid.challenge)
        assert challenge is not None and challenge.message_id == 778
        assert (await pg_store.guild_settings(1)).reminder_hours == 12.5

        # New rows get ids after the copied ones.
        new_game_id = await pg_store.open_game("pyrinoes", guild_id=1, channel_id=2, options={}, seed=1,
                                               created_by=555)
        assert new_game_id == await max_id(sqlite, "games") + 1
        new_challenge = await pg_store.create_challenge(guild_id=1, channel_id=2, seed=1, options={}, created_by=555)
        assert new_challenge == await max_id(sqlite, "challenges") + 1
        assert await max_id(postgres, "outbox") > await max_id(sqlite, "outbox")
    finally:
        await postgres.close()
        await sqlite.close()


@pytest.mark.postgres
async def test_a_second_run_copies_nothing_and_finds_the_same_checksums(tmp_path: Path, postgres_url: str) -> None:
    source = tmp_path / "bot.db"
    await lay_out(source, moves=8)
    first = await migrate_database(source, postgres_url)
    assert first.copied == first.rows > 0 and not first.differing
    second = await migrate_database(source, postgres_url)
    assert second.copied == 0 and not second.differing
    assert [(c.table, c.source, c.target) for c in second.tables] == [(c.table, c.source, c.target)
                                                                       for c in first.tables]
    out, err = io.StringIO(), io.StringIO()
    code = await asyncio.to_thread(migrate_db_command, load_operator_settings(database=str(source)), postgres_url,
                                   None, out=out, err=err)
    assert code == ExitCode.OK, err.getvalue()
    assert "nothing new to copy" in out.getvalue()


@pytest.mark.postgres
async def test_a_target_holding_other_rows_under_the_same_keys_is_refused_and_left_alone(
        tmp_path: Path, postgres_url: str) -> None:
    source = tmp_path / "bot.db"
    await lay_out(source, moves=5)
    postgres = await PostgresDatabase.open(postgres_url)
    try:
        other = await GameStore(postgres).create_game("pyrinoes", guild_id=9, channel_id=9, options={}, seed=999,
                                                      created_by=9)
        assert other == 1  # the same key as the SQLite file's first game, with other content

        with pytest.raises(VerificationFailed) as failed:
            await migrate_database(source, postgres_url)
        assert [check.table for check in failed.value.report.differing] == ["games"]
        assert "games (same number of rows, different content)" in str(failed.value)

        out, err = io.StringIO(), io.StringIO()
        code = await asyncio.to_thread(migrate_db_command, load_operator_settings(database=str(source)),
                                       postgres_url, None, out=out, err=err)
        assert code == ExitCode.FAILED
        assert "games (same number of rows, different content)" in err.getvalue()
        assert "Nothing was written" in err.getvalue()
        assert "different content" in out.getvalue()  # the table of checks is printed too

        # Nothing was overwritten, and nothing else was added either.
        kept = await GameStore(postgres).game_record(1)
        assert kept is not None and kept.seed == 999 and kept.guild_id == 9
        for table, rows in (("games", 1), ("moves", 0), ("seats", 0), ("challenges", 0)):
            counted = await postgres.read_one(f"SELECT COUNT(*) FROM {table}")
            assert counted is not None and counted[0] == rows, table
    finally:
        await postgres.close()


def test_a_postgresql_pyramid_database_is_not_a_source() -> None:
    done = run_bot("migrate-db", "--to", "postgresql://postgres@127.0.0.1:1/other",
                   env={"PYRAMID_DATABASE": f"postgresql://bot:{PASSWORD}@db.example/pyramid"})
    assert done.returncode == ExitCode.SETTINGS
    assert "already the PostgreSQL database postgresql://bot:***@db.example/pyramid" in done.stderr
    assert "--from" in done.stderr
    assert PASSWORD not in done.stdout + done.stderr and "Traceback" not in done.stderr


async def test_an_unreachable_target_says_so_without_its_password(tmp_path: Path) -> None:
    source = tmp_path / "bot.db"
    await (await SqliteDatabase.open(source)).close()
    port = free_port()  # nothing listens there
    done = run_bot("migrate-db", "--to", f"postgresql://postgres:{PASSWORD}@127.0.0.1:{port}/pyramid",
                   env={"PYRAMID_DATABASE": str(source)})
    assert done.returncode == ExitCode.DATABASE_UNAVAILABLE, done.stderr
    assert f"Cannot open or write the database postgresql://postgres:***@127.0.0.1:{port}/pyramid" in done.stderr
    assert PASSWORD not in done.stdout + done.stderr and "Traceback" not in done.stderr


def test_the_target_must_be_postgresql(tmp_path: Path) -> None:
    done = run_bot("migrate-db", "--to", f"sqlite:///{tmp_path}/other.db",
                   env={"PYRAMID_DATABASE": str(tmp_path / "bot.db")})
    assert done.returncode == ExitCode.SETTINGS and "--to must be a PostgreSQL URL" in done.stderr


@pytest.mark.postgres
async def test_a_running_bot_is_not_copied_half_way(tmp_path: Path, postgres_url: str) -> None:
    source = tmp_path / "bot.db"
    await lay_out(source, moves=2)
    with bot_running(source), pytest.raises(DatabaseBusy, match="stop it first"):
        await migrate_database(source, postgres_url)
    postgres = await PostgresDatabase.open(postgres_url)
    try:
        counted = await postgres.read_one("SELECT COUNT(*) FROM games")
        assert counted is not None and counted[0] == 0
    finally:
        await postgres.close()


def test_a_missing_source_file_is_refused_not_created(tmp_path: Path) -> None:
    done = run_bot("migrate-db", "--from", str(tmp_path / "nothing.db"), "--to", "postgresql://postgres@127.0.0.1:1/x",
                   env={})
    assert done.returncode == ExitCode.FAILED and "There is no SQLite database" in done.stderr
    assert not (tmp_path / "nothing.db").exists()
