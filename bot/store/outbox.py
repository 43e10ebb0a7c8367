"""The announcement outbox: what must still be shown in Discord for each move.

Rows are written in the same transaction as the move they announce (see
``GameStore.append_move``), so a move can never be committed without its
announcements, and a crash between the two cannot happen. The delivery worker
(``bot.posting.delivery``) reads due rows, delivers them and marks them done, recording a
posted message in the same transaction that marks its row done. Times are ISO
strings from the injected clock (``Database.now``), so tests move time by hand.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bot.store.database import Database, Row, Tx
from bot.store.records import CorruptRecord

OutboxKind = Literal["board", "hand", "strip", "ai", "finish"]

#: Rows that were done this long ago are purged: only recent boards' events are read back.
KEEP_DONE = timedelta(days=7)


class Announcement(BaseModel):
    """Something to show for a game at a version, as the move (or start) asks for it."""

    model_config = ConfigDict(frozen=True)

    kind: OutboxKind
    version: int = Field(ge=0)
    seat: int = -1
    payload: dict[str, Any] = Field(default_factory=dict)
    #: Where it will be posted, when known: lets a fixed cause (permissions restored,
    #: thread unarchived) make the blocked rows of that channel due at once.
    channel_id: int | None = None


class OutboxItem(BaseModel):
    """One row of the outbox, as read back."""

    model_config = ConfigDict(frozen=True)

    id: int
    game_id: int
    version: int
    kind: OutboxKind
    seat: int
    payload: dict[str, Any]
    created_at: str
    due_at: str
    attempts: int
    uncertain: bool
    blocked: str | None
    channel_id: int | None
    last_error: str | None
    done_at: str | None
    outcome: str | None
    #: The process that delivered it (its lease name), once done.
    done_by: str | None = None


class Backlog(BaseModel):
    """How far behind the announcements are, for metrics and health checks."""

    pending: int
    due: int
    blocked: int
    oldest_created_at: str | None
    oldest_age_seconds: float


class Completion(BaseModel):
    """What marking a row done did."""

    #: False when the row was done already (nothing was recorded then).
    marked: bool
    #: The posted message became the game's current one for its role (False: a newer one is).
    recorded: bool = False


class PostedMessage(BaseModel):
    """A message a delivered row posted, recorded as the game's current one for its role."""

    role: Literal["board", "hand"]
    seat: int = -1
    channel_id: int
    message_id: int
    version: int


def strip_row(item: OutboxItem, message: tuple[int, int]) -> Announcement:
    """A row to take the buttons off ``message`` (channel, message), superseded by ``item``'s post."""
    return Announcement(kind="strip", version=item.version, seat=item.seat, channel_id=message[0],
                        payload={"channel_id": message[0], "message_id": message[1]})


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def _item(row: Row) -> OutboxItem:
    data = dict(row)
    try:
        data["payload"] = json.loads(data["payload"] or "{}")
        return OutboxItem.model_validate(data)
    except (TypeError, ValueError, ValidationError) as exc:
        raise CorruptRecord(f"Outbox row {data.get('id')} of game {data.get('game_id')} is damaged.") from exc


async def insert_announcements(
    conn: Tx, game_id: int, items: Iterable[Announcement], now: str, *, reopen: bool = False
) -> int:
    """Add rows inside the caller's transaction, in one statement; a row that exists
    already is kept as it is (the same move is never announced twice), unless
    ``reopen`` asks to make a done one pending again. Returns how many rows were
    added or reopened."""
    rows = [(game_id, item.version, item.kind, item.seat, json.dumps(item.payload), item.channel_id, now, now)
            for item in items]
    if not rows:
        return 0
    sql = (
        "INSERT INTO outbox (game_id, version, kind, seat, payload, channel_id, created_at, due_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(game_id, version, kind, seat) DO "
    )
    sql += ("UPDATE SET done_at = NULL, outcome = NULL, due_at = excluded.due_at, blocked = NULL"
            " WHERE outbox.done_at IS NOT NULL") if reopen else "NOTHING"
    return await conn.execute_many(sql, rows)


class OutboxStore:
    def __init__(self, db: Database, worker: str | None = None) -> None:
        self.db = db
        #: This process as its lease name: recorded as ``done_by`` on every row it marks done.
        self.worker = worker

    async def enqueue(self, game_id: int, items: Sequence[Announcement], *, reopen: bool = False) -> int:
        """Rows not written with a move: a game's first board, an AI taking a seat."""
        if not items:
            return 0
        async with self.db.transaction() as conn:
            return await insert_announcements(conn, game_id, items, self.db.now(), reopen=reopen)

    async def pending(self, game_id: int, *, kind: OutboxKind | None = None, seat: int | None = None
                      ) -> list[OutboxItem]:
        """A game's undelivered rows (of one kind, for one seat), oldest first, due or not."""
        sql = "SELECT * FROM outbox WHERE game_id = ? AND done_at IS NULL"
        params: list[Any] = [game_id]
        if kind is not None:
            sql += " AND kind = ?"
            params.append(kind)
        if seat is not None:
            sql += " AND seat = ?"
            params.append(seat)
        rows = await self.db.read_all(sql + " ORDER BY id", params)
        return [_item(row) for row in rows]

    async def has_version(self, game_id: int, version: int) -> bool:
        """Whether anything was ever queued for this version of the game (done or not)."""
        return await self.db.read_one(
            "SELECT 1 FROM outbox WHERE game_id = ? AND version = ? AND kind = 'board' LIMIT 1", (game_id, version)
        ) is not None

    async def due_games(self, limit: int = 500) -> list[int]:
        """Games with at least one row due now, longest waiting first."""
        return [game for game, _guild in await self.due(limit)]

    async def due(self, limit: int = 500) -> list[tuple[int, int | None]]:
        """(game, server) of the games with at least one row due now, longest waiting first; the
        server is None for a game played in place (``surface`` 'interactions'), which is delivered
        where its clicks arrive, not by its server's shard (``bot.posting.handoff``)."""
        rows = await self.db.read_all(
            "SELECT o.game_id, MIN(o.due_at) AS first,"
            " MAX(CASE WHEN g.surface = 'interactions' THEN NULL ELSE g.guild_id END) AS guild_id"
            " FROM outbox o LEFT JOIN games g ON g.id = o.game_id WHERE o.done_at IS NULL AND o.due_at <= ?"
            " GROUP BY o.game_id ORDER BY first LIMIT ?",
            (self.db.now(), limit),
        )
        return [(int(row["game_id"]), int(row["guild_id"]) if row["guild_id"] is not None else None) for row in rows]

    async def board_events(self, game_id: int, after: int, upto: int) -> dict[int, list[dict[str, Any]]] | None:
        """The public events stored with the board rows of versions ``after+1 ..
        upto``, by version; None when one is missing (purged, or queued without
        events), and the caller must rebuild them from the move log."""
        rows = await self.db.read_all(
            "SELECT version, payload FROM outbox WHERE game_id = ? AND kind = 'board' AND seat = -1"
            " AND version > ? AND version <= ?",
            (game_id, after, upto),
        )
        found: dict[int, list[dict[str, Any]]] = {}
        for row in rows:
            try:
                events = json.loads(row["payload"] or "{}").get("events")
            except (TypeError, ValueError, AttributeError):
                events = None
            if isinstance(events, list):
                found[int(row["version"])] = events
        return found if set(found) == set(range(after + 1, upto + 1)) else None

    async def turn_goes_on(self, game_id: int, version: int) -> int | None:
        """The seat whose turn went on after ``version``, as its board row says
        (``bot.core.announcements.turn_goes_on``): its card is edited by that
        seat's next step. None when it did not, or the row is gone (purged): the next
        board is then a new card."""
        row = await self.db.read_one(
            "SELECT payload FROM outbox WHERE game_id = ? AND kind = 'board' AND seat = -1 AND version = ?",
            (game_id, version),
        )
        try:
            seat = json.loads(row["payload"] or "{}").get("turn_goes_on") if row is not None else None
        except (TypeError, ValueError, AttributeError):
            return None
        return seat if isinstance(seat, int) and not isinstance(seat, bool) else None

    async def complete(
        self, item: OutboxItem, outcome: str, *, posted: PostedMessage | None = None,
        strip_later: tuple[int, int] | None = None,
    ) -> Completion:
        """Mark a row done, and in the same transaction record the message it posted
        as the game's current one for its role (unless a newer one is recorded
        already), and queue a row to take the buttons off ``strip_later`` (channel,
        message): the replaced message whose buttons could not be taken off at
        once. So a row is never done without its message known, nor a message
        replaced with its buttons left on for good. One short transaction: writes
        queue behind each other, and every statement inside one is a turn of the
        event loop for every writer waiting."""
        now = self.db.now()
        async with self.db.transaction() as conn:
            if await conn.execute(
                "UPDATE outbox SET done_at = ?, outcome = ?, done_by = ?, blocked = NULL"
                " WHERE id = ? AND done_at IS NULL",
                (now, outcome, self.worker, item.id),
            ) != 1:
                return Completion(marked=False)  # done already: record nothing twice
            recorded = False
            if posted is not None:
                recorded = await conn.execute(
                    "INSERT INTO messages (game_id, role, seat, channel_id, message_id, version)"
                    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(game_id, role, seat) DO UPDATE SET"
                    " channel_id = excluded.channel_id, message_id = excluded.message_id, version = excluded.version"
                    " WHERE excluded.version >= messages.version",
                    (item.game_id, posted.role, posted.seat, posted.channel_id, posted.message_id, posted.version),
                ) == 1
            if strip_later is not None:
                await insert_announcements(conn, item.game_id, [strip_row(item, strip_later)], now)
            return Completion(marked=True, recorded=recorded)

    async def queue_strip(self, item: OutboxItem, message: tuple[int, int]) -> None:
        async with self.db.transaction() as conn:
            await insert_announcements(conn, item.game_id, [strip_row(item, message)], self.db.now())

    async def retry_later(
        self, item_id: int, *, due_at: datetime, error: str, blocked: str | None, uncertain: bool
    ) -> None:
        """An attempt failed: keep the row, say why, and when to try again."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE outbox SET attempts = attempts + 1, due_at = ?, last_error = ?, blocked = ?,"
                " uncertain = ? WHERE id = ? AND done_at IS NULL",
                (_iso(due_at), error[:500], blocked, int(uncertain), item_id),
            )

    async def mark_uncertain(self) -> int:
        """At start-up: any undelivered post may have reached Discord before the bot
        stopped, so its retry must reuse the same nonce and content."""
        async with self.db.transaction() as conn:
            return await conn.execute(
                "UPDATE outbox SET uncertain = 1 WHERE done_at IS NULL AND kind IN ('board', 'hand')"
                " AND uncertain = 0"
            )

    async def retry_blocked(self, *, channel_id: int | None = None, causes: Iterable[str] | None = None) -> int:
        """Make blocked rows due now: all of them, those of one channel, or those
        blocked for given causes. For when a cause may have been fixed (an admin
        restored permissions, a thread was unarchived). Returns how many."""
        sql = "UPDATE outbox SET due_at = ? WHERE done_at IS NULL AND blocked IS NOT NULL"
        params: list[Any] = [self.db.now()]
        if channel_id is not None:
            sql += " AND channel_id = ?"
            params.append(channel_id)
        wanted = list(causes or [])
        if wanted:
            sql += f" AND blocked IN ({','.join('?' for _ in wanted)})"
            params.extend(wanted)
        async with self.db.transaction() as conn:
            return await conn.execute(sql, params)

    async def move_boards(self, game_id: int, *, to: int, lost: int) -> None:
        """The game moved from the lost thread ``lost`` to channel ``to``: its pending
        boards go there now (due at once, no longer blocked), and taking buttons off
        messages left in the lost thread is given up."""
        now = self.db.now()
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE outbox SET channel_id = ?, due_at = ?, blocked = NULL"
                " WHERE game_id = ? AND done_at IS NULL AND kind = 'board'",
                (to, now, game_id),
            )
            await conn.execute(
                "UPDATE outbox SET done_at = ?, outcome = 'thread lost' WHERE game_id = ? AND done_at IS NULL"
                " AND kind = 'strip' AND channel_id = ?",
                (now, game_id, lost),
            )

    async def backlog(self) -> Backlog:
        """Undelivered rows: how many, how many due now or blocked, and the age of
        the oldest (on the bot's clock)."""
        now = self.db.now()
        row = await self.db.read_one(
            "SELECT COUNT(*) AS pending, COUNT(CASE WHEN due_at <= ? THEN 1 END) AS due,"
            " COUNT(blocked) AS blocked, MIN(created_at) AS oldest"
            " FROM outbox WHERE done_at IS NULL",
            (now,),
        )
        assert row is not None
        oldest = row["oldest"]
        age = 0.0
        if oldest is not None:
            age = max(0.0, (datetime.fromisoformat(now) - datetime.fromisoformat(str(oldest))).total_seconds())
        return Backlog(pending=int(row["pending"]), due=int(row["due"]), blocked=int(row["blocked"]),
                       oldest_created_at=oldest, oldest_age_seconds=age)

    async def purge_done(self, keep: timedelta = KEEP_DONE) -> int:
        """Forget rows delivered long ago (the table would otherwise grow with every move)."""
        cutoff = _iso(datetime.fromisoformat(self.db.now()) - keep)
        async with self.db.transaction(long=True) as conn:
            return await conn.execute("DELETE FROM outbox WHERE done_at IS NOT NULL AND done_at < ?", (cutoff,))

    async def games_needing_a_board(self) -> list[tuple[int, int]]:
        """Running games whose board is behind their move log with nothing queued to
        catch it up (a game started just before a crash): (game, version) pairs."""
        rows = await self.db.read_all(
            "SELECT g.id AS game_id, COALESCE((SELECT MAX(seq) FROM moves WHERE game_id = g.id), 0) AS version"
            " FROM games g WHERE g.status = 'active'"
            " AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.game_id = g.id AND o.kind = 'board'"
            "                 AND o.done_at IS NULL)"
            " AND COALESCE((SELECT version FROM messages WHERE game_id = g.id AND role = 'board' AND seat = -1), -1)"
            "     < COALESCE((SELECT MAX(seq) FROM moves WHERE game_id = g.id), 0)"
        )
        return [(int(row["game_id"]), int(row["version"])) for row in rows]
