"""Games in play: loading them from the store and making moves, safely.

A move goes through one path whatever its source (button, slash command, AI,
timeout): take the game's lock, check the board version the player saw, ask the
clock whether the mover's time bank is empty (then the move is refused and the
timeout applied, as the sweep would: :class:`OutOfTime`), let the engine judge it,
then write it as move N+1 together with its snapshot and the
outbox rows that announce it (``bot.core.announcements.plan``), in one transaction.
The lock stops two clicks in this process from interleaving; the (game, seq) key
stops a second process or a retried request from writing the same move twice.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from bot.core.announcements import plan
from bot.core.errors import OutOfTime, PlayError, StaleBoard
from bot.core.session import Session
from bot.games.catalogue import Catalogue
from bot.games.presenter import Presenter
from bot.store import CorruptRecord, DuplicateMove, GameRecord, GameStore, LobbyError
from bot.workers.cpu import CpuPool
from engine.core import BadPosition, EngineError, Event, Game, Result
from i18n import N_

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class MoveOutcome:
    session: Session
    seat: int
    move: str
    events: list[Event]
    result: Result | None


class BankKeeper(Protocol):
    """The turn clock as a move needs it (``bot.clock.clocks.Clocks``): the
    time, whether the seat to act ran out of it (the sweep's own question), and the
    bank a seat keeps after its move."""

    def now(self) -> datetime: ...

    async def out_of_time(self, session: Session, now: datetime | None = None) -> object | None: ...

    async def after_move(self, before: Session, seat: int, after: Session,
                         now: datetime | None = None) -> tuple[int, float] | None: ...


#: Applies the timeout of a game whose seat to act ran out of time, as the sweep does; returns what
#: it did ("ai", "forfeit") or None (``bot.reminders.reminders.Reminders.run_out``).
TimeoutKeeper = Callable[[int], Awaitable[str | None]]


class SessionService:
    """Owns the in-memory cache of loaded games and the per-game locks.

    ``on_move`` hears of every move written, by the kind of its game (the metrics
    count them). ``clocks`` (set by ``Host.build``) is asked, under the game's lock,
    whether the mover's bank is empty (the move is then refused) and gives the mover's
    new bank, written in the move's transaction; without it banks are not kept (all
    stay full). ``timeouts`` (set by ``Host.build``) applies the timeout a refused move
    found, at once."""

    clocks: BankKeeper | None = None
    timeouts: TimeoutKeeper | None = None

    def __init__(self, store: GameStore, catalogue: Catalogue, cpu: CpuPool | None = None, *,
                 cache_size: int = 512, on_move: Callable[[str], None] | None = None) -> None:
        self.store = store
        self.catalogue = catalogue
        self.cpu = cpu
        self.on_move = on_move
        self._cache: OrderedDict[int, Session] = OrderedDict()
        self._cache_size = cache_size
        self._locks: dict[int, asyncio.Lock] = {}

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    def forget(self, game_id: int) -> None:
        self._cache.pop(game_id, None)

    def _presenter(self, record: GameRecord) -> Presenter:
        try:
            return self.catalogue.presenter(record.kind)
        except EngineError as exc:
            raise PlayError(exc.text) from exc

    async def load(self, game_id: int, *, fresh: bool = False) -> Session:
        """The game as it stands; from cache, else snapshot, else replaying the log."""
        if not fresh and game_id in self._cache:
            self._cache.move_to_end(game_id)
            cached = self._cache[game_id]
            # One read: has anything (this process or another) changed the game since?
            if await self.store.revision(game_id) == cached.record.revision:
                return cached
        record = await self.store.game_record(game_id)
        if record is None:
            raise PlayError(N_("That game no longer exists."))
        seats = await self.store.seats(game_id)
        presenter = self._presenter(record)
        if record.status in ("lobby", "cancelled") and not seats:
            raise PlayError(N_("That game has not started."))
        moves = await self.store.moves(game_id)
        state = await self._state_from_snapshot(presenter.game, record, len(moves))
        if state is None:
            state = await self._rebuild(presenter.game, record, len(seats), [(m.seat, m.move) for m in moves])
        session = Session(record, seats, presenter, state, len(moves))
        self._remember(session)
        return session

    async def load_at(self, game_id: int, version: int) -> Session:
        """The game as it stood after move ``version``: an announcement retried
        after a crash must show what its first attempt showed (same nonce, same
        content), even if the game has moved on since."""
        current = await self.load(game_id)
        if version >= current.version:
            return current
        moves = await self.store.moves(game_id)
        state = await self._rebuild(current.game, current.record, len(current.seats),
                                    [(m.seat, m.move) for m in moves[:version]])
        return Session(current.record, current.seats, current.presenter, state, version)

    async def replay_events(self, game_id: int, since: int, until: int) -> list[Event]:
        """The events of moves ``since+1 .. until``, rebuilt from the log (for a
        board whose story was not stored with its moves), off the event loop."""
        session = await self.load(game_id)
        moves = [(m.seat, m.move) for m in (await self.store.moves(game_id))[:until]]
        record = session.record
        try:
            if self.cpu is not None:
                return await self.cpu.replay_events(session.game, len(session.seats), record.options, record.seed,
                                                    moves, since)
            state = session.game.setup(len(session.seats), record.options, record.seed)
            events: list[Event] = []
            for number, (seat, move) in enumerate(moves, start=1):
                state, happened = session.game.play(state, seat, move)
                if number > since:
                    events.extend(happened)
            return events
        except (EngineError, ValueError) as exc:
            raise CorruptRecord(f"Game {game_id} cannot be rebuilt from its move log ({exc}).") from exc

    async def _rebuild(self, game: Game[Any], record: GameRecord, players: int, moves: list[tuple[int, str]]) -> Any:
        """Replay the log, in the CPU pool when there is one: a long log, or a set-up
        that searches for a winnable deal, would stall every click on the loop."""
        if self.cpu is None:
            return self._replay(game, record, players, moves)
        try:
            position = await self.cpu.replay(game, players, record.options, record.seed, moves)
            return game.from_position(position)
        except (EngineError, ValueError, KeyError, TypeError) as exc:
            raise CorruptRecord(f"Game {record.id} cannot be rebuilt from its move log ({exc}).") from exc

    async def _state_from_snapshot(self, game: Game[Any], record: GameRecord, version: int) -> Any | None:
        try:
            snap = await self.store.snapshot(record.id)
        except CorruptRecord:
            return None
        if snap is None or snap[0] != version:
            return None
        try:
            return game.from_position(snap[1])
        except (BadPosition, KeyError, TypeError, ValueError):
            log.warning("snapshot of game %s unusable; replaying its log", record.id)
            return None

    @staticmethod
    def _replay(game: Game[Any], record: GameRecord, players: int, moves: list[tuple[int, str]]) -> Any:
        try:
            return game.replay(players, record.options, record.seed, moves)
        except (EngineError, ValueError) as exc:
            raise CorruptRecord(f"Game {record.id} cannot be rebuilt from its move log ({exc}).") from exc

    def _remember(self, session: Session) -> None:
        self._cache[session.record.id] = session
        self._cache.move_to_end(session.record.id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    async def start(self, game_id: int) -> Session:
        """Turn a lobby into a running game (set-up from options and seed).

        The seats are read and the lobby closed in one store transaction first
        (:meth:`GameStore.begin_game`), and only then is the deal made, off the
        event loop if it searches. A join or leave racing the start either lands
        before that transaction (and is dealt in) or is refused after it, so the
        deal always has exactly the game's seats. The game is 'active' while its
        deal is made; that is safe because the deal is a function of the seats,
        options and seed alone, which is also how a restart rebuilds it."""
        async with self.lock(game_id):
            record = await self.store.game_record(game_id)
            if record is None or record.status != "lobby":
                raise PlayError(N_("This lobby has already started or closed."))
            presenter = self._presenter(record)
            game = presenter.game
            try:
                low, high = game.player_range(game.parse_options(record.options))
            except EngineError as exc:
                raise PlayError(exc.text) from exc
            try:
                seats = await self.store.begin_game(game_id, min_players=low, max_players=high)
            except LobbyError as exc:
                raise PlayError(exc.text) from exc
            try:
                if self.cpu is not None:  # some set-ups search (winnable deals only): off the event loop
                    position = await self.cpu.setup(game, len(seats), record.options, record.seed)
                    state = game.from_position(position)
                else:
                    state = game.setup(len(seats), record.options, record.seed)
            except EngineError as exc:
                await self.store.reopen_lobby(game_id)
                raise PlayError(exc.text) from exc
            except Exception:
                await self.store.reopen_lobby(game_id)
                raise
            started = await self.store.game_record(game_id)  # as begin_game left it (status, time, revision)
            session = Session(started or record, seats, presenter, state, 0)
            self._remember(session)
            return session

    async def make_move(
        self,
        game_id: int,
        move: str,
        *,
        user_id: int | None,
        seat: int | None = None,
        expected_version: int | None = None,
    ) -> MoveOutcome:
        """Apply one move for a user (``user_id``) or for a seat the bot plays
        (``seat``, with ``user_id`` None). Raises PlayError/StaleBoard/MoveRejected
        with a readable reason and changes nothing in that case; OutOfTime when the
        mover's bank was empty, after the timeout was applied."""
        async with self.lock(game_id):
            outcome = await self._move_locked(game_id, move, user_id=user_id, seat=seat,
                                              expected_version=expected_version)
        if outcome is None:  # the bank was empty: the timeout, now (outside the lock, which it takes itself)
            raise OutOfTime(await self.timeouts(game_id) if self.timeouts is not None else None)
        if self.on_move is not None:
            self.on_move(outcome.session.record.kind)
        return outcome

    async def _move_locked(self, game_id: int, move: str, *, user_id: int | None, seat: int | None,
                           expected_version: int | None) -> MoveOutcome | None:
        """:meth:`make_move` under the game's lock; None when the mover's time ran out."""
        session = await self.load(game_id)
        if session.record.status != "active":
            raise PlayError(N_("This game is not running any more."))
        if expected_version is not None and expected_version != session.version:
            raise StaleBoard(session.version)
        if seat is None:
            if user_id is None:
                raise PlayError(N_("You are not playing in this game."))
            # checked again under the game's lock: a resign racing this move wins
            seat = session.human_seat(user_id).seat
        # The clock is the authority at the moment of the move, whatever the sweep did (late, a restart):
        # the same question the sweep asks, about the seat to act (an AI's seat, or a public decision
        # made out of turn, runs no clock).
        now = self.clocks.now() if self.clocks is not None else None
        if self.clocks is not None and seat == session.to_act and await self.clocks.out_of_time(session, now):
            return None
        new_state, events = session.game.play(session.state, seat, move)
        final = session.game.waiting_for(new_state) is None
        result = session.game.result(new_state) if final else None
        seq = session.version + 1
        # The write bumps the revision once; had anyone else changed the game meanwhile,
        # the stored revision is further on, and the next load rebuilds from the database.
        record = session.record.model_copy(update={"revision": session.record.revision + 1})
        stored = result.to_json() if result is not None else None
        if stored is not None:
            record = record.model_copy(update={"status": "finished", "result": stored})
        after = Session(record, session.seats, session.presenter, new_state, seq, events, seat)
        bank = await self.clocks.after_move(session, seat, after, now) if self.clocks is not None else None
        try:
            written_at = await self.store.append_move(
                game_id, seq, seat, move.strip(), actor_id=user_id,
                snapshot=session.game.to_position(new_state),
                status="finished" if stored is not None else None,
                result=stored,
                announcements=plan(after, [seat], events),
                bank=bank,
            )
        except DuplicateMove as exc:
            self.forget(game_id)
            raise StaleBoard(seq) from exc
        # idleness (reminders, timeouts) runs from this move, in this process's cache too
        after = dataclasses.replace(after, record=after.record.model_copy(update={"updated_at": written_at}))
        self._remember(after)
        return MoveOutcome(after, seat, move.strip(), events, result)
