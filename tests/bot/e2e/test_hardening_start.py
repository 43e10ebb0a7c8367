"""A lobby's Start racing a Join or a Leave: the deal must match the final seats,
and the late join or leave is refused cleanly.

The set-up of a game runs off the event loop (``CpuPool.setup``), which is exactly
the window a racing click used to slip through. These tests hold that window open
with a gate, so the race happens every time instead of now and then."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from bot.workers.cpu import CpuPool
from emulator.harness import Harness
from emulator.model import Message, User
from engine.core import Game
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
    """Every bot of the test sets its games up through this gate (see the e2e conftest)."""
    return GatedCpu()


async def open_lobby(emulator: Any, harness: Harness, seated: int, *names: str) -> tuple[list[User], Message, int]:
    """``names`` on the server and the bot running; the first opens a Flaming Pyramids
    lobby and the next ``seated - 1`` join it. Returns the users, the lobby, the game."""
    users = [await harness.add_user(n) for n in names]
    await harness.start_bot()
    lobby = (await harness.slash(users[0], emulator.general, "pyramid new", game="flaming-pyramids")).message
    assert lobby is not None
    for user in users[1:seated]:
        await harness.click(user, lobby, label="Join")
    return users, lobby, await latest_game_id(harness)


async def refused_during_start(harness: Harness, cpu: GatedCpu, game_id: int, starter: User, lobby: Message,
                               during: Callable[[], Awaitable[Any]]) -> Any:
    """Click Start, and while the deal is being set up, run ``during``: it is refused
    (the lobby is closed) and the game starts with a deal that matches its seats.
    Returns the answer to ``during``."""
    cpu.gate.clear()
    cpu.waiting.clear()
    await harness.click(starter, lobby, label="Start", settle=False)
    await asyncio.wait_for(cpu.waiting.wait(), 10)
    try:
        late = await during()
    finally:
        cpu.gate.set()
    await harness.settle()
    assert "closed" in late.text, late.text
    session = await session_of(harness, game_id)
    seats = await harness.bot.services.store.seats(game_id)
    assert session.record.status == "active"
    assert session.game.players_in(session.state) == len(seats) == len(session.seats)
    assert session.seat(session.to_act) is not None, "the game waits on a seat nobody holds"
    return late


@pytest.mark.parametrize(("seated", "click"), [(2, "Join"), (3, "Leave")])
async def test_a_join_or_leave_during_start_is_refused_and_the_deal_matches(
    emulator: Any, harness: Harness, cpu: GatedCpu, seated: int, click: str
) -> None:
    """Carol clicks Join (she is not seated yet) or Leave (she is) while the deal is set up."""
    (alice, bob, carol), lobby, game_id = await open_lobby(emulator, harness, seated, "alice", "bob", "carol")

    late = await refused_during_start(harness, cpu, game_id, alice, lobby,
                                      lambda: harness.click(carol, lobby, label=click, settle=False))
    assert late.ephemeral, late.text
    seats = [s.user_id for s in await harness.bot.services.store.seats(game_id)]
    assert seats == [u.id for u in (alice, bob, carol)[:seated]], "the seats are those the lobby had"


async def test_an_ai_added_during_start_is_refused(emulator: Any, harness: Harness, cpu: GatedCpu) -> None:
    (alice, bob), lobby, game_id = await open_lobby(emulator, harness, 2, "alice", "bob")
    select = lobby.selects()[0]["custom_id"]

    await refused_during_start(harness, cpu, game_id, alice, lobby,
                               lambda: harness.select(bob, lobby, select, ["hard"], settle=False))
    assert len(await harness.bot.services.store.seats(game_id)) == 2
