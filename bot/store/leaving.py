"""A person leaving a running game, written once: their seat handed to an AI or marked resigned, the
departure noted (``bot.store.departures``) and, when the leaving ends the game, the game finished and
its end queued for delivery (``bot.store.outbox``), all in one transaction.

Two things made this one place. Each bot process holds its own game locks, so a move refused for an
empty bank on one process (``Reminders.run_out``) and the timeout sweep of another, or a resignation
beside a forfeit on timeout, could each see the seat still there and each hand it over and tell the
channel. And the four writes were four transactions, so a process killed between them left a resigned
seat in a game that never finished. Here the game's ``revision`` (bumped by every change to a game)
is the claim: the transaction goes ahead only if the game is still exactly as its writer read it, so the
second writer, in whatever process, changes nothing and is told so (False).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from bot.store.database import Database
from bot.store.departures import How, note_departure
from bot.store.outbox import Announcement, insert_announcements
from bot.store.records import AiLevel
from bot.store.tallies import count_finished


async def leave_seat(db: Database, game_id: int, seat: int, *, revision: int, how: How, after_move: int,
                     ai_level: AiLevel | None, resigned: bool, result: Mapping[str, Any] | None = None) -> bool:
    """The person in ``seat`` leaves game ``game_id`` after move ``after_move``: ``ai_level`` plays the seat
    from there (None: nobody), ``resigned`` marks it left for good, and a ``result`` finishes the game with
    it (its end queued as move ``after_move``'s). Only while the running game is still at ``revision``;
    False, with nothing written, when anyone changed it since."""
    now = db.now()
    async with db.transaction() as conn:
        claimed = await conn.execute(
            "UPDATE games SET revision = revision + 1, updated_at = ?"
            " WHERE id = ? AND revision = ? AND status = 'active'",
            (now, game_id, revision))
        if claimed != 1:
            return False
        await note_departure(conn, game_id, seat, how, after_move=after_move, ai_level=ai_level, at=now)
        await conn.execute("UPDATE seats SET ai_level = ?, resigned = ? WHERE game_id = ? AND seat = ?",
                           (ai_level, int(resigned), game_id, seat))
        if result is not None:
            await conn.execute("UPDATE games SET status = 'finished', result = ? WHERE id = ?",
                               (json.dumps(dict(result)), game_id))
            await count_finished(conn, game_id)
            await insert_announcements(conn, game_id, [Announcement(kind="finish", version=after_move)], now)
    return True
