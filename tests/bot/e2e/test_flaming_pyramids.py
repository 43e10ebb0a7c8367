"""Flaming Pyramids from /pyramid new to the result, purely through the emulator."""

from __future__ import annotations

from typing import Any

import pytest

from emulator.harness import Harness
from tests.bot.e2e.driver import latest_game_id, play_out, session_of


async def test_lobby_to_result_with_buttons_dms_and_typed_moves(emulator: Any, harness: Harness) -> None:
    alice = await harness.add_user("alice")
    bob = await harness.add_user("bob")
    await harness.start_bot()
    general = emulator.general

    res = await harness.slash(alice, general, "pyramid new", game="flaming-pyramids", curse=True, turn_limit=8)
    lobby = res.message
    assert lobby is not None and "Flaming Pyramids" in lobby.text
    assert {"Join", "Leave", "Start", "Cancel"} <= set(lobby.button_labels)

    # Starting alone is refused with a reason; bob joins; an AI is added.
    early = await harness.click(alice, lobby, label="Start")
    assert early.ephemeral and "at least 2 players" in early.text
    await harness.click(bob, lobby, label="Join")
    await harness.select(alice, lobby, None, ["easy"])
    game_id = await latest_game_id(harness)
    seats = await harness.bot.services.store.seats(game_id)
    assert [(s.user_id is not None, s.ai_level) for s in seats] == [(True, None), (True, None), (False, "easy")]

    await harness.click(alice, lobby, label="Start")
    threads = harness.threads(general)
    assert len(threads) == 1
    thread = threads[0]
    boards = [m for m in harness.messages(thread) if m.png_attachments()]
    assert boards, "the first board was not posted in the game's thread"
    assert boards[-1].png_attachments()[0].data[:8] == b"\x89PNG\r\n\x1a\n"

    # Hands arrive by DM as pictures, and are never in the channel.
    session = await session_of(harness, game_id)
    users = {0: alice, 1: bob}
    for seat, user in users.items():
        view = session.game.view(session.state, seat)
        dms = harness.dm(user)
        if session.to_act == seat or any(m.png_attachments() for m in dms):
            assert any(m.png_attachments() for m in dms)
        for tile in view["hands"][seat]:
            assert all(tile not in m.text for m in harness.messages(thread))

    # The player to act uses the board's "Your move" button and the private picker.
    session = await session_of(harness, game_id)
    while session.to_act not in users:  # the AI moves by itself
        await harness.settle()
        session = await session_of(harness, game_id)
    actor = users[session.to_act]
    board = [m for m in harness.messages(thread) if m.png_attachments()][-1]
    picker = await harness.click(actor, board, label="▶ Your move")
    assert picker.ephemeral
    version = session.version
    step = picker.message
    while step is not None and step.buttons() and session.version == version:
        target = next(b for b in step.buttons() if "Back" not in (b.get("label") or ""))
        result = await harness.click(actor, step, custom_id=target["custom_id"])
        step = result.message
        session = await session_of(harness, game_id)
    assert session.version > version, "clicking through the picker did not make a move"

    final = await play_out(harness, game_id, users, thread)
    assert final.result is not None
    last = [m for m in harness.messages(thread) if m.png_attachments()][-1]  # the final board (a replay GIF follows)
    assert "Game over" in last.text
    assert [b["label"] for b in last.buttons()] == ["🔁 Rematch", "🔐 Fair deal"]  # the final card's only
    # Superseded boards keep their buttons (no edit spent on them); a click there changes nothing.
    older = [m for m in harness.messages(thread) if m.png_attachments()
             and any(b.get("label") == "🔄 Latest board" for b in m.buttons())]
    stale = await harness.click(actor, older[-1], label="🔄 Latest board")
    assert stale.ephemeral and "Game over" in stale.text
    assert (await session_of(harness, game_id)).version == final.version


@pytest.mark.slow
async def test_a_natural_game_to_the_last_tile(emulator: Any, harness: Harness) -> None:
    alice = await harness.add_user("alice")
    await harness.start_bot()
    res = await harness.slash(alice, emulator.general, "pyramid new", game="flaming-pyramids")
    await harness.select(alice, res.message, None, ["easy"])
    await harness.click(alice, res.message, label="Start")
    game_id = await latest_game_id(harness)
    thread = harness.threads(emulator.general)[0]
    final = await play_out(harness, game_id, {0: alice}, thread)
    assert final.result is not None and final.game.to_position(final.state)["turn"] is not None
