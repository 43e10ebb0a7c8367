"""The bot at Discord's rate limits: tight limits (a global limit of a few requests a
second, two posts a second per channel) while several games are played at once. Every
move stands, every board comes (late, perhaps one for several moves), none twice."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import pytest

from emulator.harness import Harness
from emulator.model import User
from emulator.ratelimits import Limit, RateLimits
from tests.bot.e2e.driver import boards, session_of, start_flaming, versions

TIGHT = RateLimits(global_per_second=6, routes={"POST /channels/{channel_id}/messages": Limit(2, 1.0),
                                                "PATCH /channels/{channel_id}/messages/{message_id}": Limit(2, 1.0)})


async def play_moves(harness: Harness, game_id: int, users: dict[int, User], thread: Any, moves: int) -> int:
    """The seat to act types its first suggested move, ``moves`` times; returns the moves made."""
    made = 0
    for _ in range(moves):
        session = await session_of(harness, game_id)
        if session.over:
            break
        user = users[session.to_act]
        choices = await harness.autocomplete(user, thread, "pyramid play", "move", "", game=game_id)
        res = await harness.slash(user, thread, "pyramid play", move=choices[0]["value"], game=game_id, settle=False)
        deadline = asyncio.get_running_loop().time() + 60
        while not any(mark in res.text for mark in ("✅", "❌")) and asyncio.get_running_loop().time() < deadline:
            await harness.emulator.wait_changed(0.1)  # the reply comes once the move is made (not the board)
        assert "✅" in res.text, res.text
        made += 1
    return made


@pytest.mark.parametrize("emulator_options", [{"rate_limits": TIGHT}])
async def test_no_move_lost_and_no_board_twice_at_the_limit(emulator_options: dict[str, Any], emulator: Any,
                                                             harness: Harness) -> None:
    players = [await harness.add_user(f"p{i}") for i in range(6)]
    await harness.start_bot()
    games = [await start_flaming(emulator, harness, players[i:i + 2]) for i in range(0, 6, 2)]
    await harness.settle(timeout=60)
    made = await asyncio.gather(*(
        play_moves(harness, game_id, {0: players[i * 2], 1: players[i * 2 + 1]}, thread, 4)
        for i, (thread, game_id) in enumerate(games)))
    await harness.settle(timeout=120)

    assert emulator.limiter.refused["global"] + emulator.limiter.refused["user"] > 0, "the limits were reached"
    for (thread, game_id), count in zip(games, made, strict=True):
        session = await session_of(harness, game_id)
        assert session.version == count, "every move stands"
        shown = versions(harness, thread)
        assert shown == sorted(set(shown)), f"boards in order, none twice: {shown}"
        assert shown[-1] == session.version, "the latest move's board came"
        posted = Counter(b.id for b in boards(harness, thread))
        assert max(posted.values()) == 1
        assert (await harness.bot.services.store.outbox.backlog()).pending == 0
