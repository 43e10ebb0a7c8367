"""The session service: the one path every move takes, against a real SQLite file and a real PostgreSQL database."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import pytest

from bot.core.errors import PlayError, StaleBoard
from bot.core.session_service import SessionService
from bot.games.catalogue import Catalogue
from bot.store import CorruptRecord, DatabaseTarget, GameStore
from engine.core import IllegalMove, NotYourTurn, get_game
from tests.bot.clock import FakeClock


async def new_game(store: GameStore, kind: str = "flaming-pyramids", players: int = 3,
                   names: Sequence[str] = ()) -> int:
    """A game of ``players`` seats (named ``names``, else P0, P1…), not started."""
    game_id = await store.create_game(kind, guild_id=1, channel_id=2, options={}, seed=42, created_by=100)
    for seat in range(players):
        await store.add_seat(game_id, user_id=100 + seat, limit=6, name=names[seat] if names else f"P{seat}")
    return game_id


async def play_some(service: SessionService, game_id: int, count: int) -> None:
    for _ in range(count):
        session = await service.load(game_id)
        if session.result is not None:
            return
        seat = session.to_act
        assert seat is not None
        move = session.game.legal_moves(session.state)[0]
        await service.make_move(game_id, move, user_id=100 + seat, expected_version=session.version)


async def test_moves_are_logged_and_replay_rebuilds_the_state(service: SessionService, tmp_path: Path) -> None:
    game_id = await new_game(service.store)
    await service.start(game_id)
    await play_some(service, game_id, 12)
    session = await service.load(game_id)
    moves = await service.store.moves(game_id)
    assert len(moves) == session.version == 12
    game = get_game("flaming-pyramids")
    rebuilt = game.replay(3, {}, 42, [(m.seat, m.move) for m in moves])
    assert game.to_position(rebuilt) == game.to_position(session.state)
    # A second service on the same file (a restart) sees the same game.
    other = SessionService(service.store, service.catalogue)
    again = await other.load(game_id)
    assert game.to_position(again.state) == game.to_position(session.state)


async def test_a_bad_snapshot_falls_back_to_the_log(service: SessionService) -> None:
    game_id = await new_game(service.store)
    await service.start(game_id)
    await play_some(service, game_id, 5)
    expected = get_game("flaming-pyramids").to_position((await service.load(game_id)).state)
    async with service.store.db.transaction() as conn:
        await conn.execute("UPDATE snapshots SET position = '{\"garbage\": 1}' WHERE game_id = ?", (game_id,))
    fresh = SessionService(service.store, service.catalogue)
    assert get_game("flaming-pyramids").to_position((await fresh.load(game_id)).state) == expected


async def test_a_log_that_cannot_replay_is_reported(service: SessionService) -> None:
    game_id = await new_game(service.store)
    await service.start(game_id)
    await service.store.append_move(game_id, 1, 0, "play Z99 0,0", actor_id=100)
    with pytest.raises(CorruptRecord, match="cannot be rebuilt"):
        await SessionService(service.store, service.catalogue).load(game_id)


async def test_wrong_player_stale_board_and_illegal_moves_change_nothing(service: SessionService) -> None:
    game_id = await new_game(service.store)
    session = await service.start(game_id)
    seat = session.to_act
    assert seat is not None
    other = (seat + 1) % 3
    move = session.game.legal_moves(session.state)[0]
    with pytest.raises(NotYourTurn):
        await service.make_move(game_id, move, user_id=100 + other)
    with pytest.raises(PlayError, match="not playing"):
        await service.make_move(game_id, move, user_id=999)
    with pytest.raises(IllegalMove):
        await service.make_move(game_id, "play M999 9,9", user_id=100 + seat)
    with pytest.raises(StaleBoard):
        await service.make_move(game_id, move, user_id=100 + seat, expected_version=3)
    assert await service.store.moves(game_id) == []


async def test_simultaneous_clicks_apply_one_move(service: SessionService) -> None:
    game_id = await new_game(service.store)
    session = await service.start(game_id)
    seat = session.to_act
    assert seat is not None
    moves = session.game.legal_moves(session.state)

    async def click(move: str) -> str:
        try:
            await service.make_move(game_id, move, user_id=100 + seat, expected_version=0)
        except StaleBoard:
            return "stale"
        return "ok"

    outcomes = await asyncio.gather(*(click(moves[i % len(moves)]) for i in range(8)))
    assert outcomes.count("ok") == 1
    assert len(await service.store.moves(game_id)) == 1


async def test_two_services_racing_on_one_database_write_one_move(service: SessionService) -> None:
    """Two processes' worth of caches: the unique key still lets only one win."""
    game_id = await new_game(service.store)
    session = await service.start(game_id)
    seat = session.to_act
    assert seat is not None
    move = session.game.legal_moves(session.state)[0]
    other = SessionService(service.store, service.catalogue)
    await other.load(game_id)
    results = await asyncio.gather(
        service.make_move(game_id, move, user_id=100 + seat, expected_version=0),
        other.make_move(game_id, move, user_id=100 + seat, expected_version=0),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert any(isinstance(r, StaleBoard) for r in results)
    assert len(await service.store.moves(game_id)) == 1


async def test_a_second_process_sees_the_first_ones_writes(database_target: DatabaseTarget) -> None:
    """Two bot processes on one database, each with its own cache: a move, a seat handed to an AI
    and a finished game written by one are what the other loads next; a move both make at once is
    written once."""
    first_db, second_db = await database_target.open(), await database_target.open()
    try:
        first = SessionService(GameStore(first_db), Catalogue.default())
        second = SessionService(GameStore(second_db), Catalogue.default())
        game_id = await new_game(first.store, players=2)
        await first.start(game_id)
        cached = await second.load(game_id)  # now in the second process's cache
        await play_some(first, game_id, 2)
        assert (await second.load(game_id)).version == cached.version + 2
        await first.store.set_seat_ai(game_id, 1, "easy")
        assert (await second.load(game_id)).seat(1).is_ai
        now = await second.load(game_id)
        seat = now.to_act
        assert seat is not None
        move = now.game.legal_moves(now.state)[0]
        both = await asyncio.gather(
            *(service.make_move(game_id, move, user_id=100 + seat, seat=seat, expected_version=now.version)
              for service in (first, second)), return_exceptions=True)
        assert sum(isinstance(outcome, StaleBoard) for outcome in both) == 1, both
        assert len(await first.store.moves(game_id)) == now.version + 1
        assert (await first.load(game_id)).version == (await second.load(game_id)).version == now.version + 1
    finally:
        await first_db.close()
        await second_db.close()


async def test_the_cached_game_knows_when_it_last_changed(database_target: DatabaseTarget) -> None:
    """Reminders measure idleness from the game's last change: the cache must not keep the time before a start or
    a move (it did, so the next player was reminded at once after a move that ended a long wait)."""
    clock = FakeClock()
    db = await database_target.open(clock)
    try:
        service = SessionService(GameStore(db), Catalogue.default())
        game_id = await new_game(service.store, players=2)
        clock.advance(hours=30)  # a lobby that waited
        await service.start(game_id)
        stored = await service.store.game_record(game_id)
        assert stored is not None and (await service.load(game_id)).record.updated_at == stored.updated_at
        clock.advance(hours=20)  # a long think, then a move
        await play_some(service, game_id, 1)
        stored = await service.store.game_record(game_id)
        assert stored is not None and stored.updated_at == db.now()
        assert (await service.load(game_id)).record.updated_at == stored.updated_at
    finally:
        await db.close()
