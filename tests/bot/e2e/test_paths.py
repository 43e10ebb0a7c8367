"""The awkward paths of real use: foreign, stale, double and malformed clicks,
restarts, closed DMs, autocomplete, reminders and timeouts, server settings."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from bot.games.picker import node_at
from emulator.harness import Harness
from emulator.interactions import CommandUnavailable
from tests.bot.clock import FakeClock
from tests.bot.e2e.driver import flaming_game_of, latest_game_id, session_of

MANAGE_GUILD = 1 << 5


def current_board(harness: Harness, thread: Any) -> Any:
    return [m for m in harness.messages(thread) if m.png_attachments()][-1]


async def test_foreign_stale_and_double_clicks(emulator: Any, harness: Harness) -> None:
    (alice, bob), thread, game_id = await flaming_game_of(emulator, harness, "alice", "bob")
    carol = await harness.add_user("carol")
    session = await session_of(harness, game_id)
    users = {0: alice, 1: bob}
    actor, waiter = users[session.to_act], users[1 - session.to_act]
    board = current_board(harness, thread)

    outsider = await harness.click(carol, board, label="▶ Your move")
    assert outsider.ephemeral and "not playing" in outsider.text
    early = await harness.click(waiter, board, label="▶ Your move")
    assert early.ephemeral and "not your turn" in early.text
    assert (await session_of(harness, game_id)).version == 0

    # The actor opens the picker and double-clicks the last step: one move is made.
    step = (await harness.click(actor, board, label="▶ Your move")).message
    while True:
        buttons = [b for b in step.buttons() if "Back" not in (b.get("label") or "")]
        preview = await session_of(harness, game_id)
        path = buttons[0]["custom_id"].split(":", 4)[4].split()
        node = node_at(preview.game.legal_moves(preview.state), path)
        if node.complete is not None and not node.choices:
            clicks = [harness.click(actor, step, custom_id=buttons[0]["custom_id"], settle=False,
                                    check=False) for _ in range(2)]
            await asyncio.gather(*clicks)
            break
        step = (await harness.click(actor, step, custom_id=buttons[0]["custom_id"])).message
    await harness.settle()
    after = await session_of(harness, game_id)
    assert after.version == 1
    assert len(await harness.bot.services.store.moves(game_id)) == 1

    # The superseded board keeps its buttons (no edit spent on it): a click there is told it is out of date.
    stale = await harness.click(actor, board, label="▶ Your move")
    assert stale.ephemeral and "out of date" in stale.text
    assert len(await harness.bot.services.store.moves(game_id)) == 1


async def test_a_picker_opened_before_a_move_is_stale_after_it(emulator: Any, harness: Harness) -> None:
    (alice, bob), thread, game_id = await flaming_game_of(emulator, harness, "alice", "bob")
    session = await session_of(harness, game_id)
    actor = {0: alice, 1: bob}[session.to_act]
    picker = (await harness.click(actor, current_board(harness, thread), label="▶ Your move")).message
    assert picker is not None and picker.buttons()
    await harness.slash(actor, thread, "pyramid play", move=session.game.legal_moves(session.state)[0])
    assert (await session_of(harness, game_id)).version == 1
    stale = await harness.click(actor, picker, custom_id=picker.buttons()[0]["custom_id"])
    answer = stale.last  # the chooser's click is acknowledged first (a silent update): the answer follows it
    assert answer.ephemeral and "out of date" in answer.text
    assert answer.attachments, "a stale click is answered with the current board"
    assert (await session_of(harness, game_id)).version == 1


async def test_restart_mid_game_keeps_old_buttons_working(emulator: Any, harness: Harness) -> None:
    (alice, bob), thread, game_id = await flaming_game_of(emulator, harness, "alice", "bob")
    board = current_board(harness, thread)
    before = await session_of(harness, game_id)
    await harness.restart_bot()
    session = await session_of(harness, game_id)
    assert session.game.to_position(session.state) == before.game.to_position(before.state)
    actor = {0: alice, 1: bob}[session.to_act]
    picker = await harness.click(actor, board, label="▶ Your move")
    assert picker.ephemeral and picker.message is not None and picker.message.buttons()
    # No duplicate board was posted by the restart: the move log and the channel agree.
    assert current_board(harness, thread).id == board.id


async def test_restart_between_move_and_announcement_posts_the_board(emulator: Any, harness: Harness) -> None:
    _, thread, game_id = await flaming_game_of(emulator, harness, "alice", "bob")
    session = await session_of(harness, game_id)
    seat = session.to_act
    move = session.game.legal_moves(session.state)[0]
    # A move written to the log but never shown (the bot died right after writing it).
    await harness.bot.services.sessions.make_move(game_id, move, user_id=None, seat=seat)
    boards_before = len([m for m in harness.messages(thread) if m.png_attachments()])
    await harness.restart_bot()
    await harness.settle()
    boards = [m for m in harness.messages(thread) if m.png_attachments()]
    assert len(boards) == boards_before + 1
    assert "move 1" in boards[-1].text


async def test_closed_dms_are_noticed_once_and_hands_come_ephemeral(emulator: Any, harness: Harness) -> None:
    alice = await harness.add_user("alice", dms_open=False)
    bob = await harness.add_user("bob")
    await harness.start_bot()
    res = await harness.slash(alice, emulator.general, "pyramid new", game="flaming-pyramids", turn_limit=6)
    await harness.click(bob, res.message, label="Join")
    await harness.click(alice, res.message, label="Start")
    thread = harness.threads(emulator.general)[0]
    game_id = await latest_game_id(harness)
    notices = [m for m in harness.messages(thread) if "can't send you direct messages" in m.text]
    session = await session_of(harness, game_id)
    if session.to_act == 0:
        assert len(notices) == 1
    hand = await harness.click(alice, current_board(harness, thread), label="🂠 My hand")
    assert hand.ephemeral and hand.attachments
    # Play a few moves: the notice is not repeated.
    for _ in range(4):
        session = await session_of(harness, game_id)
        if session.result is not None:
            break
        user = {0: alice, 1: bob}[session.to_act]
        move = session.game.legal_moves(session.state)[0]
        await harness.slash(user, thread, "pyramid play", move=move)
    notices = [m for m in harness.messages(thread) if "can't send you direct messages" in m.text]
    assert len(notices) <= 1


async def test_autocomplete_offers_legal_moves_to_the_player_to_act(emulator: Any, harness: Harness) -> None:
    (alice, bob), thread, game_id = await flaming_game_of(emulator, harness, "alice", "bob")
    session = await session_of(harness, game_id)
    legal = session.game.legal_moves(session.state)
    actor, waiter = ({0: alice, 1: bob}[session.to_act], {0: alice, 1: bob}[1 - session.to_act])
    choices = await harness.autocomplete(actor, thread, "pyramid play", "move", "")
    values = [c["value"] for c in choices]
    assert values and set(values) <= set(legal) and len(values) == min(25, len(legal))
    tile = legal[0].split()[1]
    narrowed = [c["value"] for c in await harness.autocomplete(actor, thread, "pyramid play", "move", tile)]
    assert narrowed and all(tile in v for v in narrowed)
    assert await harness.autocomplete(waiter, thread, "pyramid play", "move", "") == []
    bad = await harness.slash(actor, thread, "pyramid play", move="play Z999 9,9")
    assert bad.ephemeral and "❌" in bad.text
    assert (await session_of(harness, game_id)).version == 0


async def test_reminder_then_timeout_hands_the_seat_to_an_ai(
    emulator: Any, harness: Harness, clock: FakeClock
) -> None:
    _, thread, game_id = await flaming_game_of(emulator, harness, "alice", "bob", turn_limit=3)
    sweep = harness.bot.client.host.reminders.sweep
    assert await sweep() == []
    clock.advance(hours=25)
    done = await sweep()
    assert done == [f"reminder:{game_id}"]
    assert "it's your turn" in harness.messages(thread)[-1].text
    assert await sweep() == []  # reminded once per move
    clock.advance(hours=48)
    done = await sweep()
    assert done == [f"timeout:{game_id}:ai"]
    await harness.settle()
    session = await session_of(harness, game_id)
    assert session.version >= 1, "the AI that took the seat did not move"
    assert any("a normal AI takes their seat" in m.text for m in harness.messages(thread))


async def test_settings_are_for_admins_and_switch_threads_off(emulator: Any, harness: Harness) -> None:
    admin = await harness.add_user("admin")
    pleb = await harness.add_user("pleb", permissions=(1 << 40) - 1 - MANAGE_GUILD - (1 << 3))
    await harness.start_bot()
    # default_member_permissions (Manage Server) hides the command from pleb: Discord never delivers it
    with pytest.raises(CommandUnavailable, match="default_member_permissions"):
        await harness.slash(pleb, emulator.general, "pyramid-admin settings", threads=False)
    shown = await harness.slash(admin, emulator.general, "pyramid-admin settings", threads=False, reminder_hours=2.0,
                                timeout_hours=6.0, on_timeout="forfeit")
    assert "Saved" in shown.text and "in the channel" in shown.text
    bad = await harness.slash(admin, emulator.general, "pyramid-admin settings", reminder_hours=10.0)
    assert "must come before" in bad.text
    res = await harness.slash(admin, emulator.general, "pyramid new", game="flaming-pyramids", turn_limit=4)
    await harness.click(pleb, res.message, label="Join")
    await harness.click(admin, res.message, label="Start")
    assert harness.threads(emulator.general) == []
    assert any(m.png_attachments() for m in harness.messages(emulator.general))


async def test_forfeit_on_timeout_ends_a_two_player_game(
    emulator: Any, harness: Harness, clock: FakeClock
) -> None:
    (alice, _bob), _thread, game_id = await flaming_game_of(emulator, harness, "alice", "bob")
    await harness.slash(alice, emulator.general, "pyramid-admin settings", on_timeout="forfeit")
    clock.advance(hours=100)
    done = await harness.bot.client.host.reminders.sweep()
    assert done == [f"timeout:{game_id}:forfeit"]
    record = await harness.bot.services.store.game_record(game_id)
    assert record is not None and record.status == "finished"
    assert record.result is not None and len(record.result["winners"]) == 1


async def test_malformed_custom_ids_get_a_friendly_answer(emulator: Any, harness: Harness) -> None:
    alice = await harness.add_user("alice")
    await harness.start_bot()
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="junk", custom_id="pb:explode:1:2"))
    view.add_item(discord.ui.Button(label="alien", custom_id="something-else"))
    view.add_item(discord.ui.Button(label="gone", custom_id="pb:turn:999:0"))
    channel = harness.bot.client.get_partial_messageable(emulator.general.id)
    await channel.send("test buttons", view=view)
    message = harness.messages(emulator.general)[-1]
    for label in ("junk", "alien"):
        res = await harness.click(alice, message, label=label)
        assert res.ephemeral and "not one I recognise" in res.text
    gone = await harness.click(alice, message, label="gone")
    assert gone.ephemeral and "no longer exists" in gone.text


async def test_resign_and_games_and_history(emulator: Any, harness: Harness) -> None:
    (alice, bob), thread, game_id = await flaming_game_of(emulator, harness, "alice", "bob")
    listing = await harness.slash(alice, emulator.general, "pyramid games")
    assert f"#{game_id}" in listing.text
    session = await session_of(harness, game_id)
    user = {0: alice, 1: bob}[session.to_act]
    await harness.slash(user, thread, "pyramid play", move=session.game.legal_moves(session.state)[0])
    history = await harness.slash(alice, thread, "pyramid history")
    assert "1." in history.text and history.attachments
    record = await harness.fetch_attachment(history.attachments[0])
    assert b'"seed": null' in record  # no seed while the game runs: it would reveal the hands
    resigned = await harness.slash(bob, thread, "pyramid resign")
    assert "resigned" in resigned.text
    final = await harness.bot.services.store.game_record(game_id)
    assert final is not None and final.status == "finished" and final.result["winners"] == [0]
    # what follows a game's end runs from the outbox after a resignation too, durably: its row is done
    finish = await harness.bot.services.db.read_all(
        "SELECT version, done_at FROM outbox WHERE game_id = ? AND kind = 'finish'", (game_id,))
    assert [(row[0], row[1] is not None) for row in finish] == [(1, True)]


async def test_status_hand_rules_and_leaderboard(emulator: Any, harness: Harness) -> None:
    (alice, bob), thread, game_id = await flaming_game_of(emulator, harness, "alice", "bob", turn_limit=2)
    status = await harness.slash(bob, thread, "pyramid status")
    assert status.ephemeral and status.attachments and f"#{game_id}" in status.text
    hand = await harness.slash(alice, thread, "pyramid hand")
    assert hand.ephemeral and hand.attachments
    rules = await harness.slash(alice, thread, "pyramid rules", game="pyrinoes")
    assert rules.ephemeral and rules.is_card and "Pyrinoes" in rules.text_displays()[0]
    nothing = await harness.slash(alice, emulator.general, "pyramid leaderboard")
    assert "No finished games" in nothing.text
    session = await session_of(harness, game_id)
    while session.result is None:
        user = {0: alice, 1: bob}[session.to_act]
        await harness.slash(user, thread, "pyramid play", move=session.game.legal_moves(session.state)[0])
        session = await session_of(harness, game_id)
    board = await harness.slash(alice, emulator.general, "pyramid leaderboard")
    assert "Wins in this server" in board.text and "of 1" in board.text
    outsider = await harness.add_user("carol")
    none = await harness.slash(outsider, emulator.general, "pyramid hand")
    assert "no game running" in none.text
