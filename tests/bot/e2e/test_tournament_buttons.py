"""The sign-up card's Join and Leave buttons (issue #40, polish), through the emulator.

A click goes through the very rule ``/pyramid tournament join`` goes through
(``bot.tournaments.signup``): a member of the tournament's server, during the sign-up,
once, while there is room. The card is edited in place with the new entrants; a double
click makes one entry; a forged, stale or malformed id is answered with why and changes
nothing. Leave strikes a sign-up out before the start; after it, the card has no buttons
and a click from an old copy is refused (a withdrawal forfeits games: that takes the
command). Written before the buttons existed: the card had none (no Join to click).
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from emulator.harness import Harness
from emulator.model import Message
from tests.bot.clock import FakeClock
from tests.bot.e2e.driver import card_text
from tests.bot.e2e.test_hardening_access import forged
from tests.bot.e2e.test_tournaments import runner, standings_card


def button(message: Message, label: str) -> dict[str, Any]:
    return next(b for b in message.buttons() if b.get("label") == label)


async def open_cup(harness: Harness, channel: Any, admin: Any, **options: Any) -> int:
    res = await harness.slash(admin, channel, "pyramid-admin tournament new", game="pyrinoes", format="swiss",
                              name=options.pop("name", "Cup"), starts_in_hours=1, **options)
    assert "✅" in res.text, res.text
    return int(re.search(r"#(\d+)", res.text).group(1))  # type: ignore[union-attr]


async def entrant_ids(harness: Harness, number: int) -> list[int]:
    return [e.user_id for e in await runner(harness).store.entrants(number) if e.active]


async def test_join_and_leave_by_the_cards_buttons_edit_the_card_in_place(emulator: Any, harness: Harness,
                                                                          clock: FakeClock) -> None:
    ana, ben, cat, dan = [await harness.add_user(name) for name in ("ana", "ben", "cat", "dan")]
    await harness.start_bot()
    general = emulator.general
    number = await open_cup(harness, general, ana)
    card = standings_card(harness, general)
    assert [b.get("label") for b in card.buttons()] == ["Join", "Leave"]
    assert "Entrants (0)" in card_text(card)

    joined = await harness.click(ben, card, label="Join")
    assert joined.ephemeral and "✅" in joined.text and "entrant #1" in joined.text, joined.text
    card = standings_card(harness, general)
    assert "Entrants (1): ben" in card_text(card)

    again = await harness.click(ben, card, label="Join")
    assert again.ephemeral and "already" in again.text, again.text
    assert await entrant_ids(harness, number) == [ben.id]

    # A double click: two clicks at the same moment make one entry.
    both = await asyncio.gather(*(harness.click(cat, card, label="Join", settle=False) for _ in range(2)))
    await harness.settle()
    assert sorted("✅" in r.text for r in both) == [False, True], [r.text for r in both]
    assert await entrant_ids(harness, number) == [ben.id, cat.id]

    # The command goes through the same rule: the card counts its entrant too.
    assert "✅" in (await harness.slash(dan, general, "pyramid tournament join")).text
    assert "Entrants (3): ben, cat, dan" in card_text(standings_card(harness, general))
    refused = await harness.click(dan, standings_card(harness, general), label="Join")
    assert "already" in refused.text

    left = await harness.click(ben, standings_card(harness, general), label="Leave")
    assert left.ephemeral and "✅" in left.text, left.text
    assert "Entrants (2): cat, dan" in card_text(standings_card(harness, general))
    not_in = await harness.click(ben, standings_card(harness, general), label="Leave")
    assert "not (or no longer) in" in not_in.text
    assert await entrant_ids(harness, number) == [cat.id, dan.id]
    assert standings_card(harness, general).id == card.id  # one card, edited in place

    # The start takes the buttons off; a click from an old copy of the card changes nothing.
    join_id, leave_id = (str(button(card, label)["custom_id"]) for label in ("Join", "Leave"))
    clock.advance(hours=1, minutes=1)
    await runner(harness).sweep()
    await harness.settle()
    assert standings_card(harness, general).buttons() == []
    copy = await forged(harness, general, join_id, leave_id)
    late = await harness.click(ben, copy, label="b0")
    assert late.ephemeral and "sign-up is closed" in late.text, late.text
    stay = await harness.click(cat, copy, label="b1")
    assert stay.ephemeral and "has started" in stay.text and "/pyramid tournament withdraw" in stay.text, stay.text
    assert await entrant_ids(harness, number) == [cat.id, dan.id]
    assert (await runner(harness).store.get(number)).status == "running"  # type: ignore[union-attr]
    harness.assert_no_bot_errors()


async def test_forged_and_malformed_clicks_are_answered_and_change_nothing(emulator: Any, harness: Harness) -> None:
    ana, ben = [await harness.add_user(name) for name in ("ana", "ben")]
    elsewhere = await harness.add_guild("elsewhere")
    eve = await harness.add_user("eve", guild=elsewhere)
    await harness.start_bot()
    general = emulator.general
    ours = await open_cup(harness, general, ana)
    theirs = await open_cup(harness, harness.channel("general", guild=elsewhere), eve, name="Far Cup")
    card = standings_card(harness, general)
    assert str(button(card, "Join")["custom_id"]) == f"pb:tjoin:{ours}:0"

    copy = await forged(harness, general, f"pb:tjoin:{theirs}:0", "pb:tjoin:999:0", f"pb:tjoin:{ours}:0:extra",
                        f"pb:tjoin:{ours}:7", f"pb:tleave:{theirs}:0")
    said = [await harness.click(ben, copy, label=f"b{n}") for n in range(5)]
    assert f"no tournament #{theirs}" in said[0].text, said[0].text
    assert "no tournament #999" in said[1].text, said[1].text
    for res in said[2:4]:
        assert "not one I recognise" in res.text, res.text
    assert f"no tournament #{theirs}" in said[4].text, said[4].text
    assert all(r.ephemeral and "❌" in r.text for r in said)
    assert await entrant_ids(harness, ours) == [] and await entrant_ids(harness, theirs) == []
    assert "Entrants (0)" in card_text(standings_card(harness, general))
    harness.assert_no_bot_errors()


async def test_a_full_tournament_refuses_the_next_click_in_german(emulator: Any, harness: Harness) -> None:
    ana, ben, cat = [await harness.add_user(name) for name in ("ana", "ben", "cat")]
    kai = await harness.add_user("kai", locale="de")
    await harness.start_bot()
    general = emulator.general
    runner(harness).most_entrants = 2
    number = await open_cup(harness, general, ana)
    for user in (ben, cat):
        assert "✅" in (await harness.click(user, standings_card(harness, general), label="Join")).text
    full = await harness.click(kai, standings_card(harness, general), label="Join")
    assert full.ephemeral and "❌" in full.text and "voll" in full.text, full.text
    by_command = await harness.slash(ana, general, "pyramid tournament join")
    assert "is full" in by_command.text, by_command.text
    assert await entrant_ids(harness, number) == [ben.id, cat.id]
    left = await harness.click(kai, standings_card(harness, general), label="Leave")
    assert "nicht" in left.text, left.text  # the clicker's language
    harness.assert_no_bot_errors()
