"""A fifth game, defined entirely in ``tests/``, played from ``/pyramid new`` to its
result through the emulator: the proof that the extension points are real (#17).

Pebble Pyramid is registered in four places, all in ``tests/``: its rule book
(``tests/fifth_game/engine.py``), its pictures (``tests/fifth_game/art.py``), its
presenter (``tests/fifth_game/presenter.py``) and the catalogue this module hands
the bot (the ``catalogue`` fixture below). Nothing in ``engine/``, ``render/`` or
``bot/`` names it.
"""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from PIL import Image

from bot.games.catalogue import Catalogue
from emulator.harness import Harness
from emulator.model import Message
from tests.bot.e2e.driver import bot_of, latest_game_id, play_out, session_of
from tests.bot.e2e.test_hardening_input import forged_slash, subcommand
from tests.fifth_game.art import WIDTH
from tests.fifth_game.engine import GAME_ID
from tests.fifth_game.presenter import PRESENTER

PRIVATE_DRAW = re.compile(r"drew an? (red|green|blue) token")


@pytest.fixture
def catalogue() -> Catalogue:
    return Catalogue.default().with_games(PRESENTER)


def boards(harness: Harness, channel: Any) -> list[Any]:
    return [m for m in harness.messages(channel) if m.png_attachments()]


async def wait_for_human(harness: Harness, game_id: int, humans: dict[int, Any]) -> Any:
    """The session once a human is to act (AI seats move by themselves)."""
    for _ in range(50):
        session = await session_of(harness, game_id)
        if session.over or session.to_act in humans:
            return session
        await harness.settle()
    raise AssertionError("the AI seat did not move")


async def test_pebble_pyramid_is_offered_with_its_own_options(emulator: Any, harness: Harness) -> None:
    """``/pyramid new`` is built from the catalogue: the game is a choice, its option
    is bounded as its options model says, and forged or foreign options are refused."""
    ana = await harness.add_user("ana")
    await harness.start_bot()
    new = subcommand(emulator, "pyramid new")
    options = {o["name"]: o for o in new["options"]}
    assert {"name": "Pebble Pyramid", "value": GAME_ID} in options["game"]["choices"]
    tokens = options["tokens_per_colour"]
    assert (tokens.get("min_value"), tokens.get("max_value")) == (3, 6)
    assert tokens["description"].startswith("Pebble Pyramid: ")
    forged = await forged_slash(harness, ana, emulator.general, "pyramid new",
                                {"game": GAME_ID, "tokens_per_colour": 9})
    assert "❌" in forged.text and "`tokens_per_colour` must be from 3 to 6" in forged.text  # the option check (#26)
    wrong = await harness.slash(ana, emulator.general, "pyramid new", game=GAME_ID, curse=True)
    assert "❌" in wrong.text and "no option curse" in wrong.text
    assert await bot_of(harness).services.store.all_games() == []


async def test_two_people_play_pebble_pyramid_by_buttons_and_typed_moves(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    ben = await harness.add_user("ben")
    await harness.start_bot()
    general = emulator.general

    rules = await harness.slash(ana, general, "pyramid rules", game=GAME_ID)
    assert "dismantle a pyramid" in rules.text

    res = await harness.slash(ana, general, "pyramid new", game=GAME_ID, tokens_per_colour=3)
    lobby = res.message
    assert lobby is not None and "Pebble Pyramid" in lobby.text
    await harness.click(ben, lobby, label="Join")
    await harness.click(ana, lobby, label="Start")
    game_id = await latest_game_id(harness)
    session = await session_of(harness, game_id)
    assert session.record.kind == GAME_ID and session.record.status == "active"
    assert session.state.tokens_per_colour == 3, "the lobby option reached the rule book"

    thread = harness.threads(general)[0]
    first = boards(harness, thread)
    assert first
    with Image.open(io.BytesIO(first[-1].png_attachments()[0].data)) as picture:
        assert picture.format == "PNG" and picture.width == WIDTH, "the fifth game's own Art drew the board"
    assert "Pebble Pyramid" in first[-1].text
    users = {0: ana, 1: ben}
    actor = users[session.to_act]
    hand_dms = [m for m in harness.dm(actor) if m.png_attachments()]
    assert hand_dms, "the player to act gets their tokens by DM, as a picture"

    # Autocomplete offers the game's own legal moves to the player to act, and nothing to the other.
    offered = await harness.autocomplete(actor, thread, "pyramid play", "move", "", game=game_id)
    legal = session.game.legal_moves(session.state)
    assert [c["value"] for c in offered] == legal[:25]
    takes = await harness.autocomplete(actor, thread, "pyramid play", "move", "take", game=game_id)
    assert takes and all(c["value"].startswith("take ") for c in takes)
    other = users[1 - session.to_act]
    assert await harness.autocomplete(other, thread, "pyramid play", "move", "", game=game_id) == []

    # A typed move takes the top stone, which frees the two below it.
    move = legal[0]
    assert move.startswith("take ") and move.endswith(" 3,0")
    typed = await harness.slash(actor, thread, "pyramid play", move=move, game=game_id)
    assert "✅" in typed.text, typed.text
    session = await session_of(harness, game_id)
    assert session.state.stone_at("3,0") is None

    # The next move through the board's button and the private picker: verb, token,
    # then a stone lettered as on the board picture.
    actor = users[session.to_act]
    assert any(m.png_attachments() for m in harness.dm(actor)), "the next player's tokens came by DM too"
    picker = await harness.click(actor, boards(harness, thread)[-1], label="▶ Your move")
    assert picker.ephemeral and picker.message is not None
    assert "Spend a token" in picker.message.button_labels
    version = session.version
    step: Message | None = picker.message
    labels_seen: list[str] = []
    while step is not None and step.buttons() and session.version == version:
        labels_seen.extend(step.button_labels)
        target = next(b for b in step.buttons() if "Back" not in (b.get("label") or ""))
        result = await harness.click(actor, step, custom_id=target["custom_id"])
        step = result.message
        session = await session_of(harness, game_id)
    assert session.version == version + 1, "clicking through the picker did not make a move"
    assert {"Spot A", "Spot B"} <= set(labels_seen), labels_seen  # the picture's letters, no notation (#43)

    # The rest typed, with the first move autocomplete offers, until the result.
    final = await play_out(harness, game_id, users, thread)
    assert final.result is not None and final.record.status == "finished"
    last = boards(harness, thread)[-1]
    assert "Game over" in last.text and [b["label"] for b in last.buttons()] == ["🔁 Rematch", "🔐 Fair deal"]
    assert not any(PRIVATE_DRAW.search(m.text) for m in harness.messages(thread)), "a private draw leaked"
    harness.assert_no_bot_errors()


async def test_pebble_pyramid_against_an_ai_seat(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    lobby = (await harness.slash(ana, emulator.general, "pyramid new", game=GAME_ID)).message
    assert lobby is not None
    await harness.select(ana, lobby, None, ["normal"])
    await harness.click(ana, lobby, label="Start")
    game_id = await latest_game_id(harness)
    seats = await bot_of(harness).services.store.seats(game_id)
    assert [(s.user_id is not None, s.ai_level) for s in seats] == [(True, None), (False, "normal")]
    thread = harness.threads(emulator.general)[0]
    session = await wait_for_human(harness, game_id, {0: ana})
    assert session.state.tokens_per_colour == 4, "an option left out takes the game's default"
    assert boards(harness, thread), "the board picture is posted in the game's thread"

    hand = await harness.click(ana, boards(harness, thread)[-1], label="🂠 My hand")
    assert hand.ephemeral and any(a.is_png for a in hand.attachments), "the hand is a private picture"

    final = await play_out(harness, game_id, {0: ana}, thread)
    assert final.result is not None and final.record.status == "finished"
    moves = await bot_of(harness).services.store.moves(game_id)
    assert {m.seat for m in moves} == {0, 1}, "the AI seat moved by itself"
    assert all(m.actor_id is None for m in moves if m.seat == 1)
    assert "Game over" in boards(harness, thread)[-1].text
    harness.assert_no_bot_errors()
