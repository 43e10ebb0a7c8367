"""A seat leaves its game once (``bot.store.leaving``), whoever tries and in whatever order.

Invariant: of any number of writers that read the same running game (each process has its own lock,
so they may all get that far), exactly one hands the seat over; a writer that read the game before any
other change to it hands nothing over; the departure is noted once and the game's end queued once. Tested
on real databases (SQLite and PostgreSQL, the ``store`` fixture), by property over the writers, and by a
search of ``bot/`` for any other writer of a seat's AI or its departure."""

from __future__ import annotations

import asyncio
import itertools
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.store import DatabaseTarget, GameStore
from bot.store.departures import departures_of
from bot.store.leaving import leave_seat
from bot.store.outbox import OutboxStore
from tests.bot.clock import FakeClock
from tests.paths import REPO

ANA, BEN, CY = 11, 12, 13

#: One writer: a timeout handing the seat to an AI, a resignation the AI plays on, or one that ends the game.
Writer = st.sampled_from(["timeout", "resign", "finish"])


async def running_game(store: GameStore, players: int) -> int:
    game_id = await store.create_game("flaming-pyramids", created_by=ANA, guild_id=1, channel_id=2, options={},
                                      seed=7)
    for user in (ANA, BEN, CY)[:players]:
        await store.add_seat(game_id, user_id=user, limit=4, name=str(user))
    await store.begin_game(game_id, min_players=1, max_players=4)
    return game_id


async def write(store: GameStore, game_id: int, revision: int, kind: str) -> bool:
    if kind == "timeout":
        return await leave_seat(store.db, game_id, 1, revision=revision, how="timed out", after_move=0,
                                ai_level="normal", resigned=False)
    if kind == "resign":
        return await leave_seat(store.db, game_id, 1, revision=revision, how="resigned", after_move=0,
                                ai_level="easy", resigned=True)
    return await leave_seat(store.db, game_id, 1, revision=revision, how="resigned", after_move=0, ai_level=None,
                            resigned=True, result={"winners": [0]})


_files = itertools.count()


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(writers=st.lists(Writer, min_size=1, max_size=5), changed_first=st.booleans())
def test_of_any_writers_of_one_reading_exactly_one_hands_the_seat_over(
        tmp_path: Path, writers: list[str], changed_first: bool) -> None:
    async def example() -> None:
        db = await DatabaseTarget.parse(tmp_path / f"leave{next(_files)}.db").open(FakeClock())
        try:
            await one_reading(GameStore(db), writers, changed_first=changed_first)
        finally:
            await db.close()

    asyncio.run(example())


async def test_writers_at_once_on_each_backend(store: GameStore) -> None:
    """The same on PostgreSQL too, where the writers' transactions really overlap."""
    await one_reading(store, ["timeout", "resign", "finish", "timeout"], changed_first=False)
    await one_reading(store, ["finish", "timeout"], changed_first=True)


async def one_reading(store: GameStore, writers: list[str], *, changed_first: bool) -> None:
    game_id = await running_game(store, 3)
    record = await store.game_record(game_id)
    assert record is not None
    revision = record.revision
    if changed_first:  # someone else changed the game after every writer read it (a move, a resignation)
        await store.set_seat_ai(game_id, 2, "easy")
    results = await asyncio.gather(*(write(store, game_id, revision, kind) for kind in writers))
    after = await store.game_record(game_id)
    assert after is not None
    seat = next(s for s in await store.seats(game_id) if s.seat == 1)
    departures = await departures_of(store.db, game_id)
    finishes = await OutboxStore(store.db).pending(game_id, kind="finish")
    if changed_first:
        assert not any(results) and seat.ai_level is None and not seat.resigned and departures == []
        assert after.status == "active" and finishes == []
        return
    assert results.count(True) == 1, results
    winner = writers[results.index(True)]
    assert [d.seat for d in departures] == [1]
    assert (seat.ai_level, seat.resigned) == {"timeout": ("normal", False), "resign": ("easy", True),
                                              "finish": (None, True)}[winner]
    assert after.status == ("finished" if winner == "finish" else "active")
    assert len(finishes) == (1 if winner == "finish" else 0)
    assert after.revision == revision + 1


def test_no_other_code_hands_a_seat_over_or_notes_a_departure() -> None:
    """Every leaving goes through ``leave_seat``: nothing else in ``bot/`` (the store's own primitives
    aside) sets a seat's AI or resigned flag, or notes a departure."""
    writers = set()
    for path in (REPO / "bot").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if re.search(r"set_seat_ai\(|record_departure\(|note_departure\(|UPDATE seats SET ai_level", text):
            writers.add(path.relative_to(REPO).as_posix())
    assert writers == {"bot/store/leaving.py", "bot/store/departures.py", "bot/store/seats.py"}, writers
