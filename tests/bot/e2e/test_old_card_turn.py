"""Issue #43, finding 4: ▶ Your move on an older card of the game, clicked during the clicker's
own turn, opens the chooser as the newest card's would (built from the game as it stands),
instead of answering "out of date" with a copy of the board that has no buttons. Anyone else
clicking an older card is still shown the current board (``test_paths.py``)."""

from __future__ import annotations

from typing import Any

from emulator.harness import Harness
from tests.bot.e2e.driver import boards, latest_game_id, session_of


async def test_your_move_on_an_old_card_during_your_turn_opens_the_chooser(emulator: Any,
                                                                           harness: Harness) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    await harness.slash(ana, emulator.general, "pyramid new", game="pyramido", mode="solo", size=4)
    game_id = await latest_game_id(harness)
    thread = harness.threads(emulator.general)[0]
    old = boards(harness, thread)[-1]
    session = await session_of(harness, game_id)
    place = next(m for m in session.game.legal_moves(session.state) if m.startswith("place"))
    res = await harness.slash(ana, thread, "pyramid play", move=place, game=game_id)
    assert "✅" in res.text, res.text
    assert boards(harness, thread)[-1].id != old.id, "a newer card was posted"
    now = await session_of(harness, game_id)
    assert now.version == 1 and now.to_act == 0  # a solo turn places several stones: still Ana's

    shown = await harness.click(ana, old, label="▶ Your move")
    assert shown.ephemeral
    assert "out of date" not in shown.text and "· move 1" in shown.text, shown.text
    buttons = [b for b in shown.message.buttons() if "Back" not in (b.get("label") or "")]
    assert buttons and all(b["custom_id"].split(":")[3] == "1" for b in buttons), buttons  # today's version
    end = next(b for b in buttons if b.get("label") == "✅ End turn")
    await harness.click(ana, shown.message, custom_id=end["custom_id"])
    after = await session_of(harness, game_id)
    assert after.version == 2 and (await harness.bot.services.store.moves(game_id))[-1].move == "end"
