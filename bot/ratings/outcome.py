"""A finished game as ratings see it: who sat where and how each seat finished.

It is worked out from the engine's state, rebuilt from the move log, and the seats,
never from the result stored with the game, so ratings can be recomputed from the
logs (``pyramid-bot rebuild-ratings``) and come out the same as when they were
applied at each game's end:

* a game the engine finished: the engine's result;
* a game that ended when a seat left it (a resignation, or a timeout that forfeits,
  in a two-seat or solo game; see ``bot.play.resignations``): ``Game.forfeit`` of the
  leaving seat, on the state its log rebuilds;
* a cancelled (aborted) game, or one still running: nothing; it never counts.

A person's seat that an AI finished (they resigned, or timed out and an AI took over)
counts as that person's loss: the seat ranks last and is never a win, whatever the AI
made of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from bot.ratings.rules import Counting, counting
from bot.store.records import AiLevel, GameRecord, SeatRecord
from engine.core import Game, Result


class SeatOutcome(BaseModel):
    """How one seat finished. ``rank``: 0 first, equal ranks tie (rated games only)."""

    model_config = ConfigDict(frozen=True)

    seat: int
    #: The person in the seat (None: an AI seat from the start).
    user_id: int | None
    #: The AI level of an AI seat from the start (None for a person's seat).
    ai_level: AiLevel | None = None
    rank: int = 0
    won: bool = False
    #: The person left (resigned, or timed out): a loss whatever the seat's result.
    left: bool = False
    #: What a completion record keeps the best of (solo and co-op games).
    score: float | None = None


class GameOutcome(BaseModel):
    """One finished game, as it counts: ``rated`` (ratings) or a completion record of
    ``variant``. ``finished_at`` (ISO time) orders games for the ratings."""

    model_config = ConfigDict(frozen=True)

    game_id: int
    kind: str
    guild_id: int | None
    finished_at: str
    rated: bool
    variant: str = ""
    seats: tuple[SeatOutcome, ...]

    @property
    def people(self) -> tuple[SeatOutcome, ...]:
        return tuple(s for s in self.seats if s.user_id is not None)


def final_result(game: Game[Any], state: Any, seats: Sequence[SeatRecord]) -> tuple[Result, bool] | None:
    """The result of a finished game from its rebuilt ``state`` and its seats, and
    whether the engine ended it (False: a seat's leaving did). None when neither
    explains an end (the log stops short of one and nobody left)."""
    result = game.result(state)
    if result is not None and game.waiting_for(state) is None:
        return result, True
    leavers = [s for s in seats if s.resigned]
    if not leavers:
        return None
    # The seat whose leaving ended the game was not handed to an AI (bigger games go on
    # with an AI in a leaver's seat and end with the engine's result).
    ender = next((s for s in leavers if s.ai_level is None), leavers[0])
    return game.forfeit(state, ender.seat), False


def finish_time(record: GameRecord, last_move_at: str | None, by_engine: bool) -> str:
    """When the game ended: its last move's time when the engine ended it (the log
    keeps it for good), else the time its status was last written (its end)."""
    if by_engine and last_move_at is not None:
        return last_move_at
    return record.updated_at


def outcome_of(record: GameRecord, seats: Sequence[SeatRecord], result: Result, finished_at: str) -> GameOutcome | None:
    """How a finished game counts, or None when it doesn't (not finished, or nobody
    in it is a person)."""
    if record.status != "finished" or not any(s.user_id is not None for s in seats):
        return None
    how = counting(record.kind, record.options, len(seats))
    left = {s.seat for s in seats if s.user_id is not None and (s.resigned or s.ai_level is not None)}
    left |= {s for s in result.resigned if any(x.seat == s and x.user_id is not None for x in seats)}
    winners = set(result.winners) - left
    rated = how.rated and len(seats) >= 2
    ranks = _ranks(how, result, [s.seat for s in seats], winners, left) if rated else {}
    outcomes = tuple(
        SeatOutcome(
            seat=s.seat,
            user_id=s.user_id,
            ai_level=s.ai_level if s.user_id is None else None,
            rank=ranks.get(s.seat, 0),
            won=s.seat in winners,
            left=s.seat in left,
            score=None if rated else how.record_score(result, s.seat),
        )
        for s in seats
    )
    return GameOutcome(game_id=record.id, kind=record.kind, guild_id=record.guild_id, finished_at=finished_at,
                       rated=rated, variant="" if rated else how.variant, seats=outcomes)


def _ranks(how: Counting, result: Result, seats: Sequence[int], winners: set[int], left: set[int]) -> dict[int, int]:
    """Dense ranks: winners first, then the others by score (the way the game's scores
    point), then every seat whose person left, tied last."""

    def key(seat: int) -> tuple[int, float]:
        if seat in winners:
            return (0, 0.0)
        score = result.scores[seat] if seat < len(result.scores) else None
        if score is None or how.better is None:
            return (1, 0.0)
        return (1, -score if how.better == "higher" else score)

    staying = sorted({key(s) for s in seats if s not in left})
    order = {k: i for i, k in enumerate(staying)}
    return {s: len(staying) if s in left else order[key(s)] for s in seats}


def count_game(game: Game[Any], state: Any, record: GameRecord, seats: Sequence[SeatRecord],
               last_move_at: str | None, *, ended_at: str | None = None) -> GameOutcome | None:
    """How a finished game counts, from the state its log rebuilds (``state``), its
    seats and its last move's time; ``ended_at``: the end time recorded when it was
    first counted, kept by a rebuild. None: it does not count (not finished, nobody
    in it, or a log that explains no end)."""
    if record.status != "finished":
        return None
    ended = final_result(game, state, seats)
    if ended is None:
        return None
    result, by_engine = ended
    return outcome_of(record, seats, result, ended_at or finish_time(record, last_move_at, by_engine))
