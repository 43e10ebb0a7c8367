"""By property (issue #37): whatever sequence of moves, time passing, sweeps and restarts two
players string together, through the emulator, no move is accepted at a moment when the
clock says the mover's bank is empty, such a move is refused with the timeout applied, and
a bank once empty never goes up again (no increment, no move written for that seat by its
person). Failed on the code before the clock's check in ``SessionService.make_move``."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.store import GuildSettings
from emulator.harness import Harness
from emulator.server import Emulator
from tests.bot.clock import FakeClock
from tests.bot.e2e.driver import session_of, start_flaming
from tests.bot.e2e.fresh_world import in_fresh_world

_runs = itertools.count()
steps = st.lists(st.one_of(
    st.tuples(st.just("wait"), st.integers(0, 80), st.integers(0, 59)),
    st.tuples(st.just("move"), st.integers(0, 2)),
    st.tuples(st.just("sweep")),
    st.tuples(st.just("restart")),
), min_size=3, max_size=14)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["ai", "forfeit"]), steps)
@example("forfeit", [("wait", 0, 0), ("wait", 72, 0), ("move", 1)])  # a second move after the forfeit (once flaky)
def test_no_move_is_accepted_once_the_bank_is_empty_whatever_the_sweep_did(
    tmp_path: Path, action: str, sequence: list[tuple[Any, ...]]
) -> None:
    asyncio.run(play(tmp_path / f"bot{next(_runs)}.db", action, sequence))


async def play(database: Path, action: str, sequence: list[tuple[Any, ...]]) -> None:
    clock = FakeClock()
    await in_fresh_world(database, lambda emulator, harness: check_sequence(emulator, harness, clock, action, sequence),
                         clock)


async def check_sequence(emulator: Emulator, harness: Harness, clock: FakeClock, action: str,
                         sequence: list[tuple[Any, ...]]) -> None:
    users = [await harness.add_user(name) for name in ("alice", "bob")]
    await harness.start_bot()
    await harness.bot.services.store.save_guild_settings(GuildSettings(guild_id=emulator.guild.id,
                                                                       timeout_action=action))
    thread, game_id = await start_flaming(emulator, harness, users)
    #: seat → its stored bank when the clock first said it was empty
    emptied: dict[int, float | None] = {}

    async def look() -> tuple[Any, bool]:
        """The game, and whether the clock says the seat to act has an empty bank now."""
        session = await session_of(harness, game_id)
        clocks = harness.bot.client.host.reminders.clocks
        turn = await clocks.turn(session)
        empty = turn is not None and turn.timed_out(clock.now)
        if empty and session.to_act not in emptied:
            emptied[session.to_act] = await clocks.store.bank(game_id, session.to_act)
        return session, empty

    for step in sequence:
        session, empty = await look()
        if session.over or session.record.status != "active":
            break
        match step:
            case ("wait", hours, minutes):
                clock.advance(hours=hours, minutes=minutes)
            case ("sweep",):
                await harness.bot.client.host.reminders.sweep()
                await harness.settle()
            case ("restart",):
                await harness.restart_bot()
            case ("move", count):
                seat = session.to_act
                if seat is None or session.seat(seat).is_ai:
                    continue
                for _ in range(count + 1):
                    session, empty = await look()
                    if (session.to_act != seat or session.over or session.record.status != "active"
                            or session.seat(seat).is_ai):
                        break  # not theirs to play any more (a forfeit ends the game by its status alone)
                    move = session.game.legal_moves(session.state)[0]
                    told = (await harness.slash(users[seat], thread, "pyramid play", move=move, game=game_id)).text
                    if empty:
                        assert "✅" not in told and "time bank ran out" in told, told
                        after = await session_of(harness, game_id)
                        assert after.seat(seat).is_ai or after.record.status == "finished"
                    else:
                        assert "✅" in told, told
        # A bank once empty never goes up: nothing written for that seat by its person since.
        clocks = harness.bot.client.host.reminders.clocks
        now = await session_of(harness, game_id)
        for seat, bank in emptied.items():
            assert await clocks.store.bank(game_id, seat) == bank
            if now.record.status == "active" and now.to_act == seat and not now.seat(seat).is_ai:
                turn = await clocks.turn(now)  # not handed over yet (no sweep, no move): still empty
                assert turn is not None and turn.timed_out(clock.now)
