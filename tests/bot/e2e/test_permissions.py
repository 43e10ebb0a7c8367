"""#15: the bot says up front, and on request, which permissions a channel lacks."""

from __future__ import annotations

from typing import Any

from emulator.harness import Harness


async def test_new_game_refused_without_send_messages_in_threads(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    await harness.set_bot_permission(emulator.general, "send_messages_in_threads", False)
    refused = await harness.slash(ana, emulator.general, "pyramid new", game="flaming-pyramids")
    assert refused.ephemeral and "Send Messages in Threads" in refused.text
    assert "Create Public Threads" not in refused.text  # only what is really missing is named
    assert await harness.bot.services.store.all_games() == []

    check = await harness.slash(ana, emulator.general, "pyramid-admin check")
    lines = check.text.splitlines()
    assert any(line.startswith("❌") and "Send Messages in Threads" in line for line in lines)
    assert any(line.startswith("✅") and "Attach Files" in line for line in lines)
    assert "can't be played here" in check.text

    await harness.set_bot_permission(emulator.general, "send_messages_in_threads", None)
    fixed = await harness.slash(ana, emulator.general, "pyramid-admin check")
    assert "Everything is in place" in fixed.text and "❌" not in fixed.text
    opened = await harness.slash(ana, emulator.general, "pyramid new", game="flaming-pyramids")
    assert opened.message is not None and not opened.ephemeral


async def test_playing_in_the_channel_needs_attach_files_there(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    await harness.slash(ana, emulator.general, "pyramid-admin settings", threads=False)
    await harness.set_bot_permission(emulator.general, "attach_files", False)
    refused = await harness.slash(ana, emulator.general, "pyramid new", game="continuous-pyramid")
    assert "Attach Files" in refused.text and "board pictures" in refused.text
    check = await harness.slash(ana, emulator.general, "pyramid-admin check")
    assert "games in the channel itself" in check.text
    assert "Send Messages in Threads" not in check.text  # not needed when games play in the channel


async def test_embed_links_is_not_asked_for_now_that_every_message_is_a_card(emulator: Any, harness: Harness) -> None:
    """Cards (Components V2) are not embeds: Discord drops embeds without Embed Links, never a
    card, so the check must not send admins after a permission nothing uses."""
    ana = await harness.add_user("ana")
    await harness.start_bot()
    await harness.set_bot_permission(emulator.general, "embed_links", False)
    check = await harness.slash(ana, emulator.general, "pyramid-admin check")
    assert "Embed Links" not in check.text and "⚠️" not in check.text
    opened = await harness.slash(ana, emulator.general, "pyramid new", game="continuous-pyramid")
    assert opened.message is not None or not opened.ephemeral
    await harness.settle()
    games = await harness.bot.services.store.all_games()
    assert len(games) == 1
    boards = [m for ch in emulator.world.channels.values() for m in harness.messages(ch)
              if m.is_card and m.png_attachments()]
    assert boards, "the solo game's board card was posted without Embed Links"
