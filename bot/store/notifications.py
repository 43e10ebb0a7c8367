"""Notification settings and the gate's memory (issue #39; migration 0017).

``notify_settings``: a player's own settings (game 0) and their overrides for one game.
``notify_log``: every notice the gate decided on, keyed by ``(user, game, version, kind)``, so
the board and the hand DM of one turn hear one verdict; a player's buzzes of the last hour and
their held notices are read from it, and a verdict is written in the same write transaction
that read them (two processes can't both take the last slot of an hour). ``notify_turns``: a
turn's repeated reminders and its "no more pings". ``notify_digests``: the day of the last
digest, and DMs found closed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.store.database import Database, Row, Tx

#: The columns of a setting, as the store keeps them (None: not set here).
SETTING_FIELDS = ("mode", "interval_hours", "cap", "heads_up", "muted", "digest_hour", "zone")
#: How long decided notices are kept (the cap reads an hour; the benchmark counts a day).
KEEP = timedelta(days=1)


def iso(at: datetime) -> str:
    return at.astimezone(UTC).isoformat(timespec="seconds")


def instant(text: object) -> datetime:
    return datetime.fromisoformat(str(text))


@dataclass(frozen=True)
class LogRow:
    user_id: int
    game_id: int
    version: int
    kind: str
    verdict: str
    at: datetime


@dataclass(frozen=True)
class PlayerLog:
    """What the gate needs of one player: buzzes in the last hour, and held notices."""

    buzzes: list[datetime]
    held: list[LogRow]


def _setting(row: Row | None) -> dict[str, Any]:
    if row is None:
        return {}
    found: dict[str, Any] = {}
    for name in SETTING_FIELDS:
        value = row[name]
        if value is None:
            continue
        found[name] = bool(value) if name in ("heads_up", "muted") else value
    return found


def _log_row(row: Row) -> LogRow:
    return LogRow(int(row["user_id"]), int(row["game_id"]), int(row["version"]), str(row["kind"]),
                  str(row["verdict"]), instant(row["at"]))


async def _player_log(conn: Tx, user_id: int, now: datetime) -> PlayerLog:
    rows = await conn.fetch_all(
        "SELECT user_id, game_id, version, kind, verdict, at FROM notify_log WHERE user_id = ?"
        " AND ((verdict = 'buzz' AND at > ?) OR (verdict = 'hold' AND told_at IS NULL)) ORDER BY at",
        (user_id, iso(now - timedelta(hours=1))))
    logged = [_log_row(r) for r in rows]
    return PlayerLog([r.at for r in logged if r.verdict == "buzz"], [r for r in logged if r.verdict == "hold"])


class NotificationStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    # --- settings -------------------------------------------------------------------------
    async def settings(self, user_id: int, game_id: int = 0) -> dict[str, Any]:
        """The fields set in one row (game 0: the player's own), by name."""
        row = await self.db.read_one(
            f"SELECT {', '.join(SETTING_FIELDS)} FROM notify_settings WHERE user_id = ? AND game_id = ?",
            (user_id, game_id))
        return _setting(row)

    async def save(self, user_id: int, game_id: int, fields: dict[str, Any]) -> dict[str, Any]:
        """Set the given fields of one row (others as they were); returns the row's fields."""
        current = await self.settings(user_id, game_id)
        merged = {**current, **fields}
        values = [int(v) if isinstance(v, bool) else v for v in (merged.get(n) for n in SETTING_FIELDS)]
        async with self.db.transaction() as conn:
            await conn.execute(
                f"INSERT INTO notify_settings (user_id, game_id, {', '.join(SETTING_FIELDS)}, updated_at)"
                f" VALUES (?, ?, {', '.join('?' for _ in SETTING_FIELDS)}, ?)"
                " ON CONFLICT(user_id, game_id) DO UPDATE SET "
                + ", ".join(f"{n} = excluded.{n}" for n in SETTING_FIELDS) + ", updated_at = excluded.updated_at",
                (user_id, game_id, *values, self.db.now()))
        return {k: v for k, v in merged.items() if v is not None}

    async def clear(self, user_id: int, game_id: int) -> bool:
        """Forget one row (a game's override, or the player's own settings); False: there was none."""
        async with self.db.transaction() as conn:
            return await conn.execute("DELETE FROM notify_settings WHERE user_id = ? AND game_id = ?",
                                      (user_id, game_id)) == 1

    async def digest_players(self, today: str) -> list[tuple[int, dict[str, Any], str | None]]:
        """Players whose own settings ask for a digest (a digest hour, or the digest mode), with the local day of
        their last one; those whose last one is from ``today`` (UTC) or later are left out (one read)."""
        rows = await self.db.read_all(
            f"SELECT s.user_id, {', '.join('s.' + f for f in SETTING_FIELDS)}, d.last_day FROM notify_settings s"
            " LEFT JOIN notify_digests d ON d.user_id = s.user_id WHERE s.game_id = 0"
            " AND (s.digest_hour IS NOT NULL OR s.mode = 'digest') AND (d.last_day IS NULL OR d.last_day < ?)"
            " ORDER BY s.user_id", (today,))
        return [(int(r["user_id"]), _setting(r), r["last_day"]) for r in rows]

    # --- the gate's log -------------------------------------------------------------------
    async def decide(self, user_id: int, game_id: int, version: int, kind: str, now: datetime,
                     judge: Callable[[PlayerLog], str]) -> str:
        """The verdict on one notice: the one already written for it, else ``judge``'s on the
        player's log, written in the same transaction."""
        async with self.db.transaction() as conn:
            known = await conn.fetch_one(
                "SELECT verdict FROM notify_log WHERE user_id = ? AND game_id = ? AND version = ? AND kind = ?",
                (user_id, game_id, version, kind))
            if known is not None:
                return str(known[0])
            verdict = judge(await _player_log(conn, user_id, now))
            await conn.execute(
                "INSERT INTO notify_log (user_id, game_id, version, kind, verdict, at) VALUES (?, ?, ?, ?, ?, ?)",
                (user_id, game_id, version, kind, verdict, iso(now)))
            return verdict

    async def held_players(self) -> list[int]:
        rows = await self.db.read_all(
            "SELECT DISTINCT user_id FROM notify_log WHERE verdict = 'hold' AND told_at IS NULL ORDER BY user_id")
        return [int(r[0]) for r in rows]

    async def player_log(self, user_id: int, now: datetime) -> PlayerLog:
        async with self.db.transaction() as conn:
            return await _player_log(conn, user_id, now)

    async def batch(self, user_id: int, now: datetime, dropped: list[LogRow],
                    choose: Callable[[PlayerLog], list[LogRow] | None]) -> list[LogRow] | None:
        """Drop the held notices in ``dropped`` (their turn is over), then let ``choose`` pick the
        batch that goes out now (None: not yet); it is marked told and counted as a buzz."""
        stamp = iso(now)
        async with self.db.transaction() as conn:
            await conn.execute_many(
                "UPDATE notify_log SET told_at = ? WHERE user_id = ? AND game_id = ? AND version = ? AND kind = ?",
                [(stamp, r.user_id, r.game_id, r.version, r.kind) for r in dropped])
            chosen = choose(await _player_log(conn, user_id, now))
            if not chosen:
                return None
            await conn.execute_many(
                "UPDATE notify_log SET told_at = ? WHERE user_id = ? AND game_id = ? AND version = ? AND kind = ?",
                [(stamp, r.user_id, r.game_id, r.version, r.kind) for r in chosen])
            await conn.execute(
                "INSERT INTO notify_log (user_id, game_id, version, kind, verdict, at) VALUES (?, 0, ?, 'batch',"
                " 'buzz', ?) ON CONFLICT DO NOTHING", (user_id, int(now.timestamp()), stamp))
            return chosen

    async def purge(self, now: datetime) -> int:
        async with self.db.transaction(long=True) as conn:
            return await conn.execute("DELETE FROM notify_log WHERE at < ? AND (verdict <> 'hold' OR told_at IS NOT"
                                      " NULL)", (iso(now - KEEP),))

    async def mover(self, game_id: int, seq: int) -> int | None:
        """The seat that made move ``seq`` (None: the start, or no such move)."""
        if seq <= 0:
            return None
        row = await self.db.read_one("SELECT seat FROM moves WHERE game_id = ? AND seq = ?", (game_id, seq))
        return int(row[0]) if row is not None and row[0] is not None else None

    # --- a turn's repeats and its "no more pings" ---------------------------------------------
    async def turn(self, user_id: int, game_id: int, version: int) -> tuple[int, bool]:
        row = await self.db.read_one(
            "SELECT repeats, stopped FROM notify_turns WHERE user_id = ? AND game_id = ? AND version = ?",
            (user_id, game_id, version))
        return (int(row[0]), bool(row[1])) if row is not None else (0, False)

    async def repeated(self, user_id: int, game_id: int, version: int) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO notify_turns (user_id, game_id, version, repeats) VALUES (?, ?, ?, 1)"
                " ON CONFLICT(user_id, game_id, version) DO UPDATE SET repeats = notify_turns.repeats + 1",
                (user_id, game_id, version))

    async def stop(self, user_id: int, game_id: int, version: int) -> bool:
        """No more pings this turn; False when they had said so already."""
        async with self.db.transaction() as conn:
            return await conn.execute(
                "INSERT INTO notify_turns (user_id, game_id, version, stopped) VALUES (?, ?, ?, 1)"
                " ON CONFLICT(user_id, game_id, version) DO UPDATE SET stopped = 1 WHERE notify_turns.stopped = 0",
                (user_id, game_id, version)) == 1

    # --- the digest -----------------------------------------------------------------------
    async def digest_sent(self, user_id: int, day: str, now: datetime) -> bool:
        """Claim the day's digest before sending it; False: another pass (or process) has it already."""
        async with self.db.transaction() as conn:
            return await conn.execute(
                "INSERT INTO notify_digests (user_id, last_day, sent_at, blocked, told) VALUES (?, ?, ?, 0, 0)"
                " ON CONFLICT(user_id) DO UPDATE SET last_day = excluded.last_day, sent_at = excluded.sent_at"
                " WHERE notify_digests.last_day < excluded.last_day",
                (user_id, day, iso(now))) == 1

    async def digest_blocked(self, user_id: int) -> None:
        """The day's digest found the player's DMs closed: they are told once where they next use the bot."""
        async with self.db.transaction() as conn:
            await conn.execute("UPDATE notify_digests SET blocked = 1 WHERE user_id = ?", (user_id,))

    async def unreachable(self) -> set[int]:
        """Players whose digest found their DMs closed and who were not told yet."""
        rows = await self.db.read_all("SELECT user_id FROM notify_digests WHERE blocked = 1 AND told = 0")
        return {int(r[0]) for r in rows}

    async def blocked_untold(self, user_id: int) -> bool:
        """The digest found their DMs closed and they were not told yet: tell them now (once)."""
        async with self.db.transaction() as conn:
            return await conn.execute(
                "UPDATE notify_digests SET told = 1 WHERE user_id = ? AND blocked = 1 AND told = 0", (user_id,)) == 1
