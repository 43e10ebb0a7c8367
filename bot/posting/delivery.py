"""The outbox worker: delivers every announcement once, in order per chain.

Who delivers: the handler that made a move calls ``deliver_game`` at once (the
player sees the board as fast as before); the worker started with the client
delivers what is due later (retries, blocked rows whose cause was fixed, AI turns,
and on start-up everything a stopped bot left behind). With several processes, a game of a
server is delivered only by the live process running its shard (:mod:`bot.posting.handoff`:
a move made from a DM is played on shard 0 and handed over). A game's rows form chains
(its boards, each player's hand DMs, button stripping, AI turns, its end); each
chain has a lock, and its rows are read again under it, so a row is delivered by
one deliverer, once, and in order: a retried board is never posted after its
successor. Different chains go side by side, so the next move's board never waits
for this move's hand DMs.

The AI's turn and the end of the game wait for the board of their move to have
been tried, unless that board is blocked (missing permissions, a locked thread):
the game then plays on, and the board catches up with one post telling the whole
story when the cause is fixed.

``announce`` is what handlers call after a move: it never raises, because the move
is committed by then and the player must not hear that nothing changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.core.announcements import ai_to_act, plan
from bot.core.errors import PlayError
from bot.core.services import Services
from bot.core.session import Session
from bot.core.tasks import Tasks
from bot.posting.ai_turns import play_ai_turn
from bot.posting.announcer import Announcer
from bot.posting.failures import BLOCKING_CODES, classify
from bot.posting.handoff import ShardOwners
from bot.posting.interaction_posts import Reply
from bot.posting.notices import BlockedNotices
from bot.posting.rescue import ThreadRescue
from bot.store.faults import fault_of, log_fault
from bot.store.outbox import Announcement, OutboxItem, OutboxKind

log = logging.getLogger(__name__)

#: Games delivered at the same time by the worker (each one's rows stay in order).
CONCURRENCY = 8
#: A game's rows are read again after a pass that queued more, at most this often.
MAX_PASSES = 20
PURGE_EVERY = timedelta(days=1)
#: How long a process may deliver a game's announcements (or think for its AI) before
#: another may take over; renewed at every pass, so only a dead process's work expires.
LEASE = timedelta(minutes=3)
#: How long a click waits for another process that is announcing the same game.
INLINE_WAIT = 5.0
#: AI moves played in a row inside one click of an in-place game (a table of AIs stops there).
MAX_INLINE_AI = 50


Link = tuple[OutboxKind, int]


def chain(item: OutboxItem) -> Link:
    """Rows of one chain are delivered strictly in order: the boards, each player's
    hand DMs, the stripping of old buttons, the AI's turns, the game's end."""
    return ("hand", item.seat) if item.kind == "hand" else (item.kind, -1)


@dataclass
class ChainResult:
    done: int = 0
    #: A row of the chain is left pending (not due, failed, or waiting for its board).
    waiting: bool = False
    #: A delivery queued more rows (buttons that could not go at once, a superseding row).
    queued: bool = False


class Delivery:
    def __init__(self, services: Services, announcer: Announcer, notices: BlockedNotices, rescue: ThreadRescue,
                 tasks: Tasks, *, poll_seconds: float = 2.0) -> None:
        self.services = services
        self.announcer = announcer
        self.notices = notices
        self.rescue = rescue
        self.tasks = tasks
        self.poll_seconds = poll_seconds
        self._locks: dict[tuple[int, Link], asyncio.Lock] = {}
        self._wake = asyncio.Event()
        self._working = 0
        self._ai: dict[int, asyncio.Task[Any]] = {}
        self._inline: Counter[int] = Counter()  # games a click handler is announcing right now
        self._purged_at: datetime | None = None
        #: A board may be missing from the outbox (``queue_missing_boards`` at the next pass).
        self._missing_boards = False
        self._queue_fault_told = False
        #: Which process delivers a game of a server: the one running its shard (bot.posting.handoff).
        self.owners = ShardOwners(services.leases, services.db)

    # --- state ----------------------------------------------------------------------
    def kick(self) -> None:
        """Something became due (a cause was fixed, an AI took a seat): look now."""
        self._wake.set()

    def busy(self) -> bool:
        """Delivering, asked to look, or an AI thinking (tests wait for this to end)."""
        return self._working > 0 or self._wake.is_set() or any(not t.done() for t in self._ai.values())

    def _now(self) -> str:
        return self.services.clock().astimezone(UTC).isoformat(timespec="seconds")

    # --- the worker ---------------------------------------------------------------------
    async def serve_shards(self, shard_ids: Iterable[int], shard_count: int) -> None:
        """This process runs ``shard_ids``: deliver the games of their servers, those handed over by
        other processes too (at once, when they signal), and keep owning the shards while alive."""
        await self.owners.start(shard_ids, shard_count, wake=self._handed_over)
        self.tasks.spawn(self.owners.run())

    def _handed_over(self, game_id: int) -> None:
        self.tasks.spawn(self._deliver_here(game_id))

    async def _hand_over(self, session: Session) -> bool:
        """The one place the rule is asked before delivering on request (:mod:`bot.posting.handoff`):
        a game of a server whose shard another live process runs is handed to it (True), not
        delivered here. A game played in place stays with the click that is announcing it."""
        if session.record.in_place:
            return False
        shard = await self.owners.elsewhere(session.record.guild_id)
        if shard is None:
            return False
        await self.owners.hand_over(session.record.id, shard)
        return True

    async def run(self) -> None:
        """Start-up, then deliver whatever becomes due, until cancelled."""
        self._working += 1
        try:
            await self.boot()
        except Exception:
            log.exception("delivering what was left from before the start failed")
        finally:
            self._working -= 1
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll_seconds)
            self._working += 1
            self._wake.clear()
            try:
                if self._missing_boards:
                    await self.queue_missing_boards()
                await self.deliver_due()
                await self._purge_now_and_then()
            except Exception as exc:  # noqa: BLE001 - the worker lives on; _told logs a bug with its traceback
                self._told(exc, "delivering announcements")
            finally:
                self._working -= 1

    def _told(self, error: Exception, what: str) -> None:
        """Log a failure of the worker's: a storage fault as every storage fault is
        (one line, ``bot.store.faults``), anything else as the bug it is."""
        fault = fault_of(error)
        if fault is None:
            log.exception("%s failed", what)
        else:
            log_fault(log, fault, what, error)

    async def boot(self) -> None:
        """After a (re)start: whatever was pending may have reached Discord already
        (retry with the same nonce), what was blocked may not be any more, games
        started just before a stop may have no row yet; then everything due is
        delivered."""
        services = self.services
        outbox = services.outbox
        await outbox.mark_uncertain()
        await outbox.retry_blocked()  # permissions may have been restored, threads reopened, while we were down
        await self.queue_missing_boards()
        await self._purge_now_and_then()
        await self.deliver_due()

    async def queue_missing_boards(self) -> None:
        """Queue the board of every running game whose board is behind with nothing
        queued: one started just before a stop, or whose start's board could not be
        queued because storage failed right then (``announce``). A storage fault
        leaves the rest for the next pass, and is logged once until it passes."""
        services = self.services
        outbox = services.outbox
        self._missing_boards = False
        try:
            missing = await outbox.games_needing_a_board()
            for game_id, _version in missing:
                try:
                    await outbox.enqueue(game_id, plan(await services.sessions.load(game_id)))
                except Exception as exc:  # one broken game must not keep the others from being announced
                    if fault_of(exc) is not None:
                        raise
                    log.exception("could not queue the board of game %s", game_id)
        except Exception as exc:
            fault = fault_of(exc)
            if fault is None:
                raise
            self._missing_boards = True
            if not self._queue_fault_told:
                log_fault(log, fault, "queueing boards that are missing (tried again at every pass)", exc)
            self._queue_fault_told = True
            return
        self._queue_fault_told = False

    async def _purge_now_and_then(self) -> None:
        """Forget long-delivered rows, once a day (on the bot's clock)."""
        now = self.services.clock()
        if self._purged_at is None or now - self._purged_at >= PURGE_EVERY:
            self._purged_at = now
            await self.services.outbox.purge_done()

    async def deliver_due(self) -> int:
        """Deliver what is due in every game; returns how many rows were done."""
        due = await self.services.outbox.due()
        theirs = await self.owners.theirs(due)  # their servers' shards run in other live processes
        games = [game for game, _guild in due if game not in theirs]
        if not games:
            return 0
        gate = asyncio.Semaphore(CONCURRENCY)

        async def one(game_id: int) -> int:
            if self._inline[game_id]:  # a click handler is announcing it right now: leave it the render pool
                return 0
            async with gate:
                return (await self._deliver_game(game_id, wait=False))[0]

        return sum(await asyncio.gather(*(one(g) for g in games)))

    async def retry_blocked(self, *, channel_id: int | None = None, causes: list[str] | None = None) -> int:
        """A blocking cause may be fixed (permissions changed, a thread reopened): try now."""
        count = await self.services.outbox.retry_blocked(channel_id=channel_id, causes=causes)
        if count:
            self.kick()
        return count

    # --- after a move, a start, an AI taking a seat ------------------------------------
    async def announce(self, game_id: int, via: Reply | None = None) -> bool:
        """Show the game's latest move now, as far as Discord lets us. Queues the
        current version first if nothing did (a game's start). Returns whether the
        board is up to date; what could not be shown stays queued for the worker.
        ``via``: the interaction that made the move, which carries its board and the
        mover's hand when it can (see :mod:`bot.posting.interaction_posts`).

        A game of a server whose shard another live process runs (a move made from a hand DM,
        which Discord sends to shard 0) is handed over to that process, which delivers it at
        once (:mod:`bot.posting.handoff`): True then too, as the board follows within moments."""
        try:
            session = await self.services.sessions.load(game_id)
            outbox = self.services.outbox
            # Moves queue their own rows; a start (move 0) does not, nor did moves older than the outbox.
            if session.version == 0 and not await outbox.has_version(game_id, 0):
                await outbox.enqueue(game_id, plan(session))
            if session.record.in_place:
                return await self._announce_in_place(session, via)
            if await self._hand_over(session):
                return True
            return await self._deliver_here(game_id, via)
        except Exception as exc:  # noqa: BLE001 - the move stands; the worker tries again (_told logs a bug in full)
            self._told(exc, f"announcing game {game_id} now (the worker tries again)")
            self._missing_boards = True  # a start's board may not have been queued: the worker looks
            self.kick()
            return False

    async def _announce_in_place(self, session: Session, via: Reply | None) -> bool:
        """A game only a user install reaches (:mod:`bot.posting.in_place`): with a click at hand, the AI
        seats move now, inside this interaction, and the card shows it all, in place; the next player
        is mentioned. Then the outbox rows as everywhere (hands; the board rows are marked done)."""
        game_id = session.record.id
        if via is None:
            return await self._deliver_here(game_id)
        self._inline[game_id] += 1  # the worker leaves the game (and its AI rows) to this click
        try:
            await self._ai_inline(game_id)
            session = await self.services.sessions.load(game_id)
            in_place = self.announcer.in_place
            if via.channel_id == session.record.play_channel_id:
                shown = await in_place.present(session, via)
                if shown:
                    await in_place.tell_turn(session, via)
            else:  # a move from a hand DM's chooser: the card changes where a token may edit it, else
                await in_place.present(session, None)  # at the next click on it (nothing else will follow)
                await in_place.dm_turn(session)
                shown = True
            await self._deliver_here(game_id, dataclasses.replace(via, version=session.version))
            return shown
        finally:
            self._inline[game_id] -= 1
            if not self._inline[game_id]:
                del self._inline[game_id]

    async def _ai_inline(self, game_id: int) -> None:
        """Let the AI seats to act move now, one after the other, under the same lease as the
        worker's AI turns (so one process thinks for a seat at a time)."""
        leases, loop = self.services.leases, asyncio.get_running_loop()
        lease = f"ai:{game_id}"
        deadline = loop.time() + INLINE_WAIT
        while not await leases.claim(lease, LEASE):
            if loop.time() >= deadline:
                return  # someone else is thinking for it: their move shows at the next click
            await asyncio.sleep(0.1)
        try:
            for _ in range(MAX_INLINE_AI):
                session = await self.services.sessions.load(game_id)
                if not ai_to_act(session) or not await play_ai_turn(self.services, game_id, session.version):
                    return
        finally:
            await leases.release(lease)

    async def schedule_ai(self, session: Session) -> None:
        """An AI took the seat to act outside a move (a timeout, a resignation): queue
        its turn durably, as a move would have, and let the worker start it."""
        if not ai_to_act(session):
            return
        await self.services.outbox.enqueue(
            session.record.id, [Announcement(kind="ai", version=session.version)], reopen=True
        )
        self.kick()

    # --- one game -----------------------------------------------------------------------
    async def deliver_game(self, game_id: int, via: Reply | None = None) -> bool:
        """Deliver what is due for one game now (waiting for deliveries of it already
        under way); returns whether its board is up to date. A game another live process
        owns is handed to it instead (True: it delivers at once)."""
        try:
            session = await self.services.sessions.load(game_id)
        except Exception:  # noqa: BLE001 - a game that cannot be loaded is nobody else's either: its rows say why
            session = None
        if session is not None and await self._hand_over(session):
            return True
        return await self._deliver_here(game_id, via)

    async def _deliver_here(self, game_id: int, via: Reply | None = None) -> bool:
        """:meth:`deliver_game` in this process, the owner's question answered already."""
        self._inline[game_id] += 1
        try:
            return (await self._deliver_game(game_id, wait=True, via=via))[1]
        finally:
            self._inline[game_id] -= 1
            if not self._inline[game_id]:
                del self._inline[game_id]

    def _lock(self, game_id: int, link: Link) -> asyncio.Lock:
        return self._locks.setdefault((game_id, link), asyncio.Lock())

    async def _deliver_game(self, game_id: int, *, wait: bool, via: Reply | None = None) -> tuple[int, bool]:
        """The board first (what everyone waits for; pictures are the scarce
        resource), then the other chains side by side, each in order (the next
        move's board never waits for this move's hand DMs); then the AI's turn and
        the game's end, which wait for their board. Returns (rows done, board up to date).

        Only the process holding the game's delivery lease delivers it: another bot
        process on the same database passes it by (its worker) or waits a little (a
        click handler, which then says the board will follow)."""
        leases = self.services.leases
        lease = f"deliver:{game_id}"
        deadline = asyncio.get_running_loop().time() + (INLINE_WAIT if wait else 0.0)
        while not await leases.claim(lease, LEASE):
            if asyncio.get_running_loop().time() >= deadline:
                return 0, False
            await asyncio.sleep(0.1)
        try:
            return await self._deliver_game_held(game_id, wait=wait, via=via)
        finally:
            await leases.release(lease)

    async def _deliver_game_held(self, game_id: int, *, wait: bool, via: Reply | None = None) -> tuple[int, bool]:
        self._working += 1
        try:
            total, board_waiting = 0, False
            for _ in range(MAX_PASSES):
                items = await self.services.outbox.pending(game_id)
                if not items:
                    return total, True
                session = await self._session(game_id, items)
                kinds = {i.kind for i in items}
                board = (await self._deliver_chain(game_id, ("board", -1), wait=wait, session=session, via=via)
                         if "board" in kinds else ChainResult())
                links = list(dict.fromkeys(chain(i) for i in items if i.kind in ("hand", "strip")))
                results = [board, *await asyncio.gather(*(self._deliver_chain(game_id, link, wait=wait,
                                                                              session=session, via=via)
                                                          for link in links))]
                for link in (("ai", -1), ("finish", -1)):
                    if link[0] in kinds:
                        results.append(await self._deliver_chain(game_id, link, wait=wait, session=session))
                total += sum(r.done for r in results)
                board_waiting = board.waiting
                if not any(r.queued for r in results):
                    break  # else look once more, for the rows just queued
                await self.services.leases.claim(f"deliver:{game_id}", LEASE)  # still at it
            return total, not board_waiting
        finally:
            self._working -= 1

    async def _session(self, game_id: int, items: list[OutboxItem]) -> Session | None:
        """The game as it stands, read once for all the posts of a pass (None: each
        delivery loads it itself, and fails on its own if it cannot)."""
        if not any(i.kind in ("board", "hand") for i in items):
            return None
        try:
            return await self.services.sessions.load(game_id)
        except Exception:  # noqa: BLE001 - reported by the delivery that needs it, row by row
            return None

    async def _deliver_chain(self, game_id: int, link: Link, *, wait: bool, session: Session | None,
                             via: Reply | None = None) -> ChainResult:
        """Rows of one chain, oldest first, until one is not due or fails (rows
        queued meanwhile wait for the next pass). A chain someone is delivering
        already is theirs: the worker passes it by; a click handler waits its turn,
        to tell the player the truth about the board."""
        lock = self._lock(game_id, link)
        result = ChainResult()
        if not wait and lock.locked():
            result.waiting = True
            return result
        async with lock:  # read under the lock: whoever held it may have delivered some
            rows = await self.services.outbox.pending(
                game_id, kind=link[0], seat=link[1] if link[0] == "hand" else None)
            for index, item in enumerate(rows):
                if item.due_at > self._now() or (item.kind == "ai" and self._ai_running(game_id)) or (
                    item.kind in ("ai", "finish") and await self._board_first(game_id, item.version)
                ):
                    result.waiting = True
                    return result
                done, queued = await self._deliver(item, later=index + 1 < len(rows), session=session, via=via)
                if not done:
                    result.waiting = True
                    return result
                result.done += 1
                result.queued = result.queued or queued
        return result

    async def _board_first(self, game_id: int, version: int) -> bool:
        """Whether the AI's turn or the game's end must wait for a board of this
        version or before: yes while one is pending, unless Discord blocks it (then
        the game plays on, and the board catches up when the cause is fixed)."""
        boards = await self.services.outbox.pending(game_id, kind="board")
        return any(b.version <= version and b.blocked is None for b in boards)

    async def _deliver(self, item: OutboxItem, *, later: bool, session: Session | None = None,
                       via: Reply | None = None) -> tuple[bool, bool]:
        """Do one row's work. Returns (done, queued): whether the row is done, and
        whether doing it queued more rows. A failed row is kept with the cause and
        the time of its next try."""
        announcer = self.announcer
        try:
            if item.kind == "board":
                return True, await announcer.deliver_board(item, later=later, session=session, via=via)
            if item.kind == "hand":
                return True, await announcer.deliver_hand(item, later=later, session=session, via=via)
            if item.kind == "strip":
                return True, await announcer.deliver_strip(item)
            if item.kind == "finish":
                return True, await announcer.deliver_finish(item)
            self._start_ai(item)
            return False, False  # done when the AI has moved (or found it need not)
        except asyncio.CancelledError:
            raise
        except PlayError as exc:  # the game is gone: nothing left to show
            await self.services.outbox.complete(item, f"game gone: {exc}")
            return True, False
        except Exception as exc:  # noqa: BLE001 - _failed() logs it and keeps the row for a retry
            return await self._failed(item, exc), False

    async def _failed(self, item: OutboxItem, exc: BaseException) -> bool:
        """Keep a failed row with its cause and next try. Returns whether it is done anyway."""
        failure = classify(exc, item.attempts)
        outbox = self.services.outbox
        if failure.finished:
            await outbox.complete(item, f"nothing to do: {failure.reason}")
            return True
        if item.kind == "strip" and failure.blocked in ("thread_archived", "thread_locked", "unknown_channel"):
            # old buttons in an archived, locked or deleted thread: harmless, leave them
            await outbox.complete(item, f"left: {failure.reason}")
            return True
        if failure.blocked is None or failure.blocked in BLOCKING_CODES.values():  # Discord's answer, not a bug
            log.warning("%s of game %s (move %s) not delivered, retrying in %s: %s", item.kind, item.game_id,
                        item.version, failure.retry_in, failure.reason)
        else:
            log.error("%s of game %s (move %s) refused, retrying in %s: %s", item.kind, item.game_id, item.version,
                      failure.retry_in, failure.reason, exc_info=exc)
        await outbox.retry_later(
            item.id, due_at=self.services.clock() + failure.retry_in, error=failure.reason,
            blocked=failure.blocked, uncertain=item.uncertain or failure.uncertain,
        )
        if failure.blocked is not None:  # tell someone who can fix it (once per game and cause)
            await self.notices.blocked(item, failure.blocked)
            if await self.rescue.blocked(item, failure.blocked):  # a lost thread: on in a new one, now
                # (the worker leaves a game alone while a click handler announces it)
                self.tasks.spawn(self._deliver_here(item.game_id))
        return False

    # --- AI turns ------------------------------------------------------------------------
    def _ai_running(self, game_id: int) -> bool:
        task = self._ai.get(game_id)
        return task is not None and not task.done()

    def _start_ai(self, item: OutboxItem) -> None:
        if not self._ai_running(item.game_id):
            self._ai[item.game_id] = self.tasks.spawn(self._ai_turn(item))

    async def _ai_turn(self, item: OutboxItem) -> None:
        """The AI thinks, moves (its move writes its own announcements), and the row
        is done; a row found stale (the game moved on, or a restart) is just done."""
        outbox, leases = self.services.outbox, self.services.leases
        lease = f"ai:{item.game_id}"
        self._working += 1  # busy until its move is announced, not just made
        try:
            try:
                if not await leases.claim(lease, LEASE):
                    return  # another bot process is thinking for this AI; its row stays until it is done
                try:
                    await asyncio.sleep(self.services.settings.ai_delay_seconds)
                    moved = await play_ai_turn(self.services, item.game_id, item.version)
                    await outbox.complete(item, "moved" if moved else "not needed")
                finally:
                    await leases.release(lease)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - _failed() logs it and keeps the row for a retry
                await self._failed(item, exc)
                return
            finally:
                if self._ai.get(item.game_id) is asyncio.current_task():
                    del self._ai[item.game_id]
            if moved:
                await self.announce(item.game_id)
        finally:
            self._working -= 1
