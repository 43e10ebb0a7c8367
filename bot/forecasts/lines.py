"""Forecasts in the bot (issue #41; the rule is ``engine.core.forecast``): lines typed with
``/pyramid forecast`` are read and checked here, kept privately (``bot.store.forecast_lines``),
and looked at after every move (``SessionService.followers``) and by the sweep: when the seat's
turn comes, the matching line's answer is played at once through ``make_move`` (marked
"forecast": the card says so and the record keeps it), or the forecast is dropped and the
player plays as usual. A forecast no line can match any more is dropped at once.

The typed form: lines separated by ``;`` (or new lines), each ``others' moves -> answer``,
the others' moves separated by ``|``, in the rules' notation as the board's story tells them:
``play B7 2,0 | play G20 3,1 -> play R40 1,0; pass -> pass``.
"""

from __future__ import annotations

import logging
from typing import Protocol

from bot.core.errors import PlayError
from bot.core.session import Session
from bot.core.session_service import MoveOutcome, SessionService
from bot.store import GameStore
from bot.store.forecast_lines import Forecast, ForecastStore
from engine.core import MoveRejected
from engine.core.forecast import MAX_LINES, MAX_OTHERS, Line, chosen, still_open
from engine.core.notation import MAX_MOVE_LENGTH
from i18n import N_

log = logging.getLogger(__name__)
#: The longest forecast text read (10 lines of 5 moves and an answer, each a move's length at most).
MAX_TEXT = 4000


class Announces(Protocol):
    async def announce(self, game_id: int) -> bool: ...


def parse_lines(text: str) -> list[Line]:
    """The lines of a typed forecast; :class:`PlayError` naming what is wrong."""
    if len(text) > MAX_TEXT:
        raise PlayError(N_("That forecast is too long."))
    parts = [p.strip() for chunk in text.split("\n") for p in chunk.split(";") if p.strip()]
    if not parts:
        raise PlayError(N_("Write at least one line: the others' moves, then -> and your answer."))
    if len(parts) > MAX_LINES:
        raise PlayError(N_("A forecast has at most {count} lines."), count=MAX_LINES)
    lines: list[Line] = []
    for number, part in enumerate(parts, start=1):
        if part.count("->") != 1:
            raise PlayError(N_("Line {line} needs one -> between the others' moves and your answer."), line=number)
        head, answer = (s.strip() for s in part.split("->"))
        others = tuple(m.strip() for m in head.split("|"))
        if not answer or not all(others):
            raise PlayError(N_("Line {line} has an empty move."), line=number)
        if len(others) > MAX_OTHERS:
            raise PlayError(N_("Line {line} names more than {count} moves of the others."), line=number,
                            count=MAX_OTHERS)
        if any(len(m) > MAX_MOVE_LENGTH for m in (*others, answer)):
            raise PlayError(N_("Line {line} has a move longer than {count} characters."), line=number,
                            count=MAX_MOVE_LENGTH)
        lines.append(Line(others, answer))
    return lines


class Forecaster:
    def __init__(self, store: GameStore, sessions: SessionService) -> None:
        self.store = store
        self.sessions = sessions
        self.forecasts = ForecastStore(store.db)
        #: Announces a forecast's move (the delivery, set by ``Host.build``).
        self.delivery: Announces | None = None

    async def set_lines(self, game_id: int, user_id: int, text: str) -> tuple[Session, list[Line]]:
        """Keep the player's lines for their next turn (replacing any), or refuse saying why."""
        lines = parse_lines(text)
        session = await self.sessions.load(game_id)
        if session.record.status != "active" or session.over:
            raise PlayError(N_("This game is not running any more."))
        seat = session.human_seat(user_id).seat
        if len(session.seats) < 2:
            raise PlayError(N_("Forecasts are for games with other players: here every turn is yours."))
        if session.game.waiting_for(session.state) == seat:
            raise PlayError(N_("It is your turn now: play it; a forecast is for while you wait."))
        await self.forecasts.set(game_id, seat, session.version, lines)
        return session, lines

    async def mine(self, game_id: int, user_id: int) -> tuple[Line, ...]:
        """The player's lines in the game (none: no forecast)."""
        seat = (await self.sessions.load(game_id)).human_seat(user_id).seat
        return next((f.lines for f in await self.forecasts.of_game(game_id) if f.seat == seat), ())

    async def clear(self, game_id: int, user_id: int) -> bool:
        session = await self.sessions.load(game_id)
        return await self.forecasts.drop(game_id, session.human_seat(user_id).seat)

    async def after_move(self, outcome: MoveOutcome) -> None:
        """A move was made: play a forecast whose turn came, drop those that cannot match."""
        await self.look(outcome.session.record.id)

    async def look(self, game_id: int) -> bool:
        """Play or drop the game's forecasts as the position asks; returns whether one was played."""
        forecasts = await self.forecasts.of_game(game_id)
        if not forecasts:
            return False
        session = await self.sessions.load(game_id)
        moves = await self.store.moves(game_id)
        for forecast in forecasts:
            since = [m.move for m in moves[forecast.after_seq:]]
            if session.over or session.record.status != "active":
                await self.forecasts.drop(game_id, forecast.seat)
            elif session.game.waiting_for(session.state) == forecast.seat:
                await self.forecasts.drop(game_id, forecast.seat)  # its turn: played or not, it is used
                return await self._play(session, forecast, since)
            elif any(m.seat == forecast.seat for m in moves[forecast.after_seq:]) or not still_open(
                    forecast.lines, since):
                await self.forecasts.drop(game_id, forecast.seat)
        return False

    async def _play(self, session: Session, forecast: Forecast, since: list[str]) -> bool:
        answer = chosen(session.game, session.state, forecast.seat, forecast.lines, since)
        seat = session.seat(forecast.seat)
        if answer is None or seat is None or seat.user_id is None or seat.is_ai:
            return False
        try:
            await self.sessions.make_move(session.record.id, answer, user_id=seat.user_id,
                                          expected_version=session.version, note="forecast",
                                          expected_undos=session.record.undos)
        except (PlayError, MoveRejected) as exc:  # someone moved first, or the clock ran out: the turn as usual
            log.info("forecast of game %s not played: %s", session.record.id, exc)
            return False
        if self.delivery is not None:
            await self.delivery.announce(session.record.id)
        return True
