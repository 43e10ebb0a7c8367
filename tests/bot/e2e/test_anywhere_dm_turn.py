"""Play anywhere (#27): in a game without hands (so no hand DM says whose turn it is), a move the bot
makes on its own in a group DM (an AI that took over a timed-out seat) is told to the player then to
act by DM, with a link to the card, and shows on the card at the next click. The test's fifth game,
presented without hands, is such a game for two."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot.games.catalogue import Catalogue
from emulator.harness import Harness
from tests.bot.e2e.driver import HEADER, card_text, group_dm_game, session_of
from tests.fifth_game.engine import GAME_ID
from tests.fifth_game.presenter import PRESENTER


@pytest.fixture
def catalogue() -> Catalogue:
    return Catalogue.default().with_games(dataclasses.replace(PRESENTER, has_hand=False))


async def test_a_move_made_without_a_click_is_told_by_dm(emulator: Any, harness: Harness, clock: Any) -> None:
    table = await group_dm_game(harness, GAME_ID)
    ana, ben, gdm, lobby, game_id = table.ana, table.ben, table.channel, table.card, table.game_id
    session = await session_of(harness, game_id)
    users = {0: ana, 1: ben}
    other = users[1 - session.to_act]
    before = len(harness.dm(other))
    clock.advance(hours=73)  # the idle player's bank runs out: a normal AI takes the seat and moves
    assert f"timeout:{game_id}:ai" in await harness.bot.client.host.reminders.sweep()
    await harness.settle()
    after = await session_of(harness, game_id)
    assert after.version > session.version and not after.over and users.get(after.to_act) is other
    told = [m.text for m in harness.dm(other)[before:]]
    assert any(f"It's your turn in game #{game_id}" in t and f"/@me/{gdm.id}/{lobby.id}" in t for t in told), told
    assert [m.id for m in harness.messages(gdm) if not m.ephemeral] == [lobby.id], "nothing posted on its own"
    await harness.click(other, harness.message(lobby.id), label="🔄 Latest board")
    shown = HEADER.search(card_text(harness.message(lobby.id)))
    assert shown is not None and int(shown.group(2)) == after.version
    assert [r.path for r in emulator.requests if f"/channels/{gdm.id}" in r.path] == []
