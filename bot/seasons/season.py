"""A season: one calendar month (UTC) of a server's rated games of one game, rated from
scratch. Pure: the same ledger as the all-time ratings (``bot.ratings.ledger``), applied to
the month's games alone, so everyone starts the month level; ranked as the rating
leaderboard ranks (the ordinal, mu − 3 sigma, then games, then who played first)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, datetime

from bot.ratings import GameOutcome
from bot.ratings.ledger import Ledger, Standing

MONTH = re.compile(r"^(\d{4})-(\d{2})$")


def season_of(at: datetime) -> str:
    """The season ``at`` falls in: ``YYYY-MM`` (UTC)."""
    return at.astimezone(UTC).strftime("%Y-%m")


def previous(season: str) -> str:
    year, month = bounds_of(season)
    return f"{year - 1}-12" if month == 1 else f"{year}-{month - 1:02d}"


def bounds_of(season: str) -> tuple[int, int]:
    found = MONTH.match(season)
    if found is None or not 1 <= int(found.group(2)) <= 12:
        raise ValueError(f"not a season: {season!r}")
    return int(found.group(1)), int(found.group(2))


def span(season: str) -> tuple[str, str]:
    """``[start, end)`` of the season as the ISO text games' end times are stored in."""
    year, month = bounds_of(season)
    start = datetime(year, month, 1, tzinfo=UTC)
    end = datetime(year + 1, 1, 1, tzinfo=UTC) if month == 12 else datetime(year, month + 1, 1, tzinfo=UTC)
    return start.isoformat(timespec="seconds"), end.isoformat(timespec="seconds")


def table(outcomes: Iterable[GameOutcome], guild_id: int, kind: str) -> list[Standing]:
    """The season's standings in the server, best first (players with a rated game in it)."""
    chosen = [o for o in outcomes if o.guild_id == guild_id and o.kind == kind and o.rated]
    ledger = Ledger().apply_all(chosen)
    lines = [s for s in ledger.standings.values() if s.scope == guild_id and s.kind == kind and s.games > 0]
    return sorted(lines, key=lambda s: (-s.skill.ordinal, -s.games, s.user_id))
