"""A game the bot does not ship, given to it in its catalogue, is a game like the
others: a ``game:`` choice of ``/pyramid new`` with its own options (bounded as its
options model says, forged values refused), its rules, and a whole game played
through the board's buttons and typed moves."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games.catalogue import Catalogue
from emulator.harness import Harness
from tests.bot.e2e.driver import latest_game_id, play_out, session_of
from tests.bot.e2e.test_hardening_input import forged_slash, subcommand
from tests.fifth_game.presenter import PRESENTER


@pytest.fixture
def catalogue() -> Catalogue:
    return Catalogue.default().with_games(PRESENTER)


async def test_a_game_given_in_the_catalogue_is_offered_and_played(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    ben = await harness.add_user("ben")
    await harness.start_bot()
    new = subcommand(emulator, "pyramid new")
    options = {o["name"]: o for o in new["options"]}
    assert {"name": "Pebble Pyramid", "value": PRESENTER.kind} in options["game"]["choices"]
    tokens = options["tokens_per_colour"]
    assert (tokens.get("min_value"), tokens.get("max_value")) == (3, 6)
    assert tokens["description"].startswith("Pebble Pyramid: ")
    rules = await harness.slash(ana, emulator.general, "pyramid rules", game=PRESENTER.kind)
    assert rules.embeds and "Pebble Pyramid" in rules.embeds[0]["title"]
    forged = await forged_slash(harness, ana, emulator.general, "pyramid new",
                                {"game": PRESENTER.kind, "tokens_per_colour": 9})
    assert "❌" in forged.text and "tokens_per_colour must be from 3 to 6" in forged.text
    wrong = await harness.slash(ana, emulator.general, "pyramid new", game=PRESENTER.kind, curse=True)
    assert "❌" in wrong.text and "no option curse" in wrong.text

    lobby = (await harness.slash(ana, emulator.general, "pyramid new", game=PRESENTER.kind,
                                 tokens_per_colour=3)).message
    assert lobby is not None
    await harness.click(ben, lobby, label="Join")
    await harness.click(ana, lobby, label="Start")
    game_id = await latest_game_id(harness)
    thread = harness.threads(emulator.general)[0]
    board = [m for m in harness.messages(thread) if m.png_attachments()][-1]
    assert "Pebble Pyramid" in board.text
    users = {0: ana, 1: ben}
    session = await session_of(harness, game_id)
    chooser = await harness.click(users[session.to_act], board, label="▶ Your move")
    assert chooser.ephemeral and chooser.message is not None and chooser.message.buttons()
    hand = await harness.click(ana, board, label="🂠 My hand")
    assert hand.ephemeral and hand.attachments
    final = await play_out(harness, game_id, users, thread)
    assert final.record.status == "finished" and final.record.result is not None
