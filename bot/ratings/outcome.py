"""A finished game as ratings see it: who sat where and how each seat finished.

It is worked out from the engine's state, rebuilt from the move log, the seats and
their departures (``bot.store.departures``), never from the result stored with the
game, so ratings can be recomputed from the logs (``pyramid-bot rebuild-ratings``)
and come out the same as when they were applied at each game's end:

* a game the engine finished: the engine's result;
* a game that ended when a seat left it (a resignation, or a timeout that forfeits,
  in a two-seat or solo game; see ``bot.resignations.resignations``): ``Game.forfeit`` of the
  leaving seat, on the state its log rebuilds;
* a cancelled (aborted) game, or one still running: nothing; it never counts;
* a game too short to measure skill (``bot.ratings.rules.too_short``): it is counted
  as played (``short``), and changes no rating and no record.
* a losing seat whose person made fewer moves of their own than the game's minimum
  (``bot.ratings.rules.idle_seats``, counted from the move log here, for every way a
  game ends): it is marked ``idle``, and nobody is rated against it (the ledger).

**People who leave.** A person who resigned or timed out loses, whatever the seat's
result: against everyone still playing when they left, and never draws because
everyone left. Each person's seat is ranked by when they left (``left_at``, the moves
made by then): those who stayed first (by the game's result), then the leavers, who
left later above who left earlier. A seat that an AI played on after its person left
(a timeout, or a resignation in a bigger game) is also a side of its own, a
*stand-in* at that AI level's fixed rating, ranked by the seat's result: the AI, not
the person, finished that seat. How the ranks become ratings is the ledger's
(``bot.ratings.ledger``): a leaver's rating moves only by their losses to those still
playing when they left, so leaving never gains anything.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from bot.games.catalogue import Catalogue
from bot.ratings.rules import Counting, counting, idle_seats
from bot.store.departures import Departure
from bot.store.records import AiLevel, GameRecord, MoveRecord, SeatRecord
from engine.core import Game, Result

#: ``left_at`` of the seat whose leaving ended the game when no departure was noted
#: (games that ended before departures were recorded): it left last.
LEFT_LAST = 2**31 - 1
#: ``left_at`` of a leaver with no noted departure that did not end the game: before
#: anything that was noted.
LEFT_UNNOTED = -1


class SeatOutcome(BaseModel):
    """How one seat finished. ``rank``: 0 first, equal ranks tie (rated games only)."""

    model_config = ConfigDict(frozen=True)

    seat: int
    #: The person in the seat (None: an AI seat from the start, or a stand-in).
    user_id: int | None
    #: The AI level of an AI seat from the start or a stand-in (None for a person's seat).
    ai_level: AiLevel | None = None
    rank: int = 0
    won: bool = False
    #: The person left (resigned, or timed out): a loss whatever the seat's result.
    left: bool = False
    #: A leaver: how many moves had been made when they left; a stand-in: when it took
    #: the seat over. None: stayed (or an outcome counted before this was kept).
    left_at: int | None = None
    #: What a completion record keeps the best of (solo and co-op games).
    score: float | None = None
    #: A person who lost having made fewer moves of their own than the game's minimum
    #: (``bot.ratings.rules.idle_seats``): nobody is rated against this seat.
    idle: bool = False


class GameOutcome(BaseModel):
    """One finished game, as it counts: ``rated`` (ratings) or a completion record of
    ``variant``; ``short``: too short to count at all. ``finished_at`` (ISO time) orders
    games for the ratings."""

    model_config = ConfigDict(frozen=True)

    game_id: int
    kind: str
    guild_id: int | None
    finished_at: str
    rated: bool
    variant: str = ""
    seats: tuple[SeatOutcome, ...]
    #: The AIs that played a seat on after its person left (see the module docstring).
    stand_ins: tuple[SeatOutcome, ...] = ()
    short: bool = False
    #: Its game was made not to count (``GameRecord.rated`` False): the rating store never writes it.
    excluded: bool = False

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
    ender = ending_seat(seats)
    if ender is None:
        return None
    return game.forfeit(state, ender.seat), False


def ending_seat(seats: Sequence[SeatRecord]) -> SeatRecord | None:
    """The seat whose leaving ended a game that the engine did not end: a leaver not
    handed to an AI (bigger games go on with an AI in a leaver's seat and end with the
    engine's result)."""
    leavers = [s for s in seats if s.resigned]
    if not leavers:
        return None
    return next((s for s in leavers if s.ai_level is None), leavers[0])


def finish_time(record: GameRecord, last_move_at: str | None, by_engine: bool) -> str:
    """When the game ended: its last move's time when the engine ended it (the log
    keeps it for good), else the time its status was last written (its end)."""
    if by_engine and last_move_at is not None:
        return last_move_at
    return record.updated_at


def own_moves(seats: Sequence[SeatRecord], moves: Sequence[MoveRecord]) -> dict[int, int]:
    """The moves each person's seat made by its person's own hand (not by an AI that
    stood in for them), from the move log."""
    people = {s.seat: s.user_id for s in seats if s.user_id is not None}
    counts = dict.fromkeys(people, 0)
    for m in moves:
        if m.seat in people and m.actor_id == people[m.seat]:
            counts[m.seat] += 1
    return counts


def outcome_of(record: GameRecord, seats: Sequence[SeatRecord], result: Result, finished_at: str, *,
               played: Mapping[int, int], departures: Sequence[Departure] = (),
               ender: int | None = None, catalogue: Catalogue | None = None) -> GameOutcome | None:
    """How a finished game counts, or None when it doesn't (not finished, or nobody
    in it is a person). ``played``: the moves each person's seat made by its person's
    own hand (:func:`own_moves`; the minimum of play is asked of them). ``ender``: the
    seat whose leaving ended the game (None: the engine ended it). ``catalogue``: where the
    game's presenter, and so its rating rules, is found (None: the shipped games)."""
    if record.status != "finished" or not any(s.user_id is not None for s in seats):
        return None
    how = counting(record.kind, record.options, len(seats), catalogue)
    left = {s.seat for s in seats if s.user_id is not None and (s.resigned or s.ai_level is not None)}
    left |= {s for s in result.resigned if any(x.seat == s and x.user_id is not None for x in seats)}
    noted = {d.seat: d.after_move for d in departures}
    left_at = {s: noted.get(s, LEFT_LAST if s == ender else LEFT_UNNOTED) for s in left}
    winners = set(result.winners) - left
    rated = how.rated and len(seats) >= 2
    people = {s.seat: played.get(s.seat, 0) for s in seats if s.user_id is not None}
    idle = idle_seats(record.kind, len(seats), people, winners, catalogue) if rated else frozenset()
    stand_in_seats = [s for s in seats if s.seat in left and s.ai_level is not None and s.seat != ender]
    ranks: dict[int, int] = {}
    stand_in_ranks: dict[int, int] = {}
    if rated:
        ranks, stand_in_ranks = _ranks(how, result, [s.seat for s in seats], winners, left_at,
                                       [s.seat for s in stand_in_seats])
    outcomes = tuple(
        SeatOutcome(
            seat=s.seat,
            user_id=s.user_id,
            ai_level=s.ai_level if s.user_id is None else None,
            rank=ranks.get(s.seat, 0),
            won=s.seat in winners,
            left=s.seat in left,
            left_at=left_at.get(s.seat),
            score=None if rated else how.record_score(result, s.seat),
            idle=s.seat in idle,
        )
        for s in seats
    )
    stand_ins = tuple(
        SeatOutcome(seat=s.seat, user_id=None, ai_level=s.ai_level, rank=stand_in_ranks[s.seat],
                    won=s.seat in result.winners, left_at=left_at[s.seat])
        for s in stand_in_seats
    ) if rated else ()
    return GameOutcome(game_id=record.id, kind=record.kind, guild_id=record.guild_id, finished_at=finished_at,
                       rated=rated, variant="" if rated or how.short else how.variant, seats=outcomes,
                       stand_ins=stand_ins, short=how.short, excluded=not record.rated)


def _ranks(how: Counting, result: Result, seats: Sequence[int], winners: set[int], left_at: Mapping[int, int],
           stand_ins: Sequence[int]) -> tuple[dict[int, int], dict[int, int]]:
    """Dense ranks of the seats and of the stand-ins: the seats that stayed and the
    stand-ins by the result (winners first, then by score, the way the game's scores
    point), then the seats whose person left, who left later first."""

    def key(seat: int, won: bool) -> tuple[int, float]:
        if won:
            return (0, 0.0)
        score = result.scores[seat] if seat < len(result.scores) else None
        if score is None or how.better is None:
            return (1, 0.0)
        return (1, -score if how.better == "higher" else score)

    playing = {key(s, s in winners) for s in seats if s not in left_at}
    playing |= {key(s, s in result.winners) for s in stand_ins}
    order = {k: i for i, k in enumerate(sorted(playing))}
    leaving = sorted(set(left_at.values()), reverse=True)
    after = {moment: len(order) + i for i, moment in enumerate(leaving)}
    seat_ranks = {s: after[left_at[s]] if s in left_at else order[key(s, s in winners)] for s in seats}
    return seat_ranks, {s: order[key(s, s in result.winners)] for s in stand_ins}


def count_game(game: Game[Any], state: Any, record: GameRecord, seats: Sequence[SeatRecord],
               moves: Sequence[MoveRecord], *, ended_at: str | None = None,
               departures: Sequence[Departure] = (), catalogue: Catalogue | None = None) -> GameOutcome | None:
    """How a finished game counts, from the state its log rebuilds (``state``), its
    seats, their ``departures`` and its move log (``moves``: who played how much, and
    the last move's time); ``ended_at``: the end time recorded when it was first
    counted, kept by a rebuild. None: it does not count (not finished, nobody in it,
    or a log that explains no end). Every way a game is counted comes here: the bot at
    a game's end (whether the engine, a resignation, a timeout or a forfeit ended it)
    and ``pyramid-bot rebuild-ratings``."""
    if record.status != "finished":
        return None
    ended = final_result(game, state, seats)
    if ended is None:
        return None
    result, by_engine = ended
    ender = None if by_engine else ending_seat(seats)
    last_move_at = moves[-1].created_at if moves else None
    return outcome_of(record, seats, result, ended_at or finish_time(record, last_move_at, by_engine),
                      played=own_moves(seats, moves), departures=departures,
                      ender=None if ender is None else ender.seat, catalogue=catalogue)
