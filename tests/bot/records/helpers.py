"""Games of every kind played to their end through the session service, and their records."""

from __future__ import annotations

import json
from typing import Any

from bot.core.session_service import SessionService
from bot.records.build import assemble, record_of
from bot.records.format import Record
from bot.store import GameRecord, MoveRecord, SeatRecord
from engine.core import Rng, get_game

#: A first user id; seat N is played by user FIRST_USER + N.
FIRST_USER = 100


def pick(moves: list[str], rng: Rng) -> str:
    """A random legal move that keeps the game going: a solitaire resigns only when
    placing is over (it would otherwise wait for an undo for ever)."""
    going = [m for m in moves if m.split()[0] not in ("resign", "undo")]
    return rng.choice(going) if going else ("resign" if "resign" in moves else rng.choice(moves))


async def new_game(service: SessionService, kind: str, players: int, options: dict[str, Any], *,
                   seed: int = 42, challenge_id: int | None = None) -> int:
    store = service.store
    game_id = await store.create_game(kind, guild_id=1, channel_id=2, options=options, seed=seed, created_by=FIRST_USER,
                                      challenge_id=challenge_id)
    for seat in range(players):
        await store.add_seat(game_id, user_id=FIRST_USER + seat, limit=6, name=f"P{seat}")
    await service.start(game_id)
    return game_id


async def play(service: SessionService, game_id: int, *, moves: int | None = None, seed: int = 5) -> None:
    """Play random legal moves until the game is over (or ``moves`` are made)."""
    rng = Rng(seed)
    made = 0
    while moves is None or made < moves:
        session = await service.load(game_id)
        if session.over:
            return
        seat = session.to_act
        assert seat is not None
        await service.make_move(game_id, pick(session.game.legal_moves(session.state), rng),
                                user_id=FIRST_USER + seat, expected_version=session.version)
        made += 1
    assert moves is not None, "the game did not end"


async def finished_game(service: SessionService, kind: str, players: int, options: dict[str, Any]) -> int:
    game_id = await new_game(service, kind, players, options)
    await play(service, game_id)
    record = await service.store.game_record(game_id)
    assert record is not None and record.status == "finished" and record.result is not None
    return game_id


async def record_file(service: SessionService, game_id: int) -> Record:
    """The game's record as ``/pyramid history`` builds it."""
    record = await service.store.game_record(game_id)
    assert record is not None
    return await record_of(service.store, service.catalogue.presenter(record.kind).game, game_id)


def as_json(record: Record) -> dict[str, Any]:
    """The record as the file's JSON, to edit."""
    data: dict[str, Any] = json.loads(json.dumps(record.model_dump(mode="json")))
    return data


def pure_record(kind: str, players: int, options: dict[str, Any], *, seed: int = 42, salt: str | None = "ab" * 16,
                status: str = "finished", challenge_id: int | None = None, moves: int | None = None,
                rng_seed: int = 5) -> Record:
    """A record made without a database: the game played by random legal moves in the
    engine, its rows laid out as the store would hold them, then :func:`assemble`."""
    game = get_game(kind)
    state = game.setup(players, options, seed)
    rng = Rng(rng_seed)
    log: list[MoveRecord] = []
    while game.waiting_for(state) is not None and (moves is None or len(log) < moves):
        seat = game.waiting_for(state)
        assert seat is not None
        move = pick(game.legal_moves(state), rng)
        state, _ = game.play(state, seat, move)
        log.append(MoveRecord(game_id=9, seq=len(log) + 1, seat=seat, move=move, actor_id=None,
                              created_at=f"2026-11-22T12:{len(log) // 60:02d}:{len(log) % 60:02d}+00:00"))
    result = game.result(state)
    over = game.waiting_for(state) is None
    row = GameRecord(id=9, kind=kind, guild_id=1, channel_id=2, thread_id=3, options=options,
                     status=status if over else "active", seed=seed, created_by=FIRST_USER,
                     challenge_id=challenge_id, result=result.to_json() if over and result else None,
                     created_at="2026-11-22T12:00:00+00:00", updated_at="2026-11-22T12:00:00+00:00", salt=salt)
    seats = [SeatRecord(game_id=9, seat=s, user_id=FIRST_USER + s, ai_level=None, name=f"P{s}",
                        joined_at="2026-11-22T12:00:00+00:00") for s in range(players)]
    return assemble(game, row, seats, log)
