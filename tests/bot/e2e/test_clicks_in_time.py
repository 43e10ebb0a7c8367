"""Issue #43, finding 11: every turn click is answered within Discord's 3 seconds however slow reading
the game is (a busy machine): the click is acknowledged first (``bot.turns.handlers.acknowledge``), the
chooser, the board or the move follow. Here reading the game takes longer than the emulator's deadline
(shortened to keep the test quick); before, ▶ Your move, a chooser step and 🔄 answered only after
reading it, and Discord said "This interaction failed"."""

from __future__ import annotations

import asyncio
from typing import Any

from emulator.harness import Harness
from tests.bot.e2e.driver import boards, latest_game_id, session_of

DEADLINE = 0.5
SLOW_READ = 0.8


async def test_turn_clicks_are_answered_before_the_game_is_read(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    await harness.slash(ana, emulator.general, "pyramid new", game="pyramido", mode="solo", size=4)
    game_id = await latest_game_id(harness)
    thread = harness.threads(emulator.general)[0]
    board = boards(harness, thread)[-1]
    sessions = harness.bot.services.sessions
    load = sessions.load

    async def slow_load(*args: Any, **kwargs: Any) -> Any:  # a busy machine: the read takes its time
        await asyncio.sleep(SLOW_READ)
        return await load(*args, **kwargs)

    emulator.interaction_deadline = DEADLINE
    sessions.load = slow_load  # type: ignore[method-assign]
    try:
        chooser = await harness.click(ana, board, label="▶ Your move")  # a board: a private "thinking" answer
        assert chooser.ephemeral and "Choose" in chooser.text, chooser.text
        step = next(b for b in chooser.message.buttons() if not b.get("disabled") and "Back" not in
                    (b.get("label") or ""))
        stepped = await harness.click(ana, chooser.message, custom_id=step["custom_id"])  # private: an update
        assert stepped.rejected == [], stepped.rejected
        latest = await harness.click(ana, board, label="🔄 Latest board")
        assert latest.ephemeral and latest.attachments, latest.text
    finally:
        sessions.load = load  # type: ignore[method-assign]
        emulator.interaction_deadline = 3.0
    assert [v for v in emulator.violations if v.rule == "interaction-deadline"] == []
    assert (await session_of(harness, game_id)).record.id == game_id
