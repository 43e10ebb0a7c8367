"""What the strict emulator demands of the bot's replies: deferred "thinking" responses completed by editing them
(never by a follow-up, Discord's deprecated path), public announcements where the channel sees them, and an admin
command that Discord itself hides from members who may not use it."""

from __future__ import annotations

from typing import Any

import pytest

from emulator.harness import Harness
from emulator.interactions import CommandUnavailable
from tests.bot.e2e.driver import challenge_of, latest_game_id

MANAGE_GUILD = 1 << 5


async def test_a_solo_start_completes_its_public_deferred_response(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    res = await harness.slash(ana, emulator.general, "pyramid new", game="continuous-pyramid", undo=False)
    assert res.response_type == 5 and res.message is not None
    assert not res.message.loading and not res.ephemeral  # the "thinking" message itself became the notice
    assert "started" in res.text and res.followups == []
    assert res.message in harness.messages(emulator.general)


async def test_a_challenge_start_is_told_only_to_the_entrant(emulator: Any, harness: Harness) -> None:
    """An entrant's game is theirs alone until the challenge closes (#25): nobody else is
    told where it is played."""
    (ana, ben), post = await challenge_of(emulator, harness, "ana", "ben")
    joined = await harness.click(ben, post, label="▶ Play this deal")
    game_id = await latest_game_id(harness)
    # the clicker's deferred reply stays private (its visibility was fixed when it was deferred)...
    assert joined.message is not None and not joined.message.loading
    assert joined.ephemeral and f"#{game_id}" in joined.text
    # ...and nothing is posted for the channel
    assert joined.followups == []
    assert not any(f"Game #{game_id}" in m.text for m in harness.visible_messages(ana, emulator.general))


async def test_private_deferred_answers_are_edits_of_the_original(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    await harness.slash(ana, emulator.general, "pyramid new", game="continuous-pyramid", undo=False)
    thread = harness.threads(emulator.general)[0]
    for command in ("pyramid status", "pyramid history", "pyramid games", "pyramid leaderboard"):
        res = await harness.slash(ana, thread, command)
        assert res.response_type == 5 and res.ephemeral and res.message is not None, command
        assert not res.message.loading and res.followups == [], command
    history = await harness.slash(ana, thread, "pyramid history")
    assert history.attachments and history.attachments[0].filename.endswith(".json")  # a file in the edit


async def test_settings_are_a_top_level_command_hidden_from_members(emulator: Any, harness: Harness) -> None:
    admin = await harness.add_user("admin")
    member = await harness.add_user("member", permissions=0)
    await harness.start_bot()
    registered = {c.name: c.raw for c in emulator.world.commands.values()}
    assert set(registered) == {"pyramid", "pyramid-admin"}
    assert int(registered["pyramid-admin"]["default_member_permissions"]) == MANAGE_GUILD
    assert registered["pyramid"]["default_member_permissions"] is None
    # /pyramid settings is each player's own (language, previews), never the server's.
    (mine,) = [o for o in registered["pyramid"]["options"] if o["name"] == "settings"]
    assert {o["name"] for o in mine.get("options", [])} == {"preview", "language"}
    own = await harness.slash(member, emulator.general, "pyramid settings")
    assert own.ephemeral and "Current settings" not in own.text
    with pytest.raises(CommandUnavailable, match="MANAGE_GUILD"):
        await harness.slash(member, emulator.general, "pyramid-admin settings", threads=False)
    with pytest.raises(CommandUnavailable, match=r"DMs|context"):  # guild only
        await harness.slash(admin, harness.dm_channel(admin), "pyramid-admin settings")
    shown = await harness.slash(admin, emulator.general, "pyramid-admin settings")
    assert shown.ephemeral and "Current settings" in shown.text
