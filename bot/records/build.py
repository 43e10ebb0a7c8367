"""A game's record (:mod:`bot.records.format`) from the store, for ``/pyramid history``.

The stories are not stored with the moves (a board row's events are pruned once it
is shown), so the game is replayed from its seed and log, and each move's public
events are narrated again: the same narration the board gave, with the players'
plain names instead of Discord mentions. Replaying is milliseconds of engine work,
done in a thread so a long log never holds the event loop for its whole length.

A record names people by their plain names only: no Discord id is in it. The result
names seats (``{0}``); results stored before the bot wrote them that way (a
resignation's summary was made of mentions) have each mention turned back into its
seat's placeholder. A seat whose person left says how and after which move, and
which AI played it on (``bot.store.departures``; for games older than that table,
what the seat itself says).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from bot.records.fairness import commitment
from bot.records.format import Move, Player, Record
from bot.store import CorruptRecord, GameRecord, GameStore, MoveRecord, SeatRecord
from bot.store.departures import Departure, How, departures_of
from bot.store.undos import move_notes
from engine.core import EngineError, Event, Game


def deal_is_public(record: GameRecord) -> bool:
    """Whether the record may carry the seed and salt. The seed rebuilds every hidden
    hand and stock, so only once the game is over; and never for a challenge game,
    since others may still be playing (or about to start) the same deal (CP-3)."""
    return record.status == "finished" and record.challenge_id is None


def story(events: Sequence[Event], names: Sequence[str]) -> list[str]:
    """A move's story in a record: its public events, narrated with ``names``."""
    return [event.narrate(names) for event in events if event.visible(None)]


#: A Discord mention of a user (``<@123>``, ``<@!123>``), of a role or of a channel.
MENTION = re.compile(r"<(@!?|@&|#)(\d+)>")


def without_ids(result: Mapping[str, Any], seats: Sequence[SeatRecord]) -> dict[str, Any]:
    """``result`` with every mention of a seated person turned into the seat's
    placeholder (``{0}``) and any other mention into "someone"."""
    seat_of = {s.user_id: s.seat for s in seats if s.user_id is not None}

    def plain(match: re.Match[str]) -> str:
        if match.group(1) in ("@", "@!") and int(match.group(2)) in seat_of:
            return "{" + str(seat_of[int(match.group(2))]) + "}"
        return "someone"

    return dict(json.loads(MENTION.sub(plain, json.dumps(dict(result)))))


def player(seat: SeatRecord, departure: Departure | None, moves: int, ended_by: int | None) -> Player:
    """A seat as the record lists it, with how its person left, if they did."""
    ai = seat.ai_level if seat.user_id is None else None
    left: How | None = None
    after: int | None = None
    then = None
    if departure is not None:
        left, after, then = departure.how, departure.after_move, departure.ai_level
    elif seat.user_id is not None and seat.resigned:  # left before departures were noted
        left, then = "resigned", seat.ai_level
        after = moves if seat.seat == ended_by else None
    elif seat.user_id is not None and seat.ai_level is not None:  # a timeout before departures were noted
        left, then = "timed out", seat.ai_level
    return Player(seat=seat.seat, name=seat.plain_name, ai=ai, resigned=left is not None, left=left,
                  left_after=after, then_ai=then)


def assemble(game: Game[Any], record: GameRecord, seats: Sequence[SeatRecord],
             moves: Sequence[MoveRecord], departures: Sequence[Departure] = (),
             notes: Mapping[int, str] | None = None) -> Record:
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
    left = {d.seat: d for d in departures}
    resigned = (record.result or {}).get("resigned") or []
    ended_by = resigned[0] if isinstance(resigned, list) and resigned and isinstance(resigned[0], int) else None
    return Record(
        game=record.kind,
        number=record.id,
        status="finished" if record.status == "finished" else "active",
        challenge=record.challenge_id,
        options=dict(record.options),
        players=[player(s, left.get(s.seat), len(moves), ended_by) for s in seats],
        commitment=commitment(record.kind, record.seed, record.salt) if record.salt is not None else None,
        seed=record.seed if public else None,
        salt=record.salt if public else None,
        moves=[Move(seq=m.seq, seat=m.seat, move=m.move, at=m.created_at, story=lines,
                    ai=m.actor_id is None and (notes or {}).get(m.seq) is None, made=made(notes, m.seq))
               for m, lines in zip(moves, stories, strict=True)],
        result=without_ids(record.result, seats) if record.result is not None and record.status == "finished"
        else None,
    )


async def record_of(store: GameStore, game: Game[Any], game_id: int) -> Record:
    """Game ``game_id``'s record as the store has it now. The move log is read last:
    a move made meanwhile is then in the log though perhaps not in the status read
    before it, which at worst keeps the seed back once more (never shows it early)."""
    record = await store.game_record(game_id)
    if record is None:
        raise CorruptRecord("That game no longer exists.")
    seats = await store.seats(game_id)
    departures = await departures_of(store.db, game_id)
    notes = await move_notes(store.db, game_id)
    moves = await store.moves(game_id)
    return await asyncio.to_thread(assemble, game, record, seats, moves, departures, notes)


def made(notes: Mapping[int, str] | None, seq: int) -> Literal["auto", "forecast"] | None:
    """How the bot made move ``seq`` for its person (``move_notes``), if it did."""
    note = (notes or {}).get(seq)
    return note if note in ("auto", "forecast") else None  # type: ignore[return-value]
