"""Taking one's own last move back, when it showed nobody anything hidden (issue #41).

The one path for an undo, whatever asks for it (``/pyramid undo``): under the game's lock
(the one every move takes, ``SessionService.lock``), it checks who asks and whether the
server lets them, asks the engine whether the move revealed anything
(``engine.core.undo.revealed``: a tile drawn, a face-down tile turned, a random event),
and then takes the move out of the log in one transaction with everything it changed
(``bot.store.undos.UndoStore.take_back``: snapshot, time bank, announcements).

Refusals, in the order they are checked:
- the game is not running, or the asker has no seat in it;
- the game lives where only the app's user install reaches (``GameRecord.in_place``): its one
  card is updated by its players' clicks, and an undo would leave it showing the move;
- the server turned undo off, or the game is rated, a tournament's or a shared deal's (a
  challenge, the daily) and the server allows undo only in casual games (the default);
- the last move is not the asker's own (someone else acted since, or an AI or the clock
  played it for them);
- the player took a move back in this turn already (one undo per turn: the moves they made in
  a row, a play and the falls it decides);
- the move showed something hidden (the engine's rule).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from bot.core.errors import PlayError
from bot.core.session import Session
from bot.core.session_service import SessionService
from bot.ratings.rules import counting
from bot.store import GameStore
from bot.store.undos import UndoRaced, UndoStore
from engine.core.undo import NOT_YOURS, ONCE, REFUSED, revealed, turn_began
from i18n import N_


@dataclass(frozen=True)
class TakenBack:
    """An undo made: the game as it stands again, and the move taken back."""

    session: Session
    seat: int
    move: str


class Undos:
    def __init__(self, store: GameStore, sessions: SessionService) -> None:
        self.store = store
        self.undo_rows = UndoStore(store.db)
        self.sessions = sessions

    async def offered(self, session: Session, seat: int, move: str) -> bool:
        """Whether ``seat``'s ``move`` from ``session`` may be taken back once made, as far as the
        server and the engine say (the rest, one per turn and nobody acting since, is checked at
        the undo): a ↩ Take back on the mover's hand card. The engine's rule runs off the event
        loop (tens of milliseconds for a move that shows nothing), and only where undo is allowed."""
        try:
            await self.allowed_here(session)
        except PlayError:
            return False
        return await asyncio.to_thread(revealed, session.game, session.state, seat, move) is None

    async def allowed_here(self, session: Session) -> None:
        """Refuse when the game's server does not let its players take moves back."""
        record = session.record
        if record.in_place:  # its one card, updated by its players' clicks, would keep showing the move
            raise PlayError(N_("Moves can't be taken back in a game played through the app's user install "
                               "(a group DM or a DM the bot isn't in)."))
        mode = await self.undo_rows.mode(record.guild_id)
        if mode == "off":
            raise PlayError(N_("Taking moves back is turned off in this server."))
        if mode == "casual":
            rated = counting(record.kind, record.options, len(session.seats)).rated and sum(
                1 for s in session.seats if s.user_id is not None and not s.is_ai) > 1
            # A game made unrated is a tournament's (``GameRecord.rated``): a tournament's games, rated
            # or not, take no moves back unless the server allows it.
            if rated or not record.rated or record.challenge_id is not None:
                raise PlayError(N_("Moves can't be taken back in rated games, tournaments or shared deals here; a "
                                   "server admin can allow it with `/pyramid-admin undo mode:all`."))

    async def take_back(self, game_id: int, user_id: int, *, move_number: int | None = None,
                        asked_by: int | None = None) -> TakenBack:
        """Take ``user_id``'s last move in the game back, or raise :class:`PlayError` saying why not.
        ``move_number``: the move a ↩ Take back button was shown for (it must still be the last);
        ``asked_by``: the interaction's id (messages older than it become stale, ``bot.forecasts.stale``)."""
        sessions = self.sessions
        async with sessions.lock(game_id):
            session = await sessions.load(game_id)
            if session.record.status != "active":
                raise PlayError(N_("This game is not running any more."))
            seat = session.human_seat(user_id).seat
            await self.allowed_here(session)
            moves = await self.store.moves(game_id)
            last = moves[-1] if moves else None
            if last is None or last.seat != seat or last.actor_id != user_id or (
                    move_number is not None and last.seq != move_number):
                raise PlayError(NOT_YOURS)
            if await self.undo_rows.undone_since(game_id, seat, turn_began([(m.seat, m.move) for m in moves])):
                raise PlayError(ONCE)
            before = await sessions.load_at(game_id, last.seq - 1)  # the log replayed without it
            why = revealed(session.game, before.state, seat, last.move)
            if why is not None:
                raise PlayError(REFUSED[why])
            hands = [s for s in dict.fromkeys([seat, session.to_act]) if s is not None and self._dealt(session, s)]
            try:
                await self.undo_rows.take_back(game_id, seq=last.seq, seat=seat, user_id=user_id, move=last.move,
                                           snapshot=session.game.to_position(before.state), hands=hands,
                                           channel_id=session.record.play_channel_id,
                                           strip=not session.record.in_place, discord_id=asked_by)
            except UndoRaced as exc:
                sessions.forget(game_id)
                raise PlayError(N_("Someone moved at the same moment; your move stands.")) from exc
            sessions.forget(game_id)
            again = await sessions.load(game_id)
        return TakenBack(again, seat, last.move)

    @staticmethod
    def _dealt(session: Session, seat_no: int) -> bool:
        """Whether the seat gets hand DMs (a person's seat in a game with hands)."""
        seat = session.seat(seat_no)
        return session.presenter.has_hand and seat is not None and seat.user_id is not None and not seat.is_ai
