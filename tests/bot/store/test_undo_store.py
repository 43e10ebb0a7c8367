"""Taking a move back through the store (issue #41), on both backends: the move leaves the log
with its snapshot, bank and announcements in one transaction, only while it is the last move
and once; and, by property, over random games of every kind played through the real sessions
and clock, an undo leaves the position, every seat's view, the clock and the log exactly as they
were before the move (and is refused where the engine says the move showed something)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.clock.clocks import Clocks
from bot.core.errors import PlayError
from bot.forecasts.undo import Undos
from bot.store import DuplicateMove, GameStore, GuildSettings
from bot.store.clocks import ClockStore
from bot.store.outbox import Announcement, OutboxStore
from bot.store.undos import UndoRaced, UndoStore
from engine.core.undo import revealed, turn_began
from tests.bot.clock import FakeClock
from tests.bot.store.test_clock_store import ANA, BEN, CHANNEL, GUILD_A, services_on

CY = 1_180_000_000_000_000_003
_files = itertools.count()


async def test_a_move_leaves_the_log_with_everything_it_changed(store: GameStore) -> None:
    game_id = await store.create_game("pyrinoes", created_by=ANA, guild_id=GUILD_A, channel_id=CHANNEL,
                                      options={}, seed=3)
    for user in (ANA, BEN):
        await store.add_seat(game_id, user_id=user, limit=2, name=str(user))
    await store.begin_game(game_id, min_players=2, max_players=2)
    clocks, undos = ClockStore(store.db), UndoStore(store.db)
    await store.append_move(game_id, 1, 0, "first", actor_id=ANA, snapshot={"at": 1},
                            announcements=[Announcement(kind="board", version=1, payload={"events": []})],
                            bank=(0, 100.0))
    await clocks.set_bank(game_id, 1, 50.0)
    await store.append_move(game_id, 2, 1, "second", actor_id=BEN, snapshot={"at": 2},
                            announcements=[Announcement(kind="board", version=2), Announcement(kind="hand", version=2,
                                                                                                 seat=1)],
                            bank=(1, 80.0))
    with pytest.raises(UndoRaced):  # not the last move
        await undos.take_back(game_id, seq=1, seat=0, user_id=ANA, move="first", snapshot={}, hands=[0],
                              channel_id=CHANNEL)
    take = await undos.take_back(game_id, seq=2, seat=1, user_id=BEN, move="second", snapshot={"at": 1},
                                 hands=[1, 0], channel_id=CHANNEL)
    assert take == 1
    assert [m.move for m in await store.moves(game_id)] == ["first"]
    assert await store.snapshot(game_id) == (1, {"at": 1})
    assert await clocks.bank(game_id, 1) == 50.0 and await clocks.bank(game_id, 0) == 100.0
    assert await undos.undone_since(game_id, 1, 2) and not await undos.undone_since(game_id, 0, 1)
    record = await store.game_record(game_id)
    assert record is not None and record.undos == 1
    pending = [(r.version, r.kind, r.seat, "undone" in r.payload) for r in await OutboxStore(store.db).pending(game_id)]
    assert sorted(pending) == [(1, "board", -1, True), (1, "hand", 0, False), (1, "hand", 1, False)]
    with pytest.raises(UndoRaced):  # the same move number, once
        await undos.take_back(game_id, seq=2, seat=1, user_id=BEN, move="second", snapshot={}, hands=[],
                              channel_id=CHANNEL)
    # The move made again is announced afresh (its rows were deleted with the move).
    await store.append_move(game_id, 2, 1, "other", actor_id=BEN, announcements=[Announcement(kind="board",
                                                                                               version=2)])
    assert (2, "board") in [(r.version, r.kind) for r in await OutboxStore(store.db).pending(game_id)]
    # A position read before the undo (another process) is stale even where its move number is free.
    with pytest.raises(DuplicateMove):
        await store.append_move(game_id, 3, 0, "late", actor_id=ANA, undos=0)
    assert [m.move for m in await store.moves(game_id)] == ["first", "other"]
    await store.append_move(game_id, 3, 0, "current", actor_id=ANA, undos=1)
    assert await undos.mode(GUILD_A) == "casual"
    await undos.set_mode(GUILD_A, "off")
    assert await undos.mode(GUILD_A) == "off" and await undos.mode(None) == "casual"


GAMES = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                          HealthCheck.function_scoped_fixture])
KINDS = [("flaming-pyramids", {}, 3), ("pyrinoes", {}, 2), ("pyramido", {"mode": "competitive"}, 2),
         ("continuous-pyramid", {}, 1)]


@GAMES
@given(which=st.sampled_from(KINDS), seed=st.integers(0, 2**31), data=st.data())
def test_an_undo_leaves_position_views_clock_and_log_as_before_the_move(
        tmp_path: Path, which: tuple[str, dict[str, Any], int], seed: int, data: st.DataObject) -> None:
    import asyncio

    asyncio.run(_undo_property(tmp_path / f"u{next(_files)}.db", which, seed, data))


async def _undo_property(path: Path, which: tuple[str, dict[str, Any], int], seed: int, data: st.DataObject) -> None:
    kind, options, players = which
    clock = FakeClock()
    async with services_on(path, clock) as services:
        store, sessions = services.store, services.sessions
        await store.save_guild_settings(GuildSettings(guild_id=GUILD_A, timeout_hours=2160.0, increment_hours=12.0))
        await UndoStore(services.db).set_mode(GUILD_A, "all")
        game_id = await store.create_game(kind, created_by=ANA, guild_id=GUILD_A, channel_id=CHANNEL,
                                          options=options, seed=seed)
        users = [ANA, BEN, CY][:players]
        for user in users:
            await store.add_seat(game_id, user_id=user, limit=4, name=str(user))
        await sessions.start(game_id)
        clocks, undos = Clocks(services), Undos(store, sessions)
        undone: set[tuple[int, int]] = set()
        for _ in range(data.draw(st.integers(1, 16), label="moves")):
            before = await sessions.load(game_id)
            seat = before.game.waiting_for(before.state)
            if seat is None or before.over:
                return
            banks = [await clocks.store.bank(game_id, s) for s in range(players)]
            turn = await clocks.turn(before)
            log = await store.moves(game_id)
            moves = before.game.legal_moves(before.state)
            move = moves[data.draw(st.integers(0, len(moves) - 1), label="move")]
            clock.advance(minutes=data.draw(st.integers(0, 600), label="minutes"))
            outcome = await sessions.make_move(game_id, move, user_id=users[seat])
            if outcome.result is not None or not data.draw(st.booleans(), label="undo"):
                continue
            quiet = revealed(before.game, before.state, seat, move) is None
            clock.advance(minutes=data.draw(st.integers(0, 60), label="later"))
            began = turn_began([(m.seat, m.move) for m in await store.moves(game_id)])
            if not quiet or any(s == seat and n >= began for s, n in undone):  # what it showed; or once per turn
                with pytest.raises(PlayError):
                    await undos.take_back(game_id, users[seat])
                continue
            done = await undos.take_back(game_id, users[seat])
            undone.add((seat, outcome.session.version))
            after = done.session
            assert after.version == before.version
            assert after.game.to_position(after.state) == before.game.to_position(before.state)
            for viewer in [None, *range(players)]:
                assert after.game.view(after.state, viewer) == before.game.view(before.state, viewer)
            assert [await clocks.store.bank(game_id, s) for s in range(players)] == banks
            again = await clocks.turn(after)
            assert (again is None) == (turn is None)
            if again is not None and turn is not None:
                assert (again.started, again.bank, again.deadline) == (turn.started, turn.bank, turn.deadline)
            assert await store.moves(game_id) == log
            with pytest.raises(PlayError):  # once per turn (or nothing of theirs to take back now)
                await undos.take_back(game_id, users[seat])
