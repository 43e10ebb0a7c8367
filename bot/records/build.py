"""A game's record (:mod:`bot.records.format`) from the store, for ``/pyramid history``.

The stories are not stored with the moves (a board row's events are pruned once it
is shown), so the game is replayed from its seed and log, and each move's public
events are narrated again: the same narration the board gave, with the players'
plain names instead of Discord mentions. Replaying is milliseconds of engine work,
done in a thread so a long log never holds the event loop for its whole length.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from bot.records.fairness import commitment
from bot.records.format import Move, Player, Record
from bot.store import CorruptRecord, GameRecord, GameStore, MoveRecord, SeatRecord
from engine.core import EngineError, Event, Game


def deal_is_public(record: GameRecord) -> bool:
    """Whether the record may carry the seed and salt. The seed rebuilds every hidden
    hand and stock, so only once the game is over; and never for a challenge game,
    since others may still be playing (or about to start) the same deal (CP-3)."""
    return record.status == "finished" and record.challenge_id is None


def story(events: Sequence[Event], names: Sequence[str]) -> list[str]:
    """A move's story in a record: its public events, narrated with ``names``."""
    return [event.narrate(names) for event in events if event.visible(None)]


def assemble(game: Game[Any], record: GameRecord, seats: Sequence[SeatRecord],
             moves: Sequence[MoveRecord]) -> Record:
    """The record of one game, replaying its log for the stories. Raises
    :class:`CorruptRecord` when the log does not replay."""
    names = [s.plain_name for s in seats]
    stories: list[list[str]] = []
    try:
        state = game.setup(len(seats), record.options, record.seed)
        for move in moves:
            state, events = game.play(state, move.seat, move.move)
            stories.append(story(events, names))
    except (EngineError, ValueError) as exc:
        raise CorruptRecord(f"Game {record.id} cannot be rebuilt from its move log ({exc}).") from exc
    public = deal_is_public(record)
    return Record(
        game=record.kind,
        number=record.id,
        status="finished" if record.status == "finished" else "active",
        challenge=record.challenge_id,
        options=dict(record.options),
        players=[Player(seat=s.seat, name=s.plain_name, ai=s.ai_level if s.user_id is None else None,
                        resigned=s.resigned) for s in seats],
        commitment=commitment(record.kind, record.seed, record.salt) if record.salt is not None else None,
        seed=record.seed if public else None,
        salt=record.salt if public else None,
        moves=[Move(seq=m.seq, seat=m.seat, move=m.move, at=m.created_at, story=lines)
               for m, lines in zip(moves, stories, strict=True)],
        result=dict(record.result) if record.result is not None and record.status == "finished" else None,
    )


async def record_of(store: GameStore, game: Game[Any], game_id: int) -> Record:
    """Game ``game_id``'s record as the store has it now. The move log is read last:
    a move made meanwhile is then in the log though perhaps not in the status read
    before it, which at worst keeps the seed back once more (never shows it early)."""
    record = await store.game_record(game_id)
    if record is None:
        raise CorruptRecord("That game no longer exists.")
    seats = await store.seats(game_id)
    moves = await store.moves(game_id)
    return await asyncio.to_thread(assemble, game, record, seats, moves)
