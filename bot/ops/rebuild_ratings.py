"""``pyramid-bot rebuild-ratings``: every rating and completion record again, from the
move logs.

Each finished game is replayed from its seed and move log by its engine (in a thread:
a long log, or a set-up that searches for a winnable deal, takes a while), and how
it counts is worked out as at the game's end (``bot.ratings.count_game``): the
stored result is not trusted. The games are then applied in the order they ended, and
the three tables are replaced in one transaction. A game's end time is kept as it was
first recorded, so a rebuild gives exactly the numbers the bot reached game by game.

Safe beside a running bot: if a game ends while the logs are replayed, the write sees
it and the work starts over (at most :data:`ATTEMPTS` times).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO

from bot.config.settings import OperatorSettings
from bot.ops.advice import database_trouble
from bot.ops.exit_codes import ExitCode
from bot.ratings import GameOutcome, count_game
from bot.ratings.store import RatingStore
from bot.store import CorruptRecord, Database, GameStore, SchemaError
from bot.store.database import DatabaseDamaged, DatabaseUnavailable
from bot.store.departures import departures_of
from bot.store.target import DatabaseTarget
from engine.core import EngineError, Game, get_game

#: Tries before giving up when games keep ending during the rebuild.
ATTEMPTS = 3

GameLookup = Callable[[str], Game[Any]]


class RebuildError(Exception):
    """The rebuild could not finish; the message says why."""


@dataclass(frozen=True)
class RebuildSummary:
    finished: int
    rated: int
    recorded: int
    ratings: int
    records: int
    #: (game, why) for each finished game that could not be counted.
    skipped: list[tuple[int, str]] = field(default_factory=list)

    def describe(self) -> str:
        text = (f"Rebuilt ratings from {self.finished} finished games: {self.rated} rated, {self.recorded} "
                f"completion records; {self.ratings} ratings and {self.records} records written.")
        if self.skipped:
            text += f" Not counted ({len(self.skipped)}): " + "; ".join(f"#{g} {why}" for g, why in self.skipped[:20])
        return text


async def work_out(db: Database, games: GameLookup = get_game) -> tuple[list[int], list[GameOutcome],
                                                                          list[tuple[int, str]]]:
    """Every finished game's id, the outcomes of those that count, and why the others don't."""
    store, ratings = GameStore(db), RatingStore(db)
    finished = await ratings.finished_game_ids()
    ended_at = await ratings.finish_times()
    outcomes: list[GameOutcome] = []
    skipped: list[tuple[int, str]] = []
    for game_id in finished:
        try:
            record = await store.game_record(game_id)
            if record is None:
                continue
            try:
                game = games(record.kind)
            except EngineError as exc:
                skipped.append((game_id, str(exc)))
                continue
            seats = await store.seats(game_id)
            moves = await store.moves(game_id)
            state = await asyncio.to_thread(game.replay, len(seats), record.options, record.seed,
                                            [(m.seat, m.move) for m in moves])
        except CorruptRecord as exc:
            skipped.append((game_id, str(exc)))
            continue
        except (EngineError, ValueError) as exc:
            skipped.append((game_id, f"its move log does not replay ({exc})"))
            continue
        try:
            departures = await departures_of(db, game_id)
        except CorruptRecord as exc:
            skipped.append((game_id, str(exc)))
            continue
        outcome = count_game(game, state, record, seats, moves, ended_at=ended_at.get(game_id), departures=departures)
        if outcome is not None:
            outcomes.append(outcome)
        elif any(s.user_id is not None for s in seats):
            skipped.append((game_id, "its move log explains no end"))
    return finished, outcomes, skipped


async def rebuild_ratings(db: Database, games: GameLookup = get_game) -> RebuildSummary:
    """Recompute and replace every rating and record; see the module docstring."""
    ratings = RatingStore(db)
    for _ in range(ATTEMPTS):
        finished, outcomes, skipped = await work_out(db, games)
        if await ratings.replace_all(outcomes, finished=finished):
            standings, records, _ = await ratings.everything()
            return RebuildSummary(finished=len(finished), rated=sum(o.rated for o in outcomes),
                                  recorded=sum(not o.rated for o in outcomes), ratings=len(standings),
                                  records=len(records), skipped=skipped)
    raise RebuildError(f"Games kept ending while the ratings were rebuilt ({ATTEMPTS} tries); run it again.")


async def _rebuild_at(target: DatabaseTarget) -> RebuildSummary:
    db = await target.open()
    try:
        return await rebuild_ratings(db)
    finally:
        await db.close()


def rebuild_ratings_command(settings: OperatorSettings, *, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    """``pyramid-bot rebuild-ratings``: rebuild, print the summary; the exit code says how it went."""
    path = settings.database.path
    if path is not None and not path.is_file():  # opening it would make an empty one
        print(f"There is no database at {path}: check PYRAMID_DATABASE.", file=err)
        return ExitCode.DATABASE_UNAVAILABLE
    try:
        summary = asyncio.run(_rebuild_at(settings.database))
    except RebuildError as exc:
        print(exc, file=err)
        return ExitCode.FAILED
    except (SchemaError, DatabaseDamaged, DatabaseUnavailable) as exc:
        return database_trouble(exc, err, then="rebuild")
    print(summary.describe(), file=out)
    return ExitCode.OK
