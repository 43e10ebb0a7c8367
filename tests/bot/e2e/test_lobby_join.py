"""Issue #43, finding 10: Join on a lobby. The opener is seated already; their click on Join gets a clear,
friendly answer, privately, and changes nothing. When the last seat fills, the lobby's card is edited at
once with Join (and the AI menu) off for everyone; a click on Join of a full lobby all the same (an old
copy of the card, a forged id) is answered with why."""

from __future__ import annotations

from typing import Any

from emulator.harness import Harness
from emulator.model import Message
from tests.bot.e2e.driver import card_text, latest_game_id
from tests.bot.e2e.test_hardening_access import forged


def join_button(message: Message) -> dict[str, Any]:
    return next(b for b in message.buttons() if b.get("label") == "Join")


async def test_the_openers_join_is_answered_and_a_full_lobby_turns_join_off(emulator: Any, harness: Harness) -> None:
    ana, ben, cy = [await harness.add_user(name) for name in ("ana", "ben", "cy")]
    await harness.start_bot()
    opened = await harness.slash(ana, emulator.general, "pyramid new", game="pyrinoes", target=10)
    lobby = opened.message
    assert lobby is not None and f"<@{ana.id}>" in card_text(lobby)
    before = card_text(lobby)

    mine = await harness.click(ana, lobby, label="Join")
    assert mine.ephemeral and "already in this game" in mine.text and "Start" in mine.text, mine.text
    assert card_text(harness.world.messages[lobby.id]) == before, "the opener's click changes nothing"

    assert not join_button(lobby).get("disabled")
    await harness.click(ben, lobby, label="Join")
    full = harness.world.messages[lobby.id]
    assert f"<@{ben.id}>" in card_text(full)
    assert join_button(full).get("disabled"), "the last seat taken: Join is off on the card, for everyone"
    assert next(s for s in full.selects() if "addai" in str(s.get("custom_id"))).get("disabled")

    game_id = await latest_game_id(harness)
    copy = await forged(harness, emulator.general, str(join_button(full)["custom_id"]))
    late = await harness.click(cy, copy, label=str(copy.buttons()[0].get("label")))
    assert late.ephemeral and "full" in late.text, late.text
    seats = await harness.bot.services.store.seats(game_id)
    assert [s.user_id for s in seats] == [ana.id, ben.id]
    harness.assert_no_bot_errors()
