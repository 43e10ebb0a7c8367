"""Two bot processes on one PostgreSQL database, started at the same moment against an emulator that enforces
Discord's IDENTIFY limit: they take turns through the database, and no IDENTIFY is refused. On the code before
issue #42 each process's first shard identified at once, and one of the two was refused (INVALID_SESSION)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.gateway.policy import LoginPolicy
from emulator.harness import Harness
from emulator.server import Emulator
from tests.bot.e2e.test_logins import SPACING, WINDOW, gaps, limited
from tests.bot.e2e.test_logins import short_window as short_window  # a fixture

pytestmark = pytest.mark.postgres


@pytest.fixture
def database(postgres_url: str) -> str:
    return postgres_url


@pytest.fixture
def login_policy() -> LoginPolicy:
    return LoginPolicy(spacing=SPACING, free_starts=1_000)


@pytest.fixture
def emulator_options() -> dict[str, Any]:
    return limited()


async def test_two_processes_starting_together_take_turns(
    short_window: Emulator, harness: Harness, bot_factory: Any, monkeypatch: pytest.MonkeyPatch,
) -> None:
    emulator = short_window
    monkeypatch.setenv("PYRAMID_SHARD_COUNT", "4")
    monkeypatch.setenv("PYRAMID_SHARD_IDS", "0-1")
    first = asyncio.create_task(harness.start_bot())
    await asyncio.sleep(0)  # the first factory has read its environment
    monkeypatch.setenv("PYRAMID_SHARD_IDS", "2-3")
    await asyncio.gather(first, harness.start_extra_bot(bot_factory))
    assert emulator.logins.refusals == [], "an IDENTIFY was refused"
    assert sorted(s.shard for s in emulator.gateway.connected_sessions) == [(i, 4) for i in range(4)]
    assert all(gap >= WINDOW for gap in gaps(emulator)), gaps(emulator)
