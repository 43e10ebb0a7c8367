"""Lobbies: opening one (its opener seated, the server's cap and a challenge's one entry
checked in the same transaction), its options, its start, and reopening it."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Unpack

from bot.store.database import Tx
from bot.store.games import NewGame, _insert_game
from bot.store.records import DEFAULT_MAX_OPEN_GAMES, SeatRecord
from bot.store.rows import Rows, _model
from engine.core.text import N_, Phrase, Word


class LobbyError(Exception):
    """A lobby change that can't be made (full, already seated, not a lobby). Its
    message is a translatable template with named arguments (``text``), as the
    engine's errors carry theirs; ``str(error)`` is the English."""

    def __init__(self, template: str, /, **args: object) -> None:
        # Without arguments the message is itself the argument, so a sentence already
        # in the reader's language (or holding braces) is never taken for a template.
        self.text = Phrase(template, args) if args else Phrase("{message}", {"message": Word(template)})
        super().__init__(self.text.fill(()))


class TooManyOpenGames(LobbyError):
    """The opener already has the server's maximum of lobbies and running games."""

    def __init__(self, limit: int) -> None:
        super().__init__(
            N_("You already have {limit} open games in this server (lobbies and running games you opened). "
               "Cancel a lobby or finish a game first; a server admin can raise the limit with "
               "`/pyramid-admin settings max_open_games`."), limit=limit,
        )
        self.limit = limit


class AlreadyEntered(LobbyError):
    """The player already has a game of this challenge's deal."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"You already have a game of this deal (#{game_id}).")
        self.game_id = game_id


async def insert_lobby(conn: Tx, kind: str, *, created_by: int, name: str, now: str, **game: Unpack[NewGame]) -> int:
    """A new lobby with its opener in seat 0, inside the caller's transaction (which
    checks first whether they may open it); its number."""
    game_id = await _insert_game(conn, kind, status="lobby", created_by=created_by, now=now, **game)
    await conn.execute(
        "INSERT INTO seats (game_id, seat, user_id, ai_level, name, joined_at) VALUES (?, 0, ?, NULL, ?, ?)",
        (game_id, created_by, name, now),
    )
    return game_id


class LobbyRows(Rows):
    """A lobby from its opening to its start."""

    async def open_game(self, kind: str, *, created_by: int, name: str = "", **game: Unpack[NewGame]) -> int:
        """A new lobby with its opener in seat 0, as ``/pyramid new`` and a challenge
        entry make them: one transaction checks the opener's open games against the
        server's cap (and, for a challenge, that they have no game of it yet) and
        writes both rows, so a burst of commands or a double click can't slip past
        either check. Raises :class:`TooManyOpenGames` or :class:`AlreadyEntered`."""
        now = self.db.now()
        guild_id, challenge_id = game["guild_id"], game.get("challenge_id")
        async with self.db.transaction() as conn:
            if challenge_id is not None:
                entered = await conn.fetch_one(
                    "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id"
                    " WHERE g.challenge_id = ? AND s.user_id = ? ORDER BY g.id LIMIT 1",
                    (challenge_id, created_by),
                )
                if entered is not None:
                    raise AlreadyEntered(int(entered[0]))
            limit = DEFAULT_MAX_OPEN_GAMES
            if guild_id is not None:
                row = await conn.fetch_one("SELECT max_open_games FROM guild_settings WHERE guild_id = ?", (guild_id,))
                limit = int(row[0]) if row is not None else DEFAULT_MAX_OPEN_GAMES
            counted = await conn.fetch_one(
                "SELECT COUNT(*) FROM games WHERE created_by = ? AND guild_id IS NOT DISTINCT FROM ?"
                " AND status IN ('lobby', 'active')",
                (created_by, guild_id),
            )
            if counted is not None and int(counted[0]) >= limit:
                raise TooManyOpenGames(limit)
            return await insert_lobby(conn, kind, created_by=created_by, name=name, now=now, **game)

    async def begin_game(self, game_id: int, *, min_players: int, max_players: int) -> list[SeatRecord]:
        """Close a lobby and return its final seats, read in the same transaction
        that marks the game active. Joins, leaves and AI additions check the status
        in their own transactions, so after this none can change the seats: the
        deal made from these seats is the deal of the game. Raises LobbyError when
        the lobby already started or closed, or has too few or too many players."""
        async with self.db.transaction() as conn:
            row = await conn.fetch_one("SELECT status FROM games WHERE id = ?", (game_id,))
            if row is None or row["status"] != "lobby":
                raise LobbyError(N_("This lobby has already started or closed."))
            rows = await conn.fetch_all("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
            seats = [_model(SeatRecord, r, f"seat of game {game_id}") for r in rows]
            if len(seats) < min_players:
                raise LobbyError(N_("This game needs at least {least} players; {seated} joined so far. "
                                    "Invite someone or add an AI."), least=min_players, seated=len(seats))
            if len(seats) > max_players:
                raise LobbyError(N_("This game takes at most {most} players; there are {seated}."), most=max_players,
                                 seated=len(seats))
            await conn.execute(
                "UPDATE games SET status = 'active', updated_at = ?, revision = revision + 1"
                " WHERE id = ? AND status = 'lobby'",
                (self.db.now(), game_id),
            )
            return seats

    async def set_lobby_options(self, game_id: int, options: Mapping[str, Any], *, max_players: int) -> None:
        """New options for a lobby (its opener's form), in one write: only while it is a
        lobby, and only if the players already seated fit the new options' count
        (:class:`LobbyError` otherwise, nothing changed)."""
        async with self.db.transaction() as conn:
            row = await conn.fetch_one("SELECT status FROM games WHERE id = ?", (game_id,))
            if row is None or row["status"] != "lobby":
                raise LobbyError(N_("This lobby has already started or closed."))
            seated = await conn.fetch_one("SELECT COUNT(*) AS n FROM seats WHERE game_id = ?", (game_id,))
            count = int(seated["n"]) if seated is not None else 0
            if count > max_players:
                raise LobbyError(N_("These options take at most {most} players; {seated} are seated already."),
                                 most=max_players, seated=count)
            await conn.execute(
                "UPDATE games SET options = ?, updated_at = ?, revision = revision + 1"
                " WHERE id = ? AND status = 'lobby'",
                (json.dumps(dict(options)), self.db.now(), game_id),
            )

    async def reopen_lobby(self, game_id: int) -> bool:
        """Undo :meth:`begin_game` when the deal could not be set up: back to a lobby,
        only if not a single move was written. Returns whether it was reopened."""
        async with self.db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE games SET status = 'lobby', updated_at = ?, revision = revision + 1"
                " WHERE id = ? AND status = 'active'"
                " AND NOT EXISTS (SELECT 1 FROM moves WHERE game_id = ?)",
                (self.db.now(), game_id, game_id),
            )
            return changed == 1
