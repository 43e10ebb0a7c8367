"""The announcement outbox against real SQLite files: written with the move, counted
for metrics, retried when a cause is fixed, and filled in by the migration for games
a stopped bot left behind."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.core.announcements import MAX_NONCE, nonce
from bot.core.errors import StaleBoard
from bot.core.session_service import SessionService
from bot.games.catalogue import Catalogue
from bot.store import DatabaseTarget, GameStore
from bot.store.migrate import bundled_migrations
from bot.store.outbox import Announcement, OutboxStore
from tests.bot.clock import FakeClock


async def new_game(store: GameStore, players: int = 2, ai: bool = False) -> int:
    game_id = await store.create_game("flaming-pyramids", guild_id=1, channel_id=2, options={}, seed=42,
                                      created_by=100)
    for seat in range(players):
        await store.add_seat(game_id, user_id=100 + seat, limit=6, name=f"P{seat}")
    if ai:
        await store.add_seat(game_id, ai_level="easy", limit=6)
    return game_id


async def test_a_move_is_written_with_its_announcements(store: GameStore) -> None:
    service = SessionService(store, Catalogue.default())
    game_id = await new_game(store, players=1, ai=True)
    session = await service.start(game_id)
    if session.to_act == 1:  # let the AI's seat open so the human moves first
        await service.make_move(game_id, session.game.legal_moves(session.state)[0], user_id=None, seat=1)
        session = await service.load(game_id)
    assert session.to_act == 0
    version = session.version
    outcome = await service.make_move(game_id, session.game.legal_moves(session.state)[0], user_id=100)
    rows = [i for i in await OutboxStore(store.db).pending(game_id) if i.version == version + 1]
    kinds = [(i.kind, i.seat) for i in rows]
    assert ("board", -1) in kinds and ("hand", 0) in kinds
    assert ("ai", -1) in kinds if outcome.session.to_act == 1 else True
    board = next(i for i in rows if i.kind == "board")
    assert board.channel_id == 2 and isinstance(board.payload["events"], list) and board.payload["events"]
    # A writer that lost the race for this move number writes neither the move nor announcements for it.
    other = SessionService(store, Catalogue.default())
    stale = await other.load(game_id)
    with pytest.raises(StaleBoard):
        await other.make_move(game_id, stale.game.legal_moves(stale.state)[0], user_id=None,
                              seat=stale.to_act, expected_version=version)
    assert len([i for i in await OutboxStore(store.db).pending(game_id) if i.version == version + 1]) == len(rows)


async def test_backlog_counts_what_waits_and_how_long(store: GameStore, clock: FakeClock) -> None:
    game_id = await new_game(store)
    outbox = OutboxStore(store.db)
    assert (await outbox.backlog()).pending == 0
    await outbox.enqueue(game_id, [Announcement(kind="board", version=0, channel_id=7),
                                   Announcement(kind="hand", version=0, seat=1)])
    clock.now += timedelta(minutes=10)
    board, hand = await outbox.pending(game_id)
    await outbox.retry_later(board.id, due_at=clock.now + timedelta(minutes=5), error="403 50013",
                             blocked="missing_permissions", uncertain=False)
    backlog = await outbox.backlog()
    assert (backlog.pending, backlog.due, backlog.blocked) == (2, 1, 1)
    assert backlog.oldest_age_seconds == 600
    assert await outbox.due_games() == [game_id]
    # The cause is fixed (permissions restored in that channel): due at once, not in five minutes.
    assert await outbox.retry_blocked(channel_id=8) == 0
    assert await outbox.retry_blocked(channel_id=7) == 1
    assert (await outbox.backlog()).due == 2
    assert (await outbox.complete(hand, "sent")).marked
    assert not (await outbox.complete(hand, "sent")).marked, "a row is done once"
    assert (await outbox.backlog()).pending == 1


async def test_closed_dms_are_retried_after_a_day_or_an_interaction(store: GameStore, clock: FakeClock) -> None:
    assert await store.dm_status(5) == "open"
    assert await store.mark_dm_closed(5) is True
    assert await store.mark_dm_closed(5) is False, "told once"
    assert await store.dm_status(5) == "closed"
    assert await store.retry_dms(5) is True
    assert await store.dm_status(5) == "retry"
    await store.mark_dm_closed(5)
    clock.now += timedelta(hours=25)
    assert await store.dm_status(5) == "retry"
    await store.mark_dm_closed(5, False)
    assert await store.dm_status(5) == "open"


def test_nonces_are_stable_distinct_and_short() -> None:
    assert nonce(12, 3, "board") == nonce(12, 3, "board")
    seen = {nonce(12, 3, "board"), nonce(12, 4, "board"), nonce(13, 3, "board"), nonce(12, 3, "hand", 0),
            nonce(12, 3, "hand", 1)}
    assert len(seen) == 5
    huge = nonce(2**63 - 1, 2**40, "hand", 5)
    assert len(huge) <= MAX_NONCE and huge == nonce(2**63 - 1, 2**40, "hand", 5)


async def test_the_migration_queues_what_a_stopped_bot_left_unannounced(database_target: DatabaseTarget) -> None:
    db = await database_target.open(migrations=bundled_migrations(database_target.dialect)[:2])
    try:
        assert db.schema_version == 2
        now = "2026-11-01T00:00:00+00:00"
        async with db.transaction() as conn:
            for game_id, status in ((1, "active"), (2, "finished"), (3, "active")):
                await conn.execute(
                    "INSERT INTO games (id, kind, guild_id, channel_id, options, status, seed, created_at, updated_at)"
                    " VALUES (?, 'flaming-pyramids', 1, 2, '{}', ?, 42, ?, ?)", (game_id, status, now, now))
            for game_id, seq in ((1, 1), (1, 2), (2, 1), (3, 1)):
                await conn.execute("INSERT INTO moves (game_id, seq, seat, move, created_at) VALUES (?, ?, 0, 'x', ?)",
                                   (game_id, seq, now))
            # Game 1's board shows move 1 of 2; game 2 finished unannounced; game 3 is up to date.
            for game_id, version in ((1, 1), (3, 1)):
                await conn.execute("INSERT INTO messages (game_id, role, channel_id, message_id, version)"
                                   " VALUES (?, 'board', 2, 99, ?)", (game_id, version))
    finally:
        await db.close()
    db = await database_target.open()
    try:
        rows = [tuple(r) for r in await db.read_all(
            "SELECT game_id, version, kind FROM outbox WHERE done_at IS NULL ORDER BY game_id, kind")]
        assert rows == [(1, 2, "ai"), (1, 2, "board"), (2, 1, "board"), (3, 1, "ai")]
        assert (await OutboxStore(db).backlog()).due == 4
    finally:
        await db.close()


async def test_a_done_row_can_be_reopened_once(store: GameStore) -> None:
    """An AI taking a seat outside a move queues its turn again, even if that version's turn was done."""
    game_id = await store.create_game("flaming-pyramids", guild_id=1, channel_id=2, options={}, seed=1,
                                      created_by=3, status="active")
    turn = Announcement(kind="ai", version=4)
    assert await OutboxStore(store.db).enqueue(game_id, [turn]) == 1
    [item] = await OutboxStore(store.db).pending(game_id)
    assert (await OutboxStore(store.db).complete(item, "moved")).marked
    assert await OutboxStore(store.db).enqueue(game_id, [turn]) == 0  # done stays done
    assert await OutboxStore(store.db).enqueue(game_id, [turn], reopen=True) == 1
    assert await OutboxStore(store.db).enqueue(game_id, [turn], reopen=True) == 0  # pending already
    assert [(i.kind, i.version) for i in await OutboxStore(store.db).pending(game_id)] == [("ai", 4)]
