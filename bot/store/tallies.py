"""Wins per player in each server, kept as games finish, so the listing reads a few rows.

``/pyramid leaderboard`` (without a game) lists the 15 players of a server with the
most wins, then the fewest games. It used to read every finished game of the server
and each game's seats: with 20,000 games, 20,005 reads and 7 s with the event loop
stalled, for any member who asked (issue #37). Now :func:`count_finished` adds a game
to ``server_wins`` in the transaction that finishes it (``GameStore.append_move`` with
the final move, ``GameStore.set_status`` for a game a seat's leaving ended), exactly
once: only when the status turns to finished. Migration 0016 counted the games
finished before. :func:`server_board` reads the top rows by the table's index.

What counts, as the listing always counted it: a finished game of a server, each seat
with a person in it (played), and a win for a seat among the result's winners whose
person did not resign.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from bot.store.database import Database, Tx


@dataclass(frozen=True)
class ServerWins:
    user_id: int
    wins: int
    played: int


def _winners(raw: object) -> set[int] | None:
    """The result's winners; None: a result that is no JSON object (the game is left out,
    as the listing left out a game it could not read)."""
    if raw is None:
        return set()
    try:
        result = json.loads(str(raw))
    except json.JSONDecodeError:
        return None
    if not isinstance(result, dict):
        return None
    return {int(w) for w in result.get("winners", []) or [] if isinstance(w, int)}


async def count_finished(conn: Tx, game_id: int) -> None:
    """Add a game that has just finished to its server's tallies, inside the transaction
    that finished it (its caller makes sure that happens once)."""
    game = await conn.fetch_one("SELECT guild_id, result FROM games WHERE id = ?", (game_id,))
    if game is None or game["guild_id"] is None:
        return
    winners = _winners(game["result"])
    if winners is None:
        return
    seats = await conn.fetch_all(
        "SELECT seat, user_id, resigned FROM seats WHERE game_id = ? AND user_id IS NOT NULL ORDER BY seat",
        (game_id,))
    await conn.execute_many(
        "INSERT INTO server_wins (guild_id, user_id, played, wins, first_game, first_seat) VALUES (?, ?, 1, ?, ?, ?)"
        " ON CONFLICT(guild_id, user_id) DO UPDATE SET played = server_wins.played + 1,"
        " wins = server_wins.wins + excluded.wins,"
        " first_seat = CASE WHEN excluded.first_game < server_wins.first_game THEN excluded.first_seat"
        " ELSE server_wins.first_seat END,"
        " first_game = CASE WHEN excluded.first_game < server_wins.first_game THEN excluded.first_game"
        " ELSE server_wins.first_game END",
        [(int(game["guild_id"]), int(s["user_id"]), int(int(s["seat"]) in winners and not s["resigned"]), game_id,
          int(s["seat"])) for s in seats],
    )


async def server_board(db: Database, guild_id: int, limit: int) -> list[ServerWins]:
    """The ``limit`` players of a server with the most wins, then the fewest games (then
    who was seen first): one indexed read of at most ``limit`` rows."""
    rows = await db.read_all(
        "SELECT user_id, wins, played FROM server_wins WHERE guild_id = ?"
        " ORDER BY wins DESC, played, first_game, first_seat LIMIT ?", (guild_id, limit))
    return [ServerWins(int(r["user_id"]), int(r["wins"]), int(r["played"])) for r in rows]
