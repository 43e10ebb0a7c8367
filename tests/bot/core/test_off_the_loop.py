"""Slow engine work goes to the CPU pool, not the event loop.

Rebuilding a game from its move log replays every move (and the deal, which for
winnable-only Continuous Pyramid runs the solver). On the event loop that stalls
every click and the gateway heartbeat; it must run in the pool the bot was given.
The pool here is a real thread pool that writes down what it ran.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from bot.core.session_service import SessionService
from bot.games.catalogue import Catalogue
from bot.store import GameStore, SqliteDatabase
from bot.workers.cpu import CpuPool
from engine.core import get_game


class RecordingPool(ThreadPoolExecutor):
    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.jobs: list[str] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.jobs.append(fn.__name__)
        return super().submit(fn, *args, **kwargs)


async def test_a_game_rebuilt_from_its_log_is_replayed_in_the_pool(tmp_path: Path) -> None:
    db = await SqliteDatabase.open(tmp_path / "bot.db")
    pool = RecordingPool()
    try:
        store = GameStore(db)
        game_id = await store.create_game("continuous-pyramid", guild_id=1, channel_id=2,
                                          options={"winnable_only": True}, seed=11, created_by=100)
        await store.add_seat(game_id, user_id=100, limit=1, name="Ana")
        service = SessionService(store, Catalogue.default(), CpuPool(pool))
        session = await service.start(game_id)
        for _ in range(6):
            session = await service.load(game_id)
            move = session.game.legal_moves(session.state)[0]
            await service.make_move(game_id, move, user_id=100, expected_version=session.version)
        expected = get_game("continuous-pyramid").to_position((await service.load(game_id)).state)
        async with db.transaction() as conn:  # a restart with no usable snapshot: the log is all there is
            await conn.execute("DELETE FROM snapshots WHERE game_id = ?", (game_id,))
        pool.jobs.clear()

        rebuilt = await SessionService(store, Catalogue.default(), CpuPool(pool)).load(game_id)

        assert get_game("continuous-pyramid").to_position(rebuilt.state) == expected
        assert "replay_position" in pool.jobs, f"the replay ran on the event loop (pool ran {pool.jobs})"
        events = await SessionService(store, Catalogue.default(), CpuPool(pool)).replay_events(game_id, 4, 6)
        assert events and "replay_events" in pool.jobs
    finally:
        pool.shutdown()
        await db.close()
