"""Forced moves played for the player (issue #41), through the emulator: with
``/pyramid autoplay`` on, the only legal move is played once the turn is 30 seconds old (not
before), by the sweep, and the card says "auto: the only move"; with it off for the game, never."""

from __future__ import annotations

from typing import Any

from emulator.harness import Harness
from tests.bot.clock import FakeClock
from tests.bot.e2e.driver import boards, card_text, latest_game_id, session_of
from tests.bot.e2e.test_only_move import play_until_only


async def pyramido_solo_at_its_only_move(emulator: Any, harness: Harness) -> tuple[Any, int, Any]:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    res = await harness.slash(ana, emulator.general, "pyramid new", game="pyramido", mode="solo", size=4)
    assert "started" in res.text
    game_id = await latest_game_id(harness)
    thread = harness.threads(emulator.general)[0]
    await play_until_only(harness, game_id, {0: ana}, thread, "end",
                          lambda moves: next(m for m in moves if m.startswith("place")))
    return ana, game_id, thread


async def test_the_only_move_is_played_after_the_grace_and_the_card_says_so(
        emulator: Any, harness: Harness, clock: FakeClock) -> None:
    ana, game_id, thread = await pyramido_solo_at_its_only_move(emulator, harness)
    on = await harness.slash(ana, emulator.general, "pyramid autoplay", enabled=True)
    assert "play it for you after 30 seconds" in on.text, on.text
    before = await session_of(harness, game_id)
    reminders = harness.bot.client.host.reminders

    clock.advance(seconds=10)
    assert f"auto:{game_id}" not in await reminders.sweep(), "not within the grace"
    assert (await session_of(harness, game_id)).version == before.version

    clock.advance(seconds=25)
    assert f"auto:{game_id}" in await reminders.sweep()
    await harness.settle()
    after = await session_of(harness, game_id)
    assert after.version == before.version + 1
    moves = await harness.bot.services.store.moves(game_id)
    assert moves[-1].move == "end" and moves[-1].actor_id is None
    assert any("auto: the only move" in card_text(b) for b in boards(harness, thread)[-2:]), \
        [card_text(b)[-200:] for b in boards(harness, thread)[-2:]]
    undo = await harness.slash(ana, thread, "pyramid undo", game=game_id)
    assert "your own last move" in undo.text, "a move the bot made is not the player's to take back"


async def test_off_for_this_game_wins_over_on_for_all(emulator: Any, harness: Harness, clock: FakeClock) -> None:
    ana, game_id, thread = await pyramido_solo_at_its_only_move(emulator, harness)
    await harness.slash(ana, emulator.general, "pyramid autoplay", enabled=True)
    off = await harness.slash(ana, thread, "pyramid autoplay", enabled=False, game=game_id)
    assert f"In game #{game_id}" in off.text, off.text
    before = await session_of(harness, game_id)
    clock.advance(minutes=5)
    await harness.bot.client.host.reminders.sweep()
    assert (await session_of(harness, game_id)).version == before.version
