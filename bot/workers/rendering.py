"""Pictures for Discord, drawn off the event loop.

Drawing is CPU-bound Python; in a thread it would hold the GIL and slow every other
click down, so production renders in a small pool of worker processes. Tests may use
threads instead (no process start-up per test). Either way the event loop only
awaits a future, and keeps answering within Discord's 3 seconds. A job carries the
game's :class:`render.Art` (it pickles), so a game known only to the bot's catalogue
is drawn in a worker too.

A hand picture is kept for reuse: the same seat's view of the same position is
often drawn more than once (its DM, then **🂠 My hand** or ``/pyramid hand`` at the
same move; a DM retried after Discord refused it). Pictures are a pure function of
the view and the game's :class:`render.Art` (no clock, no randomness), so the
bytes drawn once are the bytes every later drawing would give. The cache sits here,
in the bot's own process in front of the pool, so it works whichever pool draws;
a restart starts it empty, which only costs a drawing. A picture is served only
for a view whose digest (:func:`view_digest`, of the seat's own whole view, which
names its seat and game) and art are those it was drawn from: one seat's picture is
never served for another's view. Only each seat's latest picture is kept (an older
view of a seat is not asked for again, bar a rare retry), so the cache holds the
hands of as many seats as it has room for, however fast moves come. Boards are not
kept: each move's board is new, and is drawn once per post.

Every picture comes with its alt text (the attachment's description, from
``render.describe``): a board's from the view it shows, which the bot makes public for
the channel, and which the words read only public parts of anyway; a hand's for its
owner. Words are cheap to build, so they are made here, on the event loop.

Replays (:meth:`Renderer.replay`, :meth:`Renderer.replay_board`) rebuild a finished
game's positions from its move log in the worker too (replaying the engine once is
far cheaper than loading each version), and draw the animation or the board at one
move there. An animation keeps a worker busy for seconds, so one is drawn at a time:
boards never wait for two of them.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import io
import json
import logging
import os
from collections import OrderedDict
from collections.abc import Hashable, Mapping, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any

import discord

from bot.workers.pool import Jobs, WorkerPool, as_jobs
from bot.workers.render_jobs import GameLog, ReplayBoard, _board, _hand, _replay, _replay_board, alt_text
from engine.core import Event
from i18n import Lang
from render import Art, hand_view, warm_up
from render.describe import describe_board, describe_hand
from render.replay import MAX_BYTES, Replay

log = logging.getLogger(__name__)


#: Seats whose latest hand picture is kept for reuse, at most (the seat seen least
#: recently goes first). A Flaming Pyramids hand picture shows the hand alone, so the one
#: drawn after a seat's move is shown again when its turn comes round: the cache should
#: hold a picture for every seat in play. 1,024 seats are every seat of 512 two-player
#: games; a hand PNG is 20–70 KB, so about 30 MB, and the byte cap below bounds it
#: whatever freak positions are drawn.
HAND_CACHE_ENTRIES = 1024
#: ... and at most this many bytes of them.
HAND_CACHE_BYTES = 64 * 2**20


class _NotPlain(Exception):
    """A view holds something besides JSON-like values: it is drawn, never cached."""


def _tagged(value: Any) -> Any:
    """``value`` as JSON that tells every container and scalar type apart (exact
    types: a ``str`` subclass or a tuple is not taken for a ``str`` or a list)."""
    kind = type(value)
    if value is None or kind in (bool, int, float, str):
        return value
    if kind is list or kind is tuple:
        return ["l" if kind is list else "t", *map(_tagged, value)]
    if kind is dict:
        out: list[Any] = ["d"]
        for key, item in value.items():
            if type(key) is not str:
                raise _NotPlain(key)
            out += [key, _tagged(item)]
        return out
    raise _NotPlain(value)


def view_digest(view: Mapping[str, Any]) -> bytes | None:
    """A digest of exactly ``view``, or None if it holds anything but plain JSON-like
    values (None, bool, int, float, str, list, tuple, dict with str keys).

    Equal digests mean equal views down to the types and the order of keys, so a
    picture drawn for one is the picture of the other. (Key order is kept rather
    than sorted: a drawing could list a dict in its order, and the same position
    always gives the same order, so nothing is lost.)"""
    try:
        text = json.dumps(_tagged(dict(view)), separators=(",", ":"))
    except (_NotPlain, RecursionError):
        return None
    return hashlib.blake2b(text.encode("ascii"), digest_size=20).digest()


class PictureCache:
    """The latest PNG of each slot (a seat of a game), with the digest of the view it
    shows; the slot used least recently is dropped past ``entries`` slots or ``size``
    bytes in all. Used from the event loop only (no lock)."""

    def __init__(self, entries: int, size: int) -> None:
        self.entries = entries
        self.size = size
        self._pictures: OrderedDict[Hashable, tuple[bytes, bytes]] = OrderedDict()
        self._bytes = 0

    def __len__(self) -> int:
        return len(self._pictures)

    @property
    def nbytes(self) -> int:
        return self._bytes

    def get(self, slot: Hashable, digest: bytes) -> bytes | None:
        """The slot's picture if it shows the view of ``digest``."""
        kept = self._pictures.get(slot)
        if kept is None or kept[0] != digest:
            return None
        self._pictures.move_to_end(slot)
        return kept[1]

    def put(self, slot: Hashable, digest: bytes, data: bytes) -> None:
        if self.entries <= 0 or len(data) > self.size:
            return
        old = self._pictures.pop(slot, None)
        if old is not None:
            self._bytes -= len(old[1])
        self._pictures[slot] = (digest, data)
        self._bytes += len(data)
        while len(self._pictures) > self.entries or self._bytes > self.size:
            self._bytes -= len(self._pictures.popitem(last=False)[1][1])


def _slot(art: Art, view: Mapping[str, Any], digest: bytes) -> Hashable:
    """Where a view's picture is kept: its game's seat (a later picture of the seat
    replaces it), or the view itself if it names no game and seat."""
    number, seat = view.get("game_number"), view.get("seat")
    if type(number) is int and type(seat) is int:
        return art, number, seat
    return art, digest


class Renderer:
    def __init__(self, jobs: Jobs | Executor, *, hand_cache: int = HAND_CACHE_ENTRIES,
                 hand_cache_bytes: int = HAND_CACHE_BYTES) -> None:
        """``jobs``: where pictures are drawn (an executor: its threads). ``hand_cache``: hand
        pictures kept for reuse (0: none), ``hand_cache_bytes``: their bytes at most."""
        self._jobs: Jobs = as_jobs(jobs)
        self._hands = PictureCache(hand_cache, hand_cache_bytes)
        #: Hand pictures being drawn, so a second request for the same one waits for it.
        self._drawing: dict[Hashable, asyncio.Future[bytes]] = {}
        #: Pictures asked for, by ("board" or "hand", "drawn" in a worker or "reused").
        self._counts: dict[tuple[str, str], int] = {
            ("board", "drawn"): 0, ("hand", "drawn"): 0, ("hand", "reused"): 0,
        }
        #: One animation at a time (see the module's docstring).
        self._replaying = asyncio.Semaphore(1)

    @classmethod
    def with_processes(cls, workers: int | None = None, arts: Sequence[Art] = ()) -> Renderer:
        """Workers that die with the bot, even if it is SIGKILLed (see
        ``bot.workers.processes``), each warmed up (fonts, sprites, palettes: of
        ``arts``, else of every registered game) before its first real job."""
        count = workers or max(1, min(2, os.cpu_count() or 1))
        return cls(WorkerPool(count, warm_up=functools.partial(warm_up, tuple(arts)) if arts else warm_up))

    @classmethod
    def with_threads(cls, workers: int = 2) -> Renderer:
        return cls(ThreadPoolExecutor(max_workers=workers, thread_name_prefix="render"))

    async def board(
        self, view: Mapping[str, Any], *, art: Art, labels: Mapping[str, str] | None = None,
        events: Sequence[Event] = (), description: str | None = None, lang: Lang | None = None,
    ) -> discord.File:
        """The board of ``view`` with its alt text: ``description``, else the view in
        words (``render.describe.describe_board``, in ``lang`` or the view's language)."""
        data = await self._jobs.submit(_board, dict(view), dict(labels or {}), list(events), art)
        self._counts["board", "drawn"] += 1
        if description is None:
            description = alt_text(describe_board, view, art=art, lang=lang, labels=labels)
        return discord.File(io.BytesIO(data), filename="board.png", description=description)

    async def hand(self, view: Mapping[str, Any], *, art: Art, description: str | None = None,
                   lang: Lang | None = None) -> discord.File:
        """The picture of what the viewing seat holds: the one already drawn for
        this very view, if it is still kept, else drawn now; its alt text names what
        the seat holds (a hand is shown to its owner only)."""
        if description is None:
            description = alt_text(describe_hand, view, art=art, lang=lang)
        return discord.File(io.BytesIO(await self.hand_png(view, art=art)), filename="hand.png",
                            description=description)

    async def hand_png(self, view: Mapping[str, Any], *, art: Art) -> bytes:
        view = hand_view(dict(view), art)  # what the picture shows: the same parts are the same picture
        digest = view_digest(view)
        if digest is None:  # not plain data: drawn every time
            return await self._draw_hand(view, art, None)
        slot = _slot(art, view, digest)
        data = self._hands.get(slot, digest)
        if data is None:
            drawing = self._drawing.get((art, digest))
            if drawing is None:
                return await self._draw_hand(view, art, (slot, digest))
            # Being drawn for another caller (a DM and a 🂠 My hand click at once): wait
            # for that drawing, shielded, so that this caller's cancellation leaves it alone.
            data = await asyncio.shield(drawing)
        self._counts["hand", "reused"] += 1
        return data

    async def _draw_hand(self, view: dict[str, Any], art: Art, keep: tuple[Hashable, bytes] | None) -> bytes:
        """Draw in the pool; ``keep``: where the picture is kept, and its view's digest."""
        drawing = self._jobs.submit(_hand, view, art)
        if keep is not None:
            self._drawing[art, keep[1]] = drawing
        drawing.add_done_callback(functools.partial(self._drawn, art, keep))
        return await asyncio.shield(drawing)

    def _drawn(self, art: Art, keep: tuple[Hashable, bytes] | None, drawing: asyncio.Future[bytes]) -> None:
        """Runs before any waiter resumes (it is the drawing's first callback), so
        the count and the cache are up to date when they do."""
        if keep is not None:
            del self._drawing[art, keep[1]]
        if not drawing.cancelled() and drawing.exception() is None:
            self._counts["hand", "drawn"] += 1
            if keep is not None:
                self._hands.put(*keep, drawing.result())

    async def replay(self, log: GameLog, *, art: Art, max_bytes: int = MAX_BYTES) -> Replay:
        """The game of ``log`` as an animated GIF under ``max_bytes`` (``render.replay``)."""
        async with self._replaying:
            replay = await self._jobs.submit(_replay, log, art, max_bytes)
        self._counted("replay")
        return replay

    async def replay_board(self, log: GameLog, move: int, *, art: Art) -> ReplayBoard:
        """The public board after move ``move`` (0: the deal) of ``log``, with that
        move ringed as its board showed it, and no button letters."""
        if not 0 <= move <= len(log.moves):
            raise ValueError(f"Game #{log.number} has moves 0 to {len(log.moves)}, not {move}.")
        board = await self._jobs.submit(_replay_board, log, move, art)
        self._counted("replay_board")
        return board

    def _counted(self, picture: str) -> None:
        """Replays are counted once one is drawn (the counts start without them)."""
        self._counts[picture, "drawn"] = self._counts.get((picture, "drawn"), 0) + 1

    def pictures(self) -> dict[tuple[str, str], int]:
        """Pictures asked for since start, by kind and by whether they were drawn or
        reused (for the metrics endpoint and the load bench)."""
        return dict(self._counts)

    def queue_depth(self) -> int:
        """Pictures asked for and not drawn yet (being drawn or waiting for a worker)."""
        return self._jobs.pending

    def close(self) -> None:
        self._jobs.close()
