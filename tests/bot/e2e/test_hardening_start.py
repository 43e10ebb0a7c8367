"""A lobby's Start racing a Join or a Leave: the deal must match the final seats,
and the late join or leave is refused cleanly.

The set-up of a game runs off the event loop (``CpuPool.setup``), which is exactly
the window a racing click used to slip through. These tests hold that window open
with a gate, so the race happens every time instead of now and then."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from bot.api_base import configure_api_base
from bot.services import Services
from bot.settings import load_settings
from bot.workers.cpu import CpuPool
from emulator.harness import Harness
from engine.core import Game
from tests.bot.e2e.conftest import BotUnderTest, FakeClock
from tests.bot.e2e.driver import latest_game_id, session_of


class GatedCpu(CpuPool):
    """Threads, as in the other bot tests, but a set-up waits until the test opens
    the gate, and says when it has started waiting."""

    def __init__(self) -> None:
        super().__init__(ThreadPoolExecutor(max_workers=2, thread_name_prefix="cpu"))
        self.gate = asyncio.Event()
        self.gate.set()
        self.waiting = asyncio.Event()

    async def setup(self, game: Game[Any], players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
        self.waiting.set()
        await self.gate.wait()
        return await super().setup(game, players, options, seed)


@pytest.fixture
def cpu() -> GatedCpu:
    return GatedCpu()


@pytest.fixture
def bot_factory(
    tmp_path: Path, clock: FakeClock, bots: list[BotUnderTest], cpu: GatedCpu
) -> Callable[[str, str], Awaitable[BotUnderTest]]:
    seeds = itertools.count(1000)

    async def make(api_base_url: str, token: str) -> BotUnderTest:
        settings = load_settings(
            discord_token=token, api_base_url=api_base_url, database_path=tmp_path / "bot.db", ai_delay_seconds=0,
            render_workers=0,
        )
        configure_api_base(settings.api_base_url)
        services = await Services.open(settings, clock, cpu=cpu, new_seed=lambda: next(seeds),
                                       sweep_seconds=3600.0)
        bot = BotUnderTest(services)
        bots.append(bot)
        return bot

    return make


async def start_while(harness: Harness, cpu: GatedCpu, starter: Any, lobby: Any,
                      during: Callable[[], Awaitable[Any]]) -> Any:
    """Click Start, and while the deal is being set up, run ``during``."""
    cpu.gate.clear()
    cpu.waiting.clear()
    await harness.click(starter, lobby, label="Start", settle=False)
    await asyncio.wait_for(cpu.waiting.wait(), 10)
    try:
        result = await during()
    finally:
        cpu.gate.set()
    await harness.settle()
    return result


async def assert_deal_matches_seats(harness: Harness, game_id: int) -> None:
    session = await session_of(harness, game_id)
    seats = await harness.bot.services.store.seats(game_id)
    assert session.record.status == "active"
    assert session.game.players_in(session.state) == len(seats) == len(session.seats)
    assert session.seat(session.to_act) is not None, "the game waits on a seat nobody holds"


async def test_a_join_during_start_is_refused_and_the_deal_matches(
    emulator: Any, harness: Harness, cpu: GatedCpu
) -> None:
    alice, bob, carol = [await harness.add_user(n) for n in ("alice", "bob", "carol")]
    await harness.start_bot()
    lobby = (await harness.slash(alice, emulator.general, "pyramid new", game="flaming-pyramids")).message
    assert lobby is not None
    await harness.click(bob, lobby, label="Join")
    game_id = await latest_game_id(harness)

    late = await start_while(harness, cpu, alice, lobby,
                             lambda: harness.click(carol, lobby, label="Join", settle=False))
    assert late.ephemeral and "closed" in late.text, late.text
    await assert_deal_matches_seats(harness, game_id)
    assert [s.user_id for s in await harness.bot.services.store.seats(game_id)] == [alice.id, bob.id]


async def test_a_leave_during_start_is_refused_and_the_deal_matches(
    emulator: Any, harness: Harness, cpu: GatedCpu
) -> None:
    alice, bob, carol = [await harness.add_user(n) for n in ("alice", "bob", "carol")]
    await harness.start_bot()
    lobby = (await harness.slash(alice, emulator.general, "pyramid new", game="flaming-pyramids")).message
    assert lobby is not None
    await harness.click(bob, lobby, label="Join")
    await harness.click(carol, lobby, label="Join")
    game_id = await latest_game_id(harness)

    late = await start_while(harness, cpu, alice, lobby,
                             lambda: harness.click(carol, lobby, label="Leave", settle=False))
    assert late.ephemeral and "closed" in late.text, late.text
    await assert_deal_matches_seats(harness, game_id)
    assert len(await harness.bot.services.store.seats(game_id)) == 3


async def test_an_ai_added_during_start_is_refused(emulator: Any, harness: Harness, cpu: GatedCpu) -> None:
    alice, bob = [await harness.add_user(n) for n in ("alice", "bob")]
    await harness.start_bot()
    lobby = (await harness.slash(alice, emulator.general, "pyramid new", game="flaming-pyramids")).message
    assert lobby is not None
    await harness.click(bob, lobby, label="Join")
    game_id = await latest_game_id(harness)
    select = lobby.selects()[0]["custom_id"]

    late = await start_while(harness, cpu, alice, lobby,
                             lambda: harness.select(bob, lobby, select, ["hard"], settle=False))
    assert "closed" in late.text
    await assert_deal_matches_seats(harness, game_id)
    assert len(await harness.bot.services.store.seats(game_id)) == 2
