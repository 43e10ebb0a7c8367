"""Games, seats, the move log, snapshots and message references.

The move log is the source of truth. ``append_move`` relies on the (game, seq)
primary key: two clicks racing to write the same move number cannot both win, so a
move is never applied twice.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, timedelta
from typing import Any, Literal, NotRequired, TypedDict, TypeVar, Unpack

from pydantic import BaseModel, ValidationError

from bot.store.clocks import write_bank
from bot.store.database import Conflict, Database, Row, Tx
from bot.store.leases import LeaseStore
from bot.store.outbox import Announcement, OutboxStore, insert_announcements
from bot.store.records import (
    DEFAULT_MAX_OPEN_GAMES,
    AiLevel,
    ChallengeRecord,
    CorruptRecord,
    GameRecord,
    GameStatus,
    GameSurface,
    GuildSettings,
    MessageRef,
    MoveRecord,
    SeatRecord,
)
from bot.store.tallies import count_finished
from bot.store.undos import keep_before, note_move
from engine.core.text import N_, Phrase, Word

M = TypeVar("M", bound=BaseModel)

#: How long closed DMs are left alone before the bot tries them again.
DM_RETRY = timedelta(hours=24)


class DuplicateMove(Exception):
    """Move number N was already written: someone else's click got there first."""


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


def _loads(raw: Any, what: str) -> Any:
    if raw is None:
        return None
    try:
        return json.loads(raw)
    except (TypeError, json.JSONDecodeError) as exc:
        raise CorruptRecord(f"The stored {what} is damaged and cannot be read.") from exc


def _model(model: type[M], row: Mapping[str, Any] | Row, what: str) -> M:
    try:
        return model.model_validate(dict(row))
    except ValidationError as exc:
        raise CorruptRecord(f"The stored {what} is damaged and cannot be read.") from exc


def _game(row: Row) -> GameRecord:
    data = dict(row)
    data["options"] = _loads(data["options"], f"options of game {data.get('id')}")
    data["result"] = _loads(data["result"], f"result of game {data.get('id')}")
    return _model(GameRecord, data, f"game {data.get('id')}")


class NewGame(TypedDict):
    """Where and from what a new game is played: the columns of its games row that its
    maker gives, besides its kind, status and opener."""

    guild_id: int | None
    channel_id: int
    options: Mapping[str, Any]
    seed: int
    challenge_id: NotRequired[int | None]
    #: "interactions": a game only a user install reaches (``GameRecord.surface``).
    surface: NotRequired[GameSurface]
    #: False: a game its ratings never see (``GameRecord.rated``).
    rated: NotRequired[bool]


async def _insert_game(conn: Tx, kind: str, *, status: GameStatus, created_by: int | None, now: str,
                       **game: Unpack[NewGame]) -> int:
    """The games row of a new game, inside the caller's transaction (a lobby's opener
    takes seat 0 in the same one); its number. Every game gets a fresh random salt:
    hashed with the seed, it seals the deal before the first move (``bot.records.fairness``),
    and being secret until the end, it keeps the seal from being reversed by trying seeds."""
    guild_id, channel_id, options, seed = game["guild_id"], game["channel_id"], game["options"], game["seed"]
    challenge_id = game.get("challenge_id")
    surface = game.get("surface", "channel")
    # The column is named only for a game only a user install reaches (migration 0014); the others take
    # its default, as they did before it existed.
    extra, marks = (", surface", ", ?") if surface != "channel" else ("", "")
    unrated = not game.get("rated", True)
    row = await conn.fetch_one(
        "INSERT INTO games (kind, guild_id, channel_id, options, status, seed, created_by,"
        f" challenge_id, created_at, updated_at, salt{extra}{', rated' if unrated else ''})"
        f" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?{marks}{', 0' if unrated else ''})"
        " RETURNING id",
        (kind, guild_id, channel_id, json.dumps(dict(options)), status, seed, created_by, challenge_id, now, now,
         secrets.token_hex(16), *([surface] if extra else [])),
    )
    assert row is not None
    return int(row[0])


async def insert_lobby(conn: Tx, kind: str, *, created_by: int, name: str, now: str, **game: Unpack[NewGame]) -> int:
    """A new lobby with its opener in seat 0, inside the caller's transaction (which
    checks first whether they may open it); its number."""
    game_id = await _insert_game(conn, kind, status="lobby", created_by=created_by, now=now, **game)
    await conn.execute(
        "INSERT INTO seats (game_id, seat, user_id, ai_level, name, joined_at) VALUES (?, 0, ?, NULL, ?, ?)",
        (game_id, created_by, name, now),
    )
    return game_id


class GameStore:
    def __init__(self, db: Database) -> None:
        self.db = db
        #: What must still be announced for each move (written with the move, see append_move).
        self.outbox = OutboxStore(db)
        #: Who does which background work when several processes share the database.
        self.leases = LeaseStore(db)

    # --- games ---------------------------------------------------------------
    async def create_game(self, kind: str, *, created_by: int | None, status: GameStatus = "lobby",
                          **game: Unpack[NewGame]) -> int:
        """A game row alone, in any status and with no seat, as tests lay out a
        database (the bot itself opens games with :meth:`open_game`)."""
        async with self.db.transaction() as conn:
            return await _insert_game(conn, kind, status=status, created_by=created_by, now=self.db.now(), **game)

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

    async def game_record(self, game_id: int) -> GameRecord | None:
        row = await self.db.read_one("SELECT * FROM games WHERE id = ?", (game_id,))
        return _game(row) if row else None

    async def _games_where(self, where: str, params: Iterable[Any] = (), *, newest: int | None = None
                           ) -> list[GameRecord]:
        """Games matching a fixed SQL condition, oldest first; with ``newest``, only that
        many of the newest (a listing reads a bounded number of rows, however long the
        history). Rows that fail to load are skipped, so one damaged game never hides the
        others from a listing."""
        if newest is None:
            rows = await self.db.read_all(f"SELECT * FROM games WHERE {where} ORDER BY id", tuple(params))
        else:
            rows = list(reversed(await self.db.read_all(f"SELECT * FROM games WHERE {where} ORDER BY id DESC LIMIT ?",
                                                        (*params, newest))))
        games: list[GameRecord] = []
        for row in rows:
            try:
                games.append(_game(row))
            except CorruptRecord:
                continue
        return games

    async def all_games(self) -> list[GameRecord]:
        """Every game, oldest first (damaged rows left out)."""
        return await self._games_where("1 = 1")

    async def running_games(self) -> list[GameRecord]:
        """Games in play that background work (reminders, timeouts) still looks after."""
        return await self._games_where("status = 'active' AND parked IS NULL")

    async def challenge_games(self, challenge_id: int) -> list[GameRecord]:
        """The players' games of one challenge's deal."""
        return await self._games_where("challenge_id = ?", (challenge_id,))

    async def challenge_first_seats(self, challenge_id: int) -> dict[int, SeatRecord]:
        """The first seat of each game of one challenge's deal (its entrant), in one read."""
        rows = await self.db.read_all(
            "SELECT * FROM seats WHERE seat = 0 AND game_id IN (SELECT id FROM games WHERE challenge_id = ?)",
            (challenge_id,))
        seats = [_model(SeatRecord, row, f"seat of challenge {challenge_id}") for row in rows]
        return {s.game_id: s for s in seats}

    async def challenge_running(self, challenge_id: int) -> bool:
        """Whether a game of this challenge's deal is still a lobby or running (one indexed read)."""
        return await self.db.read_one(
            "SELECT 1 FROM games WHERE challenge_id = ? AND status IN ('lobby', 'active') LIMIT 1", (challenge_id,)
        ) is not None

    async def games_in_thread(self, thread_id: int | None, statuses: Sequence[str], *,
                              newest: int | None = None) -> list[GameRecord]:
        """Games played in this thread, with one of ``statuses`` (``newest``: only that many)."""
        marks = ",".join("?" for _ in statuses)
        return await self._games_where(f"thread_id = ? AND status IN ({marks})", (thread_id, *statuses),
                                       newest=newest)

    async def games_of_user_in_channel(self, user_id: int, channel_id: int | None, statuses: Sequence[str], *,
                                       newest: int | None = None) -> list[GameRecord]:
        """Games opened in this channel that ``user_id`` has a seat in, with one of ``statuses``
        (``newest``: only that many of the newest)."""
        marks = ",".join("?" for _ in statuses)
        return await self._games_where(
            f"channel_id = ? AND status IN ({marks}) AND id IN (SELECT game_id FROM seats WHERE user_id = ?)",
            (channel_id, *statuses, user_id), newest=newest,
        )

    async def games_of_user(self, user_id: int, guild_id: int | None, statuses: Sequence[str], *,
                            newest: int | None = None) -> list[GameRecord]:
        """Games of one server (None: of every server) that ``user_id`` has a seat in
        (``newest``: only that many of the newest)."""
        marks = ",".join("?" for _ in statuses)
        return await self._games_where(
            f"status IN ({marks}) AND (guild_id = ? OR CAST(? AS BIGINT) IS NULL)"
            " AND id IN (SELECT game_id FROM seats WHERE user_id = ?)",
            (*statuses, guild_id, guild_id, user_id), newest=newest,
        )

    async def set_thread(self, game_id: int, thread_id: int | None) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE games SET thread_id = ?, updated_at = ?, revision = revision + 1 WHERE id = ?",
                (thread_id, self.db.now(), game_id),
            )

    async def set_status(
        self, game_id: int, status: GameStatus, *, result: Mapping[str, Any] | None = None, expect: str | None = None
    ) -> bool:
        """Change a game's status; with ``expect`` only from that status (returns
        False when someone else changed it first)."""
        async with self.db.transaction() as conn:
            sql = ("UPDATE games SET status = ?, result = COALESCE(?, result), updated_at = ?,"
                   " revision = revision + 1 WHERE id = ?")
            params: list[Any] = [status, json.dumps(dict(result)) if result is not None else None, self.db.now(),
                                 game_id]
            if expect is not None:
                sql += " AND status = ?"
                params.append(expect)
            if status == "finished":  # counted once: only when it turns finished (writes are serialized)
                sql += " AND status <> 'finished'"
            changed = await conn.execute(sql, params) == 1
            if changed and status == "finished":
                await count_finished(conn, game_id)
            return changed

    async def park_game(self, game_id: int, reason: str) -> bool:
        """Stop background work on a game it keeps failing on (its thread is gone,
        its move log is damaged); returns True the first time, when its players
        should be told."""
        async with self.db.transaction() as conn:
            return await conn.execute(
                "UPDATE games SET parked = ?, parked_at = ?, revision = revision + 1 WHERE id = ? AND parked IS NULL",
                (reason[:500], self.db.now(), game_id),
            ) == 1

    async def parked_reason(self, game_id: int) -> str | None:
        row = await self.db.read_one("SELECT parked FROM games WHERE id = ?", (game_id,))
        return str(row[0]) if row is not None and row[0] is not None else None

    # --- seats ---------------------------------------------------------------
    async def seats(self, game_id: int) -> list[SeatRecord]:
        rows = await self.db.read_all("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        return [_model(SeatRecord, row, f"seat of game {game_id}") for row in rows]

    async def add_seat(
        self, game_id: int, *, user_id: int | None = None, ai_level: AiLevel | None = None, limit: int,
        name: str = "",
    ) -> int:
        """Seat a player in a lobby; returns the seat number."""
        async with self.db.transaction() as conn:
            row = await conn.fetch_one("SELECT status FROM games WHERE id = ?", (game_id,))
            if row is None or row["status"] != "lobby":
                raise LobbyError(N_("This game is no longer taking players."))
            counts = await conn.fetch_one(
                "SELECT COUNT(*) AS n, MAX(seat) AS top,"
                " COUNT(CASE WHEN user_id = ? THEN 1 END) AS mine FROM seats WHERE game_id = ?",
                (user_id, game_id),
            )
            assert counts is not None
            if user_id is not None and counts["mine"]:
                raise LobbyError(N_("You are already in this game: wait for others to join or add an AI player, "
                                    "then press Start."))
            if counts["n"] >= limit:
                raise LobbyError(N_("This game is full ({limit} players)."), limit=limit)
            seat = 0 if counts["top"] is None else int(counts["top"]) + 1
            await conn.execute(
                "INSERT INTO seats (game_id, seat, user_id, ai_level, name, joined_at) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seat, user_id, ai_level, name, self.db.now()),
            )
            await conn.execute("UPDATE games SET updated_at = ?, revision = revision + 1 WHERE id = ?",
                               (self.db.now(), game_id))
            return seat

    async def remove_seat(self, game_id: int, seat: int) -> None:
        """Leave a lobby; later seats move up so seat numbers stay 0..n-1."""
        async with self.db.transaction() as conn:
            row = await conn.fetch_one("SELECT status FROM games WHERE id = ?", (game_id,))
            if row is None or row["status"] != "lobby":
                raise LobbyError(N_("The game has started; use /pyramid resign instead."))
            if await conn.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat)) == 0:
                raise LobbyError(N_("That seat is empty."))
            later = [int(r["seat"]) for r in await conn.fetch_all(
                "SELECT seat FROM seats WHERE game_id = ? AND seat > ? ORDER BY seat", (game_id, seat))]
            for old in later:
                await conn.execute("UPDATE seats SET seat = ? WHERE game_id = ? AND seat = ?", (old - 1, game_id, old))
            await conn.execute("UPDATE games SET revision = revision + 1 WHERE id = ?", (game_id,))

    async def set_seat_ai(self, game_id: int, seat: int, ai_level: AiLevel | None, *, resigned: bool = False) -> None:
        """Hand a seat to an AI (timeout, resignation) or back to its human."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE seats SET ai_level = ?, resigned = ? WHERE game_id = ? AND seat = ?",
                (ai_level, int(resigned), game_id, seat),
            )
            await conn.execute("UPDATE games SET revision = revision + 1 WHERE id = ?", (game_id,))

    # --- direct messages ------------------------------------------------------
    async def dm_status(self, user_id: int) -> Literal["open", "closed", "retry"]:
        """'open' (nothing recorded), 'closed' (found closed, not yet time to try
        again) or 'retry' (found closed, but worth trying again now)."""
        row = await self.db.rows.get("dm_closed", user_id, lambda: self.db.read_one(
            "SELECT * FROM dm_closed WHERE user_id = ?", (user_id,)))
        if row is None:
            return "open"
        return "closed" if row["retry_at"] is not None and str(row["retry_at"]) > self.db.now() else "retry"

    async def mark_dm_closed(self, user_id: int, closed: bool = True, *, retry_after: timedelta = DM_RETRY) -> bool:
        """Record closed DMs, to be tried again after ``retry_after`` (or clear the
        record when a DM went through). Returns True when this is news: the first
        time since the DMs were last open, when the player should be told once."""
        async with self.db.transaction() as conn:
            if not closed:
                await conn.execute("DELETE FROM dm_closed WHERE user_id = ?", (user_id,))
                return False
            known = await conn.fetch_one("SELECT 1 FROM dm_closed WHERE user_id = ?", (user_id,)) is not None
            retry_at = (self.db.clock() + retry_after).astimezone(UTC).isoformat(timespec="seconds")
            await conn.execute(
                "INSERT INTO dm_closed (user_id, noticed_at, retry_at) VALUES (?, ?, ?)"
                " ON CONFLICT(user_id) DO UPDATE SET retry_at = excluded.retry_at",
                (user_id, self.db.now(), retry_at),
            )
            return not known

    async def closed_dm_users(self) -> set[int]:
        return {int(row[0]) for row in await self.db.read_all("SELECT user_id FROM dm_closed")}

    async def retry_dms(self, user_id: int) -> bool:
        """The player did something with the bot: if their DMs were marked closed,
        try them again on the next DM (they may have opened them). Returns whether
        there was a record to refresh."""
        if await self.db.read_one(
            "SELECT 1 FROM dm_closed WHERE user_id = ? AND retry_at > ?", (user_id, self.db.now())
        ) is None:
            return False  # nothing recorded (the usual case): no write
        async with self.db.transaction() as conn:
            return await conn.execute(
                "UPDATE dm_closed SET retry_at = ? WHERE user_id = ?", (self.db.now(), user_id)
            ) == 1

    # --- moves ---------------------------------------------------------------
    async def moves(self, game_id: int) -> list[MoveRecord]:
        rows = await self.db.read_all("SELECT * FROM moves WHERE game_id = ? ORDER BY seq", (game_id,))
        records = [_model(MoveRecord, row, f"move log of game {game_id}") for row in rows]
        if [m.seq for m in records] != list(range(1, len(records) + 1)):
            raise CorruptRecord(f"The move log of game {game_id} has gaps and cannot be replayed.")
        return records

    async def revision(self, game_id: int) -> int | None:
        """How many times the game has changed (moves, seats, status): a process that
        keeps it in memory compares this to notice another process's writes. None: no such game."""
        row = await self.db.read_one("SELECT revision FROM games WHERE id = ?", (game_id,))
        return int(row[0]) if row is not None else None

    async def move_count(self, game_id: int) -> int:
        row = await self.db.read_one("SELECT COALESCE(MAX(seq), 0) FROM moves WHERE game_id = ?", (game_id,))
        return int(row[0]) if row else 0

    async def append_move(
        self,
        game_id: int,
        seq: int,
        seat: int,
        move: str,
        *,
        actor_id: int | None,
        snapshot: Mapping[str, Any] | None = None,
        status: GameStatus | None = None,
        result: Mapping[str, Any] | None = None,
        announcements: Sequence[Announcement] = (),
        bank: tuple[int, float] | None = None,
        note: str | None = None,
        undos: int | None = None,
    ) -> str:
        """Write move ``seq`` (and, atomically with it, the snapshot, any status
        change it causes, the outbox rows that announce it and ``bank``, the mover's
        new time bank as (seat, seconds): a move is never committed without them);
        returns the time written as the game's ``updated_at``.
        Raises :class:`DuplicateMove` if ``seq`` is taken, or (``undos``: the game's count of moves
        taken back when the position was read) if a move was taken back since: the log can shrink
        (``bot.store.undos``), so a free ``seq`` alone does not prove the position current."""
        now = self.db.now()
        async with self.db.transaction() as conn:
            try:
                await conn.execute(
                    "INSERT INTO moves (game_id, seq, seat, move, actor_id, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, seq, seat, move, actor_id, now),
                )
            except Conflict as exc:
                raise DuplicateMove(f"Move {seq} of game {game_id} has already been made.") from exc
            # what this move changes, as it stood: an undo puts it back (bot/store/undos.py)
            await keep_before(conn, game_id, seq, seat if bank is None else bank[0], banked=bank is not None)
            if snapshot is not None:
                await conn.execute(
                    "INSERT INTO snapshots (game_id, seq, position) VALUES (?, ?, ?)"
                    " ON CONFLICT(game_id) DO UPDATE SET seq = excluded.seq, position = excluded.position",
                    (game_id, seq, json.dumps(dict(snapshot))),
                )
            if await conn.execute(
                "UPDATE games SET updated_at = ?, status = COALESCE(?, status), result = COALESCE(?, result),"
                " revision = revision + 1 WHERE id = ? AND (CAST(? AS INTEGER) IS NULL OR undos = ?)",
                (now, status, json.dumps(dict(result)) if result is not None else None, game_id, undos, undos),
            ) != 1:  # a move was taken back since the mover's position was read (another process): stale
                raise DuplicateMove(f"Game {game_id} changed under move {seq}: a move was taken back.")
            await insert_announcements(conn, game_id, announcements, now)
            if status == "finished":  # the final move: its number is written once, so the game counts once
                await count_finished(conn, game_id)
            if note is not None:  # the bot made it for the player: 'auto' or 'forecast' (bot/store/undos.py)
                await note_move(conn, game_id, seq, note)
            if bank is not None:
                await write_bank(conn, game_id, *bank)
        return now

    async def snapshot(self, game_id: int) -> tuple[int, dict[str, Any]] | None:
        row = await self.db.read_one("SELECT seq, position FROM snapshots WHERE game_id = ?", (game_id,))
        if row is None:
            return None
        position = _loads(row["position"], f"snapshot of game {game_id}")
        if not isinstance(position, dict):
            raise CorruptRecord(f"The stored snapshot of game {game_id} is damaged.")
        return int(row["seq"]), position

    # --- messages the bot keeps editing ----------------------------------------
    async def set_message(
        self, game_id: int, role: str, channel_id: int, message_id: int, *, seat: int = -1, version: int = 0
    ) -> MessageRef | None:
        """Record the current message for a role; returns the one it supersedes."""
        async with self.db.transaction() as conn:
            old = await conn.fetch_one(
                "SELECT * FROM messages WHERE game_id = ? AND role = ? AND seat = ?", (game_id, role, seat))
            await conn.execute(
                "INSERT INTO messages (game_id, role, seat, channel_id, message_id, version) VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT(game_id, role, seat) DO UPDATE SET channel_id = excluded.channel_id,"
                " message_id = excluded.message_id, version = excluded.version",
                (game_id, role, seat, channel_id, message_id, version),
            )
        return _model(MessageRef, old, f"message of game {game_id}") if old else None

    async def get_message(self, game_id: int, role: str, seat: int = -1) -> MessageRef | None:
        row = await self.db.read_one(
            "SELECT * FROM messages WHERE game_id = ? AND role = ? AND seat = ?", (game_id, role, seat)
        )
        return _model(MessageRef, row, f"message of game {game_id}") if row else None

    # --- guild settings -------------------------------------------------------
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        row = await self.db.rows.get("guild_settings", guild_id, lambda: self.db.read_one(
            "SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,)))
        return _model(GuildSettings, row, f"settings of server {guild_id}") if row else GuildSettings(
            guild_id=guild_id
        )

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        """Write a server's settings, validated again here: a model built without
        validation (``model_construct``) must not slip unbounded values past the
        store. Raises ``ValidationError`` (a ValueError) and writes nothing then."""
        settings = GuildSettings.model_validate(settings.model_dump())
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, use_threads, reminder_hours, timeout_hours, timeout_action,"
                " max_open_games, language, away_days, away_window_days, increment_hours)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT(guild_id) DO UPDATE SET"
                " use_threads = excluded.use_threads, reminder_hours = excluded.reminder_hours,"
                " timeout_hours = excluded.timeout_hours, timeout_action = excluded.timeout_action,"
                " max_open_games = excluded.max_open_games, language = excluded.language,"
                " away_days = excluded.away_days, away_window_days = excluded.away_window_days,"
                " increment_hours = excluded.increment_hours",
                (settings.guild_id, int(settings.use_threads), settings.reminder_hours, settings.timeout_hours,
                 settings.timeout_action, settings.max_open_games, settings.language, settings.away_days,
                 settings.away_window_days, settings.increment_hours),
            )

    # --- reminders ------------------------------------------------------------
    async def reminded(self, game_id: int, seq: int) -> bool:
        return await self.db.read_one(
            "SELECT 1 FROM reminders WHERE game_id = ? AND seq = ? AND reminded_at IS NOT NULL", (game_id, seq)
        ) is not None

    async def mark_reminded(self, game_id: int, seq: int) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO reminders (game_id, seq, reminded_at) VALUES (?, ?, ?) ON CONFLICT(game_id)"
                " DO UPDATE SET seq = excluded.seq, reminded_at = excluded.reminded_at",
                (game_id, seq, self.db.now()),
            )

    # --- challenges -------------------------------------------------------------
    async def create_challenge(
        self, *, guild_id: int | None, channel_id: int, seed: int, options: Mapping[str, Any], created_by: int | None
    ) -> int:
        async with self.db.transaction() as conn:
            row = await conn.fetch_one(
                "INSERT INTO challenges (guild_id, channel_id, seed, options, created_by, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                (guild_id, channel_id, seed, json.dumps(dict(options)), created_by, self.db.now()),
            )
            assert row is not None
            return int(row[0])

    async def get_challenge(self, challenge_id: int) -> ChallengeRecord | None:
        row = await self.db.read_one("SELECT * FROM challenges WHERE id = ?", (challenge_id,))
        if row is None:
            return None
        data = dict(row)
        data["options"] = _loads(data["options"], f"options of challenge {challenge_id}")
        return _model(ChallengeRecord, data, f"challenge {challenge_id}")

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        async with self.db.transaction() as conn:
            await conn.execute("UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id))

    async def latest_challenge(self, channel_id: int) -> int | None:
        """The newest challenge opened in this channel, if any."""
        row = await self.db.read_one(
            "SELECT id FROM challenges WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        )
        return int(row[0]) if row is not None else None

    # --- notices about blocked boards -------------------------------------------
    async def notice_given(self, game_id: int, cause: str) -> bool:
        """Whether the game's opener was told (or is being told) about ``cause``."""
        return await self.db.read_one(
            "SELECT 1 FROM blocked_notices WHERE game_id = ? AND cause = ?", (game_id, cause)
        ) is not None

    async def claim_notice(self, game_id: int, cause: str, how: str) -> bool:
        """Record that the opener is told about ``cause`` (``how``); False when someone
        recorded it first (they are telling already)."""
        async with self.db.transaction() as conn:
            return await conn.execute(
                "INSERT INTO blocked_notices (game_id, cause, told_at, told_how) VALUES (?, ?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                (game_id, cause, self.db.now(), how),
            ) == 1

    async def notice_told(self, game_id: int, cause: str, how: str) -> None:
        """The claimed notice went out, ``how`` (by DM, in which channel)."""
        async with self.db.transaction() as conn:
            await conn.execute("UPDATE blocked_notices SET told_how = ? WHERE game_id = ? AND cause = ?",
                               (how, game_id, cause))

    async def release_notice(self, game_id: int, cause: str) -> None:
        """The claimed notice reached nobody: the next refusal tries again."""
        async with self.db.transaction() as conn:
            await conn.execute("DELETE FROM blocked_notices WHERE game_id = ? AND cause = ?", (game_id, cause))
