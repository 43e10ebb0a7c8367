"""End-to-end: the real discord.py client (toy bot) over HTTP + gateway, driven through the harness."""

from __future__ import annotations

import base64
import re
from typing import Any
from urllib.parse import quote

import discord
import pytest

from bot.config.api_base import configure_api_base
from emulator import BotFactory, Emulator, Harness, HarnessError, InteractionNotAnswered, User

from .toybot import ToyBot


async def test_commands_are_synced_global_and_guild(emulator: Emulator, bot: Harness) -> None:
    commands = {(c.name, c.guild_id) for c in emulator.world.commands.values()}
    assert ("toy", None) in commands
    assert ("ping", emulator.guild.id) in commands


async def test_slash_with_options_replies(emulator: Emulator, alice: User, bot: Harness) -> None:
    res = await bot.slash(alice, emulator.general, "toy echo", text="hello", times=3)
    assert res.answered and res.response_type == 4
    assert res.content == "hello hello hello"
    assert not res.ephemeral
    msg = res.message
    assert msg is not None and msg.author.id == emulator.bot.id
    assert msg.interaction_metadata is not None and msg.interaction_metadata["user"]["id"] == str(alice.id)
    assert bot.messages(emulator.general) == [msg]


async def test_subcommand_group_with_choices(emulator: Emulator, alice: User, bot: Harness) -> None:
    res = await bot.slash(alice, emulator.general, "toy game new", kind="flaming-pyramids", curse=True)
    assert res.content == "new flaming-pyramids curse=True"
    with pytest.raises(HarnessError, match="must be one of"):
        await bot.slash(alice, emulator.general, "toy game new", kind="chess")
    with pytest.raises(HarnessError, match="needs a subcommand"):
        await bot.slash(alice, emulator.general, "toy game")
    with pytest.raises(HarnessError, match="missing required"):
        await bot.slash(alice, emulator.general, "toy echo")


async def test_guild_command(emulator: Emulator, alice: User, bot: Harness) -> None:
    res = await bot.slash(alice, emulator.general, "ping")
    assert res.content == "pong from 1"
    with pytest.raises(HarnessError, match="not registered"):
        await bot.slash(alice, bot.dm_channel(alice), "ping")


async def test_autocomplete_returns_choices(emulator: Emulator, alice: User, bot: Harness) -> None:
    choices = await bot.autocomplete(alice, emulator.general, "toy pick", "fruit", "ap")
    assert [c["value"] for c in choices] == ["apple", "apricot"]
    res = await bot.slash(alice, emulator.general, "toy pick", fruit=choices[0]["value"])
    assert res.content == "picked apple"


async def test_autocomplete_limit_is_enforced(emulator: Emulator, alice: User, bot: Harness) -> None:
    with (
        emulator.expect_violation("autocomplete-choices"),
        bot.expect_bot_error("autocomplete"),
        pytest.raises(InteractionNotAnswered, match="autocomplete-choices"),
    ):
        await bot.autocomplete(alice, emulator.general, "toy pick", "fruit", "overflow")


async def test_defer_then_followups(emulator: Emulator, alice: User, bot: Harness) -> None:
    res = await bot.slash(alice, emulator.general, "toy slow")
    assert res.response_type == 5 and res.deferred
    # the first follow-up after a "thinking" defer replaces the loading message
    assert res.message is not None and not res.message.loading
    assert res.content == "done thinking"
    assert [m.content for m in res.followups] == ["and one more"]
    assert res.followups[0].ephemeral
    assert [m.content for m in bot.messages(emulator.general)] == ["done thinking"]
    assert [m.content for m in bot.visible_messages(alice, emulator.general)] == ["done thinking", "and one more"]


async def test_buttons_select_and_edits(emulator: Emulator, alice: User, bob: User, bot: Harness) -> None:
    res = await bot.slash(alice, emulator.general, "toy board")
    board = res.message
    assert board is not None
    assert board.button_labels == ["+1", "-1", "Docs"]
    up = await bot.click(bob, board, label="+1")
    assert up.response_type == 7 and up.message is board
    assert board.content == "count: 1" and board.edited
    down = await bot.click(alice, board, custom_id="toy:dec")
    assert down.response_type == 6
    assert board.content == "count: 0"
    with pytest.raises(HarnessError, match="link button"):
        await bot.click(alice, board, label="Docs")
    chosen = await bot.select(bob, board, "toy:fruit", ["banana"])
    assert chosen.content == "you chose banana" and chosen.ephemeral
    assert chosen.message in bot.visible_messages(bob, emulator.general)
    assert chosen.message not in bot.visible_messages(alice, emulator.general)
    with pytest.raises(HarnessError, match="not an option"):
        await bot.select(bob, board, "toy:fruit", ["durian"])


async def test_ephemeral_only_visible_to_its_user_and_clickable(
    emulator: Emulator, alice: User, bob: User, bot: Harness
) -> None:
    res = await bot.slash(alice, emulator.general, "toy secret")
    secret = res.message
    assert secret is not None and secret.ephemeral
    assert bot.messages(emulator.general) == []
    assert bot.visible_messages(alice, emulator.general) == [secret]
    assert bot.visible_messages(bob, emulator.general) == []
    with pytest.raises(HarnessError, match="cannot see"):
        await bot.click(bob, secret, label="Reveal")
    clicked = await bot.click(alice, secret, label="Reveal")
    assert clicked.message is secret
    assert secret.content == "revealed to alice" and secret.components == []


async def test_dm_with_png_attachment(emulator: Emulator, alice: User, bot: Harness) -> None:
    res = await bot.slash(alice, emulator.general, "toy dm")
    assert res.content == "check your DMs" and res.ephemeral
    (dm,) = bot.dm(alice)
    assert dm.content == "here is your picture"
    (att,) = dm.attachments
    assert att.filename == "board.png" and att.is_png and att.image_size() == (8, 4)
    assert await bot.fetch_attachment(att) == att.data
    assert att.url.startswith(emulator.base_url)


async def test_closed_dms_answer_50007(emulator: Emulator, bot: Harness) -> None:
    carol = await bot.add_user("carol", dms_open=False)
    res = await bot.slash(carol, emulator.general, "toy dm")
    assert res.content == "cannot DM you (50007)"
    assert bot.dm(carol) == []
    assert any(r.code == 50007 for r in emulator.rejections)


async def test_modal_submit(emulator: Emulator, alice: User, bot: Harness) -> None:
    opened = await bot.slash(alice, emulator.general, "toy feedback")
    assert opened.response_type == 9 and opened.modal is not None
    assert opened.modal["title"] == "Feedback"
    with pytest.raises(HarnessError, match="required"):
        await bot.submit_modal(alice, opened, {"mood": "happy"})
    res = await bot.submit_modal(alice, opened, {"comment": "nice game", "mood": "happy"})
    assert res.content == "thanks: nice game (happy)"


async def test_threads(emulator: Emulator, alice: User, bob: User, bot: Harness) -> None:
    res = await bot.slash(alice, emulator.general, "toy thread", name="match-1")
    (thread,) = bot.threads(emulator.general)
    assert thread.name == "match-1" and thread.is_thread
    assert res.content == f"opened <#{thread.id}>"
    (welcome,) = bot.messages(thread)
    assert welcome.content == "welcome to the thread"
    await bot.click(bob, welcome, label="+1")
    assert welcome.content == "count: 1"
    # a thread started from a message shares the message's id
    res2 = await bot.slash(alice, emulator.general, "toy thread", name="match-2", from_message=True)
    starter = res2.message
    assert starter is not None
    thread2 = bot.threads(emulator.general)[1]
    assert thread2.id == starter.id and starter.thread_id == thread2.id
    # the bot's cache knows both threads (THREAD_CREATE was dispatched)
    client = bot.bot
    assert isinstance(client, ToyBot)
    guild = client.get_guild(emulator.guild.id)
    assert guild is not None and {t.id for t in guild.threads} == {thread.id, thread2.id}


async def test_archived_thread_is_unarchived_by_a_message_but_locked_one_refuses(
    emulator: Emulator, alice: User, bot: Harness
) -> None:
    await bot.slash(alice, emulator.general, "toy thread", name="t")
    (thread,) = bot.threads(emulator.general)
    client = bot.bot
    assert isinstance(client, ToyBot)
    await bot.set_thread_state(thread, archived=True)
    with pytest.raises(HarnessError, match="archived thread"):  # no application commands in archived threads
        await bot.slash(alice, thread, "toy echo", text="nope")
    # a user's message unarchives it; the bot hears of it (THREAD_UPDATE)
    await bot.say(alice, thread, "anyone?")
    assert not thread.archived
    cached = client.get_channel(thread.id)
    assert isinstance(cached, discord.Thread) and not cached.archived
    # so does the bot's own post (it may post there)
    await bot.set_thread_state(thread, archived=True)
    res = await bot.slash(alice, emulator.general, "toy relay", where=thread, text="revived")
    assert res.content == "relayed" and not thread.archived
    assert bot.messages(thread)[-1].content == "revived"
    # a locked thread refuses the bot's posts without MANAGE_THREADS (160005)...
    await bot.set_thread_state(thread, locked=True)
    await bot.set_bot_permission(thread, "manage_threads", False)
    with emulator.expect_violation("thread-locked"):
        res = await bot.slash(alice, emulator.general, "toy relay", where=thread, text="locked")
    assert res.content == "relay refused 403 160005"
    # ...and takes them again once the permission is back
    await bot.set_bot_permission(thread, "manage_threads", None)
    res = await bot.slash(alice, emulator.general, "toy relay", where=thread, text="moderated")
    assert res.content == "relayed"


async def test_deprecated_followup_after_defer_is_refused(emulator: Emulator, alice: User, bot: Harness) -> None:
    with emulator.expect_violation("deferred-followup"):
        res = await bot.slash(alice, emulator.general, "toy legacy")
    assert res.content == "follow-up refused 400" and res.ephemeral
    assert bot.messages(emulator.general) == []


@pytest.mark.parametrize("emulator_options", [{"strict": False}])
async def test_lenient_emulator_imitates_the_deprecated_followup(
    emulator_options: dict[str, Any], emulator: Emulator, alice: User, bot: Harness
) -> None:
    res = await bot.slash(alice, emulator.general, "toy legacy")
    # the follow-up filled the loading message, which stays ephemeral as deferred: nothing public
    assert res.content == "filled by a follow-up" and res.ephemeral and res.followups == []
    assert bot.messages(emulator.general) == []


async def test_persistent_and_dynamic_buttons_survive_restart(emulator: Emulator, alice: User, bot: Harness) -> None:
    board = (await bot.slash(alice, emulator.general, "toy board")).message
    stepper = (await bot.slash(alice, emulator.general, "toy stepper")).message
    assert board is not None and stepper is not None
    await bot.click(alice, board, label="+1")
    await bot.click(alice, stepper, label="step 0")
    assert stepper.content == "at step 1"
    first_session = emulator.gateway.connected_sessions[0]

    await bot.restart_bot()

    assert bot.starts == 2
    assert not first_session.alive
    (session,) = emulator.gateway.connected_sessions
    assert session is not first_session and session.identified == 1
    await bot.click(alice, board, label="+1")
    assert board.content == "count: 2"
    await bot.click(alice, stepper, label="step 1")
    assert stepper.content == "at step 2"
    res = await bot.slash(alice, emulator.general, "ping")
    assert res.content == "pong from 2"


async def test_select_on_old_message_after_restart(emulator: Emulator, alice: User, bot: Harness) -> None:
    board = (await bot.slash(alice, emulator.general, "toy board")).message
    assert board is not None
    await bot.restart_bot()
    res = await bot.select(alice, board, "toy:fruit", ["Cherry"])  # by label
    assert res.content == "you chose cherry"


# --- rules ----------------------------------------------------------------------------------------------------------


async def test_too_long_reply_is_refused_and_named(emulator: Emulator, alice: User, bot: Harness) -> None:
    with emulator.expect_violation("content-length") as caught:
        res = await bot.slash(alice, emulator.general, "toy long")
    assert "content" in caught[0].detail
    assert res.content == "refused 50035"  # the bot recovered with a valid first response
    assert res.rejected == ["content-length"]


async def test_too_long_channel_message(emulator: Emulator, alice: User, bot: Harness) -> None:
    with emulator.expect_violation("content-length"):
        res = await bot.slash(alice, emulator.general, "toy shout")
    assert [m.content for m in res.followups] == ["refused 400 50035"]


async def test_three_second_rule(emulator: Emulator, alice: User, bot: Harness) -> None:
    emulator.interaction_deadline = 0.2
    with emulator.expect_violation("interaction-deadline"), pytest.raises(InteractionNotAnswered, match="deadline"):
        await bot.slash(alice, emulator.general, "toy late", delay=0.4)
    await bot.settle()
    client = bot.bot
    assert isinstance(client, ToyBot) and client.late_errors == [10062]
    # in time is fine
    emulator.interaction_deadline = 3.0
    res = await bot.slash(alice, emulator.general, "toy late", delay=0.0)
    assert res.content == "finally"


async def test_answering_twice_is_refused(emulator: Emulator, alice: User, bot: Harness) -> None:
    with emulator.expect_violation("interaction-acknowledged"):
        res = await bot.slash(alice, emulator.general, "toy twice")
    assert res.content == "one"
    assert [m.content for m in res.followups] == ["second refused 40060"]


async def test_followup_before_response_is_refused(emulator: Emulator, alice: User, bot: Harness) -> None:
    with emulator.expect_violation("followup-before-response"):
        res = await bot.slash(alice, emulator.general, "toy early")
    assert res.content == "early refused 404 10015"


async def test_rate_limited_request_is_retried(emulator: Emulator, alice: User, bot: Harness) -> None:
    emulator.rate_limit("POST /channels/{channel_id}/messages", count=2, retry_after=0.05)
    res = await bot.slash(alice, emulator.general, "toy post", text="after 429s")
    assert res.content == "posted" and res.ephemeral
    statuses = [r.status for r in emulator.requests_to("POST /channels/{channel_id}/messages")]
    assert statuses == [429, 429, 200]
    assert bot.messages(emulator.general)[-1].content == "after 429s"


async def test_unsupported_route_is_a_violation(emulator: Emulator, alice: User, bot: Harness) -> None:
    client = bot.bot
    assert isinstance(client, discord.Client)
    with emulator.expect_violation("unsupported-route"), pytest.raises(discord.NotFound):
        await client.http.get_all_custom_emojis(emulator.guild.id)


async def test_user_messages_reach_the_bot_without_content_intent(
    emulator: Emulator, alice: User, bot: Harness
) -> None:
    client = bot.bot
    assert isinstance(client, discord.Client)
    seen: list[discord.Message] = []

    async def on_message(message: discord.Message) -> None:
        seen.append(message)

    client.event(on_message)
    await bot.say(alice, emulator.general, "hello bot")
    await bot.say(alice, emulator.general, f"hey {emulator.bot.mention}")
    assert [m.content for m in seen] == ["", f"hey {emulator.bot.mention}"]


async def test_buttons_in_dms_and_commands_in_dms(emulator: Emulator, alice: User, bob: User, bot: Harness) -> None:
    await bot.slash(alice, emulator.general, "toy dmboard")
    (dm,) = bot.dm(alice)
    assert dm.content == "count: 0"
    with pytest.raises(HarnessError, match="cannot see"):
        await bot.click(bob, dm, label="+1")
    res = await bot.click(alice, dm, label="+1")
    assert res.interaction.guild_id is None and "user" in res.interaction.payload
    assert dm.content == "count: 1"
    in_dm = await bot.slash(alice, bot.dm_channel(alice), "toy echo", text="private")
    assert in_dm.message is not None and in_dm.message.channel_id == bot.dm_channel(alice).id
    assert [m.content for m in bot.dm(alice)] == ["count: 1", "private"]


async def test_embed_image_from_attachment(emulator: Emulator, alice: User, bot: Harness) -> None:
    res = await bot.slash(alice, emulator.general, "toy picture")
    msg = res.message
    assert msg is not None
    image = msg.embed_image()
    assert image is not None and image is msg.attachment("board.png")
    assert image.image_size() == (16, 9)
    assert msg.embeds[0]["image"]["url"] == image.url and msg.embeds[0]["image"]["width"] == 16
    assert "the current board" in msg.text


async def test_second_guild(emulator: Emulator, alice: User, bot: Harness) -> None:
    other = await bot.add_guild("Other", members=[alice])
    general2 = bot.channel("general", guild=other)
    res = await bot.slash(alice, general2, "toy echo", text="elsewhere")
    assert res.message is not None and res.message.guild_id == other.id
    client = bot.bot
    assert isinstance(client, ToyBot) and client.get_guild(other.id) is not None
    with pytest.raises(HarnessError, match="not registered"):
        await bot.slash(alice, general2, "ping")  # guild command of the first guild only


async def test_wait_for_message(emulator: Emulator, alice: User, bot: Harness) -> None:
    await bot.slash(alice, emulator.general, "toy echo", text="one")
    msg = await bot.wait_for_message(emulator.general, lambda m: m.content == "one", timeout=1)
    assert msg.content == "one"
    with pytest.raises(TimeoutError, match="no matching message"):
        await bot.wait_for_message(emulator.general, lambda m: m.content == "two", timeout=0.05)


async def test_busy_check_covers_the_bots_own_background_tasks(emulator: Emulator, bot_factory: BotFactory) -> None:
    def busy(handle: object) -> bool:
        return isinstance(handle, ToyBot) and bool(handle.background)

    async with Harness(emulator, bot_factory, busy_check=busy) as h:
        alice = await h.add_user("alice")
        await h.start_bot()
        res = await h.slash(alice, emulator.general, "toy later", text="from the background")
        assert res.content == "will do"
        assert h.messages(emulator.general)[-1].content == "from the background"
        h.assert_no_bot_errors()
    configure_api_base(None)


async def test_users_act_only_where_they_can(emulator: Emulator, alice: User, bob: User, bot: Harness) -> None:
    with pytest.raises(HarnessError, match="cannot use"):
        await bot.slash(bob, bot.dm_channel(alice), "toy echo", text="not my DM")
    outsider = emulator.world.add_user("outsider")
    with pytest.raises(HarnessError, match="cannot use"):
        await bot.slash(outsider, emulator.general, "toy echo", text="not a member")


async def test_interaction_tokens_are_written_as_discord_writes_them(emulator: Emulator, alice: User,
                                                                      bot: Harness) -> None:
    """URL-safe base64 of ``interaction:<id>:<secret>``: a path segment as it stands (a bare ``:``
    made discord.py quote every token character by character, a cost real tokens never cause)."""
    first = await bot.slash(alice, emulator.general, "toy echo", text="a", times=1)
    second = await bot.slash(alice, emulator.general, "toy echo", text="b", times=1)
    tokens = [first.interaction.token, second.interaction.token]
    assert len(set(tokens)) == 2
    for result, token in zip((first, second), tokens, strict=True):
        assert re.fullmatch(r"[A-Za-z0-9_-]+", token) and quote(token) == token
        decoded = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode()
        kind, iid, secret = decoded.split(":", 2)
        assert (kind, int(iid)) == ("interaction", result.interaction.id) and len(secret) >= 32
