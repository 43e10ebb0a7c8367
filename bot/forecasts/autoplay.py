"""Forced moves played for the player (issue #41): when the seat to act has one legal move
and its person asked for it (``/pyramid autoplay``), the bot plays it once the turn is
:data:`GRACE` old, so nobody sees their move vanish the moment it comes, and the card says
"auto: the only move". Never where the move being the only one follows from something the
seat cannot see (``engine.core.forced.forced_move``).

The reminder sweep asks every running game (``Reminders.sweep_game`` calls
:meth:`AutoPlayer.play_if_forced` first), so a restart or another process's sweep plays it
just the same; the move goes through ``SessionService.make_move`` like any other, with the
turn's version, so a player's own click at the same moment wins or loses cleanly.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Protocol

from bot.core.errors import PlayError
from bot.core.session_service import SessionService
from bot.store import GameRecord, GameStore
from bot.store.autoplay import AutoplayStore
from bot.store.clocks import ClockStore
from engine.core import MoveRejected
from engine.core.forced import forced_move

#: How long a forced move waits for its player before the bot plays it.
GRACE = timedelta(seconds=30)


class Announces(Protocol):
    async def announce(self, game_id: int) -> bool: ...


class AutoPlayer:
    def __init__(self, store: GameStore, sessions: SessionService, delivery: Announces) -> None:
        self.store = store
        self.sessions = sessions
        self.delivery = delivery
        self.choices = AutoplayStore(store.db)
        self.clocks = ClockStore(store.db)

    async def play_if_forced(self, record: GameRecord, now: datetime) -> bool:
        """Play the seat to act's only move if its person wants that and the grace is over;
        returns whether it did."""
        try:
            session = await self.sessions.load(record.id)
        except PlayError:
            return False
        seat_no = session.to_act
        seat = session.seat(seat_no) if seat_no is not None else None
        if seat_no is None or seat is None or seat.user_id is None or seat.is_ai or session.over:
            return False
        move = forced_move(session.game, session.state, seat_no)
        if move is None or not await self.choices.wanted(seat.user_id, record.id):
            return False
        started = await self.clocks.move_time(record.id, session.version) if session.version else None
        if now - datetime.fromisoformat(started or session.record.updated_at) < GRACE:
            return False
        try:
            await self.sessions.make_move(record.id, move, user_id=None, seat=seat_no,
                                          expected_version=session.version, note="auto",
                                          expected_undos=session.record.undos)
        except (PlayError, MoveRejected):  # the player (or another process) moved first
            return False
        await self.delivery.announce(record.id)
        return True
