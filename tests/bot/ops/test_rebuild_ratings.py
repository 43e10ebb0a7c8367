"""``pyramid-bot rebuild-ratings``: every finished game replayed from its move log, the
numbers the bot reached game by game given back, games that cannot be replayed named."""

from __future__ import annotations

import random
from pathlib import Path

from bot.core.session_service import SessionService
from bot.games.catalogue import Catalogue
from bot.games.flaming_pyramids import SHORTEST_RATED_TURNS
from bot.ops.exit_codes import ExitCode
from bot.ops.rebuild_ratings import rebuild_ratings
from bot.ratings.store import RatingStore
from bot.stats.ratings import Ratings
from bot.store import GameStore, SqliteDatabase
from tests.bot.clock import FakeClock
from tests.bot.ops.helpers import run_bot


async def play_to_the_end(store: GameStore, sessions: SessionService, users: list[int | None], seed: int,
                          kind: str = "flaming-pyramids") -> int:
    """A game of ``users`` (None: a hard AI seat), random legal moves to the result: Flaming Pyramids as
    short as a rated game may be, Pyramido in its (rated) competitive mode."""
    options: dict[str, object] = {"turn_limit": SHORTEST_RATED_TURNS} if kind == "flaming-pyramids" else {
        "mode": "competitive"}
    game_id = await store.open_game(kind, guild_id=7, channel_id=2, options=options,
                                    seed=seed, created_by=users[0] or 0)
    for user in users[1:]:
        await store.add_seat(game_id, user_id=user, ai_level=None if user else "hard", limit=6)
    session = await sessions.start(game_id)
    rng = random.Random(seed)
    while not session.over:
        seat = session.to_act
        assert seat is not None
        move = rng.choice(session.game.legal_moves(session.state))
        user = users[seat]
        session = (await sessions.make_move(game_id, move, user_id=user, seat=None if user else seat)).session
    return game_id


async def test_the_rebuild_gives_back_what_the_bot_counted_and_names_what_it_cannot(tmp_path: Path) -> None:
    clock = FakeClock()
    path = tmp_path / "bot.db"
    db = await SqliteDatabase.open(path, clock)
    store = GameStore(db)
    catalogue = Catalogue.default()
    sessions = SessionService(store, catalogue)
    follower = Ratings(store, RatingStore(db), catalogue)
    ratings = RatingStore(db)
    try:
        games: list[tuple[str, list[int | None]]] = [
            ("flaming-pyramids", [101, 102]), ("flaming-pyramids", [102, None]), ("pyramido", [101, None]),
            ("flaming-pyramids", [101, 102, 103]), ("flaming-pyramids", [103, 101])]
        for n, (kind, users) in enumerate(games):
            clock.advance(minutes=5)
            game_id = await play_to_the_end(store, sessions, users, seed=n, kind=kind)
            await follower.game_finished(await sessions.load(game_id))
            await follower.game_finished(await sessions.load(game_id))  # the finish row ran twice: counted once
        live = await ratings.everything()
        assert len(live[2]) == 5 and len(live[0]) == 8  # three people in two scopes, one of them in two games
        assert {s.kind for s in live[0] if s.user_id == 101} == {"flaming-pyramids", "pyramido"}
        # A finished game whose log does not replay is named and left out.
        broken = await store.create_game("pyrinoes", guild_id=7, channel_id=2, options={}, seed=1, created_by=101)
        await store.add_seat(broken, user_id=101, limit=2)
        await store.add_seat(broken, user_id=102, limit=2)
        await store.set_status(broken, "active", expect="lobby")
        await store.append_move(broken, 1, 0, "no such move", actor_id=101, status="finished")
        summary = await rebuild_ratings(db)
        assert (summary.finished, summary.rated, summary.recorded) == (6, 5, 0)
        assert [g for g, _ in summary.skipped] == [broken] and "does not replay" in summary.skipped[0][1]
        assert await ratings.everything() == live
        assert f"#{broken} its move log does not replay" in summary.describe()
    finally:
        await db.close()
    done = run_bot("rebuild-ratings", env={"PYRAMID_DATABASE": str(path)}, timeout=120)
    assert done.returncode == ExitCode.OK, done.stderr
    assert done.stdout.startswith("Rebuilt ratings from 6 finished games: 5 rated, 0 completion records; 8 ratings")
    db = await SqliteDatabase.open(path, clock)
    try:
        assert await RatingStore(db).everything() == live
    finally:
        await db.close()


def test_a_database_it_cannot_open_is_named(tmp_path: Path) -> None:
    done = run_bot("rebuild-ratings", env={"PYRAMID_DATABASE": str(tmp_path / "missing" / "bot.db")})
    assert done.returncode == ExitCode.DATABASE_UNAVAILABLE, (done.returncode, done.stderr)
    assert "bot.db" in done.stderr
