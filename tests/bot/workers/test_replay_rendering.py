"""Replays are drawn off the event loop: the render pool replays the move log and
draws there, one animation at a time, so boards always find a worker free."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest

from bot.workers.render_jobs import GameLog
from bot.workers.rendering import Renderer
from engine.core import Rng, get_game
from render import art_for, render_board


class RecordingPool(ThreadPoolExecutor):
    """A real pool that writes down what it ran and how many jobs ran at once."""

    def __init__(self) -> None:
        super().__init__(max_workers=2)
        self.jobs: list[str] = []
        self.running = 0
        self.most = 0
        self._lock = threading.Lock()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.jobs.append(fn.__name__)

        def counted() -> Any:
            with self._lock:
                self.running += 1
                self.most = max(self.most, self.running)
            try:
                time.sleep(0.05)  # long enough for a second job to start beside it, if it may
                return fn(*args, **kwargs)
            finally:
                with self._lock:
                    self.running -= 1

        return super().submit(counted)


def flaming_log(moves: int = 12) -> GameLog:
    game = get_game("flaming-pyramids")
    state = game.setup(2, {}, 5)
    rng, played = Rng(1), []
    for _ in range(moves):
        seat = game.to_act(state)
        assert seat is not None
        move = rng.choice(game.legal_moves(state))
        state, _ = game.play(state, seat, move)
        played.append((seat, move))
    return GameLog(game=game, players=2, options={}, seed=5, moves=tuple(played), names=("Ana", "Ben"), number=9)


async def test_an_animation_and_a_step_are_drawn_in_the_pool() -> None:
    pool = RecordingPool()
    renderer = Renderer(pool)
    try:
        log = flaming_log()
        replay = await renderer.replay(log, art=art_for("flaming-pyramids"))
        assert replay.positions == 13 and replay.data[:6] == b"GIF89a"
        board = await renderer.replay_board(log, 4, art=art_for("flaming-pyramids"))
        assert pool.jobs == ["_replay", "_replay_board"]
        # The board of move 4 is that position's public board, with move 4 ringed.
        views, events = log.positions(4)
        assert board.png == render_board(views[-1], events=events[-1], art=art_for("flaming-pyramids"))
        assert views[-1]["names"] == ["Ana", "Ben"] and views[-1]["game_number"] == 9
        assert board.events == events[-1] and all(e.visible(None) for e in board.events)
        assert renderer.pictures()["replay", "drawn"] == 1 and renderer.pictures()["replay_board", "drawn"] == 1
        with pytest.raises(ValueError, match="moves 0 to 12"):
            await renderer.replay_board(log, 13, art=art_for("flaming-pyramids"))
    finally:
        renderer.close()


async def test_one_animation_at_a_time() -> None:
    pool = RecordingPool()
    renderer = Renderer(pool)
    try:
        log = flaming_log(4)
        await asyncio.gather(*(renderer.replay(log, art=art_for("flaming-pyramids")) for _ in range(3)))
        assert pool.jobs == ["_replay"] * 3 and pool.most == 1
        # Boards are not held back by it.
        pool.most = 0
        await asyncio.gather(renderer.replay(log, art=art_for("flaming-pyramids")),
                             renderer.replay_board(log, 2, art=art_for("flaming-pyramids")))
        assert pool.most == 2
    finally:
        renderer.close()
