"""How people left their games: the rows of ``seat_departures`` (migration 0013).

A seat's ``resigned`` flag and AI level say *that* its person left, not when nor
how. Ratings need the when (a person who left loses to everyone still playing at that
moment, so two leavers are ordered by who held out longer) and game records need both
(a timed-out seat is marked as such, with the move from which an AI played it). The
row is written when the person leaves: by ``bot.resignations.resignations`` for a resignation
or a forfeit on timeout, by the reminder sweep when a timeout hands the seat to an AI.
Games whose people left before this table existed have no rows; readers fall back to
what the seat itself says (``bot.ratings.outcome``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bot.store.database import Database, Tx
from bot.store.records import AiLevel, CorruptRecord

How = Literal["resigned", "timed out"]


class Departure(BaseModel):
    """One person's leaving: ``after_move`` moves had been made; ``ai_level`` played
    the seat from move ``after_move + 1`` (None: the game ended there)."""

    model_config = ConfigDict(frozen=True)

    game_id: int
    seat: int = Field(ge=0)
    how: How
    after_move: int = Field(ge=0)
    ai_level: AiLevel | None = None
    at: str = ""


async def record_departure(db: Database, game_id: int, seat: int, how: How, *, after_move: int,
                           ai_level: AiLevel | None) -> None:
    """Note that the person in ``seat`` left after move ``after_move``; a second note
    for the same seat (a retried sweep) keeps the first."""
    async with db.transaction() as conn:
        await note_departure(conn, game_id, seat, how, after_move=after_move, ai_level=ai_level, at=db.now())


async def note_departure(conn: Tx, game_id: int, seat: int, how: How, *, after_move: int, ai_level: AiLevel | None,
                         at: str) -> None:
    """:func:`record_departure` inside the caller's transaction (``bot.store.leaving``)."""
    await conn.execute(
        "INSERT INTO seat_departures (game_id, seat, how, after_move, ai_level, at) VALUES (?, ?, ?, ?, ?, ?)"
        " ON CONFLICT(game_id, seat) DO NOTHING",
        (game_id, seat, how, after_move, ai_level, at),
    )


async def departures_of(db: Database, game_id: int) -> Sequence[Departure]:
    """The departures of one game, by seat."""
    rows = await db.read_all("SELECT * FROM seat_departures WHERE game_id = ? ORDER BY seat", (game_id,))
    try:
        return [Departure.model_validate(dict(row)) for row in rows]
    except ValidationError as exc:
        raise CorruptRecord(f"A stored departure of game {game_id} is damaged and cannot be read.") from exc


#: The AI level a timeout hands a seat to (``bot.reminders.reminders``).
TIMEOUT_AI: AiLevel = "normal"

