"""Ratings, completion records and the games they were worked out from.

Applying a game is one transaction: its ``rated_games`` row is inserted first, keyed
by the game, and only a new row goes on to change the standings, so a game's finish
row that runs twice (after a crash, or in two processes) counts the game once.

Games count in the order they ended (``bot.ratings.order_key``). A game applied
after one of its kind that ended later (its end was announced late) would break that
order, so then the standings of that game are worked out again from every counted
game of the kind, in order, from the outcomes kept in ``rated_games``; the numbers are
what a rebuild gives. :meth:`RatingStore.replace_all` is the rebuild's write.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Any

from pydantic import ValidationError

from bot.ratings import EVERYWHERE, GameOutcome, Ledger, Record, Standing, scopes_of
from bot.store.database import Database, Row, Tx
from bot.store.records import CorruptRecord

_STANDING_COLUMNS = ("scope", "kind", "user_id", "mu", "sigma", "games", "wins", "losses", "streak", "best_streak",
                     "last_game_id", "updated_at")
_RECORD_COLUMNS = ("scope", "kind", "variant", "user_id", "games", "wins", "best_score", "streak", "best_streak",
                   "last_game_id", "updated_at")


def _marks(count: int) -> str:
    return ", ".join("?" for _ in range(count))


def _upsert(table: str, columns: Sequence[str], key: Sequence[str]) -> str:
    updates = ", ".join(f"{c} = excluded.{c}" for c in columns if c not in key)
    return (f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({_marks(len(columns))})"
            f" ON CONFLICT({', '.join(key)}) DO UPDATE SET {updates}")


_UPSERT_STANDING = _upsert("ratings", _STANDING_COLUMNS, ("scope", "kind", "user_id"))
_UPSERT_RECORD = _upsert("completion_records", _RECORD_COLUMNS, ("scope", "kind", "variant", "user_id"))


def _standing(row: Row) -> Standing:
    try:
        return Standing(scope=int(row["scope"]), kind=str(row["kind"]), user_id=int(row["user_id"]),
                        mu=float(row["mu"]), sigma=float(row["sigma"]), games=int(row["games"]),
                        wins=int(row["wins"]), losses=int(row["losses"]), streak=int(row["streak"]),
                        best_streak=int(row["best_streak"]), last_game_id=int(row["last_game_id"]),
                        updated_at=str(row["updated_at"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise CorruptRecord("A stored rating is damaged; `pyramid-bot rebuild-ratings` recomputes them.") from exc


def _record(row: Row) -> Record:
    try:
        best = row["best_score"]
        return Record(scope=int(row["scope"]), kind=str(row["kind"]), variant=str(row["variant"]),
                      user_id=int(row["user_id"]), games=int(row["games"]), wins=int(row["wins"]),
                      best_score=None if best is None else float(best), streak=int(row["streak"]),
                      best_streak=int(row["best_streak"]), last_game_id=int(row["last_game_id"]),
                      updated_at=str(row["updated_at"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise CorruptRecord("A stored completion record is damaged; `pyramid-bot rebuild-ratings` recomputes "
                            "them.") from exc


def _outcome(row: Row) -> GameOutcome:
    try:
        return GameOutcome.model_validate_json(row["outcome"])
    except (ValidationError, TypeError, ValueError) as exc:
        raise CorruptRecord(f"The counted outcome of game {row['game_id']} is damaged; "
                            "`pyramid-bot rebuild-ratings` recomputes it from the move log.") from exc


def _standing_params(s: Standing) -> tuple[Any, ...]:
    return (s.scope, s.kind, s.user_id, s.mu, s.sigma, s.games, s.wins, s.losses, s.streak, s.best_streak,
            s.last_game_id, s.updated_at)


def _record_params(r: Record) -> tuple[Any, ...]:
    return (r.scope, r.kind, r.variant, r.user_id, r.games, r.wins, r.best_score, r.streak, r.best_streak,
            r.last_game_id, r.updated_at)


async def _insert_game(conn: Tx, outcome: GameOutcome, now: str) -> bool:
    return await conn.execute(
        "INSERT INTO rated_games (game_id, kind, guild_id, finished_at, rated, outcome, applied_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(game_id) DO NOTHING",
        (outcome.game_id, outcome.kind, outcome.guild_id, outcome.finished_at, int(outcome.rated),
         outcome.model_dump_json(), now),
    ) == 1


async def _write(conn: Tx, ledger: Ledger, *, everything: bool = False) -> None:
    standings = ledger.standings.values() if everything else [ledger.standings[k] for k in
                                                              sorted(ledger.changed_standings)]
    records = ledger.records.values() if everything else [ledger.records[k] for k in sorted(ledger.changed_records)]
    await conn.execute_many(_UPSERT_STANDING, [_standing_params(s) for s in standings])
    await conn.execute_many(_UPSERT_RECORD, [_record_params(r) for r in records])


class RatingStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    # --- writing ------------------------------------------------------------------
    async def apply(self, outcome: GameOutcome) -> bool:
        """Count a finished game once; False when it was counted already. Long: a game
        finished before others already counted recounts every game of its kind."""
        async with self.db.transaction(long=True) as conn:
            if not await _insert_game(conn, outcome, self.db.now()):
                return False
            later = await conn.fetch_one(
                "SELECT game_id FROM rated_games WHERE kind = ? AND game_id <> ?"
                " AND (finished_at > ? OR (finished_at = ? AND game_id > ?)) LIMIT 1",
                (outcome.kind, outcome.game_id, outcome.finished_at, outcome.finished_at, outcome.game_id),
            )
            if later is not None:
                await self._recount_kind(conn, outcome.kind)
                return True
            ledger = Ledger(await self._standings_in(conn, outcome), await self._records_in(conn, outcome))
            ledger.apply(outcome)
            await _write(conn, ledger)
            return True

    async def replace_all(self, outcomes: Iterable[GameOutcome], *, finished: Collection[int]) -> bool:
        """Replace every counted game, rating and record by those ``outcomes`` give,
        in one transaction. ``finished``: the finished games they were worked out
        from; when the database has others by now (a game ended meanwhile), nothing is
        written and the answer is False (work them out again)."""
        outcomes = list(outcomes)
        async with self.db.transaction(long=True) as conn:
            rows = await conn.fetch_all("SELECT id FROM games WHERE status = 'finished'")
            if {int(r[0]) for r in rows} != set(finished):
                return False
            for table in ("rated_games", "ratings", "completion_records"):
                await conn.execute(f"DELETE FROM {table}")
            now = self.db.now()
            for outcome in outcomes:
                await _insert_game(conn, outcome, now)
            await _write(conn, Ledger().apply_all(outcomes), everything=True)
            return True

    async def _recount_kind(self, conn: Tx, kind: str) -> None:
        rows = await conn.fetch_all("SELECT game_id, outcome FROM rated_games WHERE kind = ?", (kind,))
        ledger = Ledger().apply_all(_outcome(row) for row in rows)
        await conn.execute("DELETE FROM ratings WHERE kind = ?", (kind,))
        await conn.execute("DELETE FROM completion_records WHERE kind = ?", (kind,))
        await _write(conn, ledger, everything=True)

    async def _standings_in(self, conn: Tx, outcome: GameOutcome) -> list[Standing]:
        users = sorted({s.user_id for s in outcome.people if s.user_id is not None})
        scopes = scopes_of(outcome)
        if not users or not outcome.rated:
            return []
        rows = await conn.fetch_all(
            f"SELECT * FROM ratings WHERE kind = ? AND scope IN ({_marks(len(scopes))})"
            f" AND user_id IN ({_marks(len(users))})",
            (outcome.kind, *scopes, *users),
        )
        return [_standing(row) for row in rows]

    async def _records_in(self, conn: Tx, outcome: GameOutcome) -> list[Record]:
        users = sorted({s.user_id for s in outcome.people if s.user_id is not None})
        scopes = scopes_of(outcome)
        if not users or outcome.rated:
            return []
        rows = await conn.fetch_all(
            f"SELECT * FROM completion_records WHERE kind = ? AND variant = ? AND scope IN ({_marks(len(scopes))})"
            f" AND user_id IN ({_marks(len(users))})",
            (outcome.kind, outcome.variant, *scopes, *users),
        )
        return [_record(row) for row in rows]

    # --- reading ------------------------------------------------------------------
    async def finished_game_ids(self) -> list[int]:
        """Every finished game, damaged or not (a rebuild names those it cannot read)."""
        rows = await self.db.read_all("SELECT id FROM games WHERE status = 'finished' ORDER BY id")
        return [int(r[0]) for r in rows]

    async def finish_times(self) -> dict[int, str]:
        """When each counted game ended, as first recorded (a rebuild keeps these)."""
        rows = await self.db.read_all("SELECT game_id, finished_at FROM rated_games")
        return {int(r["game_id"]): str(r["finished_at"]) for r in rows}

    async def counted(self, game_id: int) -> GameOutcome | None:
        row = await self.db.read_one("SELECT game_id, outcome FROM rated_games WHERE game_id = ?", (game_id,))
        return _outcome(row) if row is not None else None

    async def standings_of(self, user_id: int, scopes: Sequence[int] = (EVERYWHERE,)) -> list[Standing]:
        """A player's ratings in these scopes, every game."""
        rows = await self.db.read_all(
            f"SELECT * FROM ratings WHERE user_id = ? AND scope IN ({_marks(len(scopes))}) ORDER BY scope, kind",
            (user_id, *scopes),
        )
        return [_standing(row) for row in rows]

    async def records_of(self, user_id: int, scopes: Sequence[int] = (EVERYWHERE,)) -> list[Record]:
        """A player's completion records in these scopes."""
        rows = await self.db.read_all(
            f"SELECT * FROM completion_records WHERE user_id = ? AND scope IN ({_marks(len(scopes))})"
            " ORDER BY scope, kind, variant",
            (user_id, *scopes),
        )
        return [_record(row) for row in rows]

    async def leaderboard(self, scope: int, kind: str, *, min_games: int, limit: int = 15) -> list[Standing]:
        """The best-rated players of one game in one scope with at least ``min_games``
        games, by the cautious figure (mu − 3·sigma), then more games first."""
        rows = await self.db.read_all(
            "SELECT * FROM ratings WHERE scope = ? AND kind = ? AND games >= ?"
            " ORDER BY mu - 3 * sigma DESC, games DESC, user_id LIMIT ?",
            (scope, kind, min_games, limit),
        )
        return [_standing(row) for row in rows]

    async def everything(self) -> tuple[list[Standing], list[Record], list[GameOutcome]]:
        """Every rating, record and counted game, in key order (for checks and tests)."""
        standings = [_standing(r) for r in await self.db.read_all(
            "SELECT * FROM ratings ORDER BY scope, kind, user_id")]
        records = [_record(r) for r in await self.db.read_all(
            "SELECT * FROM completion_records ORDER BY scope, kind, variant, user_id")]
        games = [_outcome(r) for r in await self.db.read_all(
            "SELECT game_id, outcome FROM rated_games ORDER BY game_id")]
        return standings, records, games
