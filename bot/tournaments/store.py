"""Every statement the tournaments run (migration 0018): the tournaments, their entrants,
rounds, games and byes.

**A round is paired exactly once.** :meth:`TournamentStore.write_round` writes the round's
row, the games (lobbies with every seat), their ``tournament_games`` rows and the byes in
one transaction. The round's primary key ``(tournament_id, round)`` refuses a second
writer: whichever process (or retry after a SIGKILL) comes second gets ``False`` and has
written nothing. A unique key rather than a lease, because a lease only says who *should*
work: a process that stalls past its lease's expiry and wakes up would pair again beside
the one that took over, while the key is checked by the database in the transaction that
writes the pairing itself.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from bot.store import Database
from bot.store.database import Conflict, Row
from bot.store.lobbies import insert_lobby

Format = Literal["swiss", "round-robin", "tables"]
Status = Literal["signup", "running", "finished", "cancelled"]
FORMATS: tuple[Format, ...] = ("swiss", "round-robin", "tables")


@dataclass(frozen=True)
class Tournament:
    id: int
    guild_id: int
    channel_id: int
    name: str
    kind: str
    format: Format
    rounds: int | None
    table_size: int | None
    starts_at: datetime
    round_hours: float
    rated: bool
    status: Status
    created_by: int
    card_message_id: int | None


@dataclass(frozen=True)
class Entrant:
    entrant: int
    user_id: int
    name: str
    rating: float
    withdrawn_round: int | None

    @property
    def active(self) -> bool:
        return self.withdrawn_round is None


@dataclass(frozen=True)
class RoundGame:
    game_id: int
    round: int
    board: int
    #: entrant → finishing place (1 best), once the game ended.
    places: dict[int, int] | None


@dataclass(frozen=True)
class RoundRow:
    round: int
    deadline: datetime


@dataclass(frozen=True)
class Table:
    """One game to create: its entrants in seat order (user id, name, entrant)."""

    seats: tuple[tuple[int, str, int], ...]
    seed: int


def _tournament(row: Row) -> Tournament:
    return Tournament(int(row["id"]), int(row["guild_id"]), int(row["channel_id"]), str(row["name"]), str(row["kind"]),
                      row["format"], None if row["rounds"] is None else int(row["rounds"]),
                      None if row["table_size"] is None else int(row["table_size"]),
                      datetime.fromisoformat(row["starts_at"]), float(row["round_hours"]), bool(row["rated"]),
                      row["status"], int(row["created_by"]),
                      None if row["card_message_id"] is None else int(row["card_message_id"]))


class AlreadyIn(Exception):
    """The player has signed up already."""


class Full(Exception):
    """The tournament has as many entrants as it takes."""


class TournamentStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def create(self, *, guild_id: int, channel_id: int, name: str, kind: str, format: Format,
                     rounds: int | None, table_size: int | None, starts_at: datetime, round_hours: float,
                     rated: bool, created_by: int) -> int:
        async with self.db.transaction() as conn:
            row = await conn.fetch_one(
                "INSERT INTO tournaments (guild_id, channel_id, name, kind, format, rounds, table_size, starts_at,"
                " round_hours, rated, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (guild_id, channel_id, name, kind, format, rounds, table_size, starts_at.isoformat(timespec="seconds"),
                 round_hours, int(rated), created_by, self.db.now()))
            assert row is not None
            return int(row[0])

    async def get(self, tournament_id: int) -> Tournament | None:
        row = await self.db.read_one("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
        return _tournament(row) if row is not None else None

    async def open_ones(self) -> list[Tournament]:
        """Tournaments still to start or running, oldest first (what the sweep looks at)."""
        rows = await self.db.read_all("SELECT * FROM tournaments WHERE status IN ('signup', 'running') ORDER BY id")
        return [_tournament(row) for row in rows]

    async def newest_in(self, guild_id: int, statuses: Sequence[Status]) -> Tournament | None:
        marks = ", ".join("?" for _ in statuses)
        row = await self.db.read_one(
            f"SELECT * FROM tournaments WHERE guild_id = ? AND status IN ({marks}) ORDER BY id DESC LIMIT 1",
            (guild_id, *statuses))
        return _tournament(row) if row is not None else None

    async def set_card(self, tournament_id: int, message_id: int) -> None:
        async with self.db.transaction() as conn:
            await conn.execute("UPDATE tournaments SET card_message_id = ? WHERE id = ?", (message_id, tournament_id))

    async def move_on(self, tournament_id: int, before: Status, after: Status, *, rounds: int | None = None) -> bool:
        """``before`` → ``after``, once: False when another process (or an earlier pass) got there first."""
        async with self.db.transaction() as conn:
            return await conn.execute(
                "UPDATE tournaments SET status = ?, rounds = COALESCE(?, rounds) WHERE id = ? AND status = ?",
                (after, rounds, tournament_id, before)) == 1

    # --- entrants ---------------------------------------------------------------
    async def join(self, tournament_id: int, user_id: int, name: str, rating: float, *, most: int | None = None
                   ) -> int:
        """Sign up (only during the sign-up: 0 otherwise); the entrant's number. Raises AlreadyIn, and Full
        when ``most`` are in. All is checked in the transaction that writes the entrant, so two sign-ups at
        the same moment (a double click) make one entry, and the last place is taken once."""
        async with self.db.transaction() as conn:
            row = await conn.fetch_one("SELECT status FROM tournaments WHERE id = ?", (tournament_id,))
            if row is None or row["status"] != "signup":
                return 0
            if await conn.fetch_one("SELECT 1 FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
                                    (tournament_id, user_id)) is not None:
                raise AlreadyIn
            top = await conn.fetch_one("SELECT MAX(entrant), COUNT(*) FROM tournament_entrants"
                                       " WHERE tournament_id = ?", (tournament_id,))
            if most is not None and top is not None and int(top[1]) >= most:  # a sign-up withdrawn is deleted
                raise Full
            number = (int(top[0]) if top is not None and top[0] is not None else 0) + 1
            try:
                await conn.execute(
                    "INSERT INTO tournament_entrants (tournament_id, entrant, user_id, name, rating, joined_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)", (tournament_id, number, user_id, name, rating, self.db.now()))
            except Conflict as exc:
                raise AlreadyIn from exc
            return number

    async def withdraw(self, tournament_id: int, user_id: int, round_no: int) -> bool:
        """Leave: before the start the sign-up is struck out; after it the entrant stays in the
        standings (finished games stand) and is paired no more. False: not (or no longer) in."""
        async with self.db.transaction() as conn:
            row = await conn.fetch_one("SELECT status FROM tournaments WHERE id = ?", (tournament_id,))
            if row is None or row["status"] not in ("signup", "running"):
                return False
            if row["status"] == "signup":
                return await conn.execute("DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
                                          (tournament_id, user_id)) == 1
            return await conn.execute(
                "UPDATE tournament_entrants SET withdrawn_round = ? WHERE tournament_id = ? AND user_id = ?"
                " AND withdrawn_round IS NULL", (round_no, tournament_id, user_id)) == 1

    async def strike_out(self, tournament_id: int, user_id: int) -> bool:
        """Leave during the sign-up only (the card's Leave): False when not signed up, or once the
        tournament has started, checked in the transaction that deletes the sign-up, so a click as
        the start closes the sign-up never withdraws a player from their games."""
        async with self.db.transaction() as conn:
            return await conn.execute(
                "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ? AND EXISTS ("
                "SELECT 1 FROM tournaments WHERE id = ? AND status = 'signup')",
                (tournament_id, user_id, tournament_id)) == 1

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        rows = await self.db.read_all(
            "SELECT entrant, user_id, name, rating, withdrawn_round FROM tournament_entrants"
            " WHERE tournament_id = ? ORDER BY entrant", (tournament_id,))
        return [Entrant(int(r["entrant"]), int(r["user_id"]), str(r["name"]), float(r["rating"]),
                        None if r["withdrawn_round"] is None else int(r["withdrawn_round"])) for r in rows]

    async def set_ratings(self, tournament_id: int, ratings: dict[int, float]) -> None:
        """The entrants' ratings as the tournament starts (the pairing's order and a tie-break)."""
        async with self.db.transaction() as conn:
            await conn.execute_many(
                "UPDATE tournament_entrants SET rating = ? WHERE tournament_id = ? AND entrant = ?",
                [(rating, tournament_id, entrant) for entrant, rating in ratings.items()])

    # --- rounds -----------------------------------------------------------------
    async def write_round(self, t: Tournament, round_no: int, deadline: datetime, tables: Sequence[Table],
                          byes: Sequence[tuple[int, float]], options: dict[str, Any]) -> bool:
        """The round, its games and byes, in one transaction; False when the round exists already
        (paired by another process, or before a restart): then nothing is written."""
        now = self.db.now()
        try:
            async with self.db.transaction() as conn:
                await conn.execute(
                    "INSERT INTO tournament_rounds (tournament_id, round, paired_at, deadline) VALUES (?, ?, ?, ?)",
                    (t.id, round_no, now, deadline.isoformat(timespec="seconds")))
                for board, table in enumerate(tables):
                    (first, first_name, _), *others = table.seats
                    game_id = await insert_lobby(conn, t.kind, created_by=first, name=first_name, now=now,
                                                 guild_id=t.guild_id, channel_id=t.channel_id, options=options,
                                                 seed=table.seed, rated=t.rated)
                    for seat, (user_id, name, _) in enumerate(others, start=1):
                        await conn.execute(
                            "INSERT INTO seats (game_id, seat, user_id, ai_level, name, joined_at)"
                            " VALUES (?, ?, ?, NULL, ?, ?)", (game_id, seat, user_id, name, now))
                    await conn.execute(
                        "INSERT INTO tournament_games (game_id, tournament_id, round, board) VALUES (?, ?, ?, ?)",
                        (game_id, t.id, round_no, board))
                await conn.execute_many(
                    "INSERT INTO tournament_byes (tournament_id, round, entrant, points) VALUES (?, ?, ?, ?)",
                    [(t.id, round_no, entrant, points) for entrant, points in byes])
        except Conflict:
            return False
        return True

    async def rounds(self, tournament_id: int) -> list[RoundRow]:
        rows = await self.db.read_all("SELECT round, deadline FROM tournament_rounds WHERE tournament_id = ?"
                                      " ORDER BY round", (tournament_id,))
        return [RoundRow(int(r["round"]), datetime.fromisoformat(r["deadline"])) for r in rows]

    async def games(self, tournament_id: int) -> list[RoundGame]:
        rows = await self.db.read_all(
            "SELECT game_id, round, board, places FROM tournament_games WHERE tournament_id = ?"
            " ORDER BY round, board", (tournament_id,))
        return [RoundGame(int(r["game_id"]), int(r["round"]), int(r["board"]),
                          None if r["places"] is None else {int(k): int(v) for k, v in json.loads(r["places"]).items()})
                for r in rows]

    async def byes(self, tournament_id: int) -> list[tuple[int, int, float]]:
        """``(round, entrant, points)`` of every bye."""
        rows = await self.db.read_all("SELECT round, entrant, points FROM tournament_byes WHERE tournament_id = ?"
                                      " ORDER BY round, entrant", (tournament_id,))
        return [(int(r["round"]), int(r["entrant"]), float(r["points"])) for r in rows]

    async def tournament_of(self, game_id: int) -> int | None:
        row = await self.db.read_one("SELECT tournament_id FROM tournament_games WHERE game_id = ?", (game_id,))
        return int(row[0]) if row is not None else None

    async def record_places(self, game_id: int, places: dict[int, int]) -> bool:
        """A game's finishing places, once (False: already recorded)."""
        async with self.db.transaction() as conn:
            return await conn.execute(
                "UPDATE tournament_games SET places = ? WHERE game_id = ? AND places IS NULL",
                (json.dumps({str(k): v for k, v in places.items()}), game_id)) == 1

