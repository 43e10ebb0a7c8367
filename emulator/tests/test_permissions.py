"""Permissions as the real discord.py client sees them: READY/GUILD_CREATE carry roles and overwrites, so
``channel.permissions_for(guild.me)`` equals what the emulator enforces; the harness revokes and restores
permissions mid-test through the gateway events Discord sends."""

from __future__ import annotations

import io

import discord
import pytest

from emulator import Emulator, Harness, HarnessError, User
from emulator import permissions as P
from emulator.model import Channel

from .toybot import ToyBot


def client_of(h: Harness) -> ToyBot:
    assert isinstance(h.bot, ToyBot)
    return h.bot


def seen_by_discord_py(h: Harness, emulator: Emulator, channel: Channel) -> int:
    client = client_of(h)
    guild = client.get_guild(emulator.guild.id)
    assert guild is not None and guild.me is not None
    cached = guild.get_channel_or_thread(channel.id)
    assert cached is not None, f"{channel!r} is not in discord.py's cache"
    return cached.permissions_for(guild.me).value


async def test_guild_create_carries_roles_overwrites_and_the_bots_role(emulator: Emulator, bot: Harness) -> None:
    client = client_of(bot)
    guild = client.get_guild(emulator.guild.id)
    assert guild is not None and guild.me is not None
    assert guild.default_role.permissions.value == P.DEFAULT_EVERYONE
    bot_role = bot.bot_role()
    assert [r.id for r in guild.me.roles if not r.is_default()] == [bot_role.id]
    assert guild.me.roles[-1].is_bot_managed()
    assert seen_by_discord_py(bot, emulator, emulator.general) == emulator.world.permissions(
        emulator.bot, emulator.general
    )


async def test_discord_py_computes_what_the_emulator_enforces(emulator: Emulator, alice: User, bot: Harness) -> None:
    await bot.slash(alice, emulator.general, "toy thread", name="t")
    (thread,) = bot.threads(emulator.general)
    helpers = await bot.add_role("helpers", ["manage_messages"])
    world = emulator.world
    steps = [
        bot.set_bot_permission(emulator.general, "attach_files", False),
        bot.set_overwrite(
            emulator.general, world.guilds[emulator.guild.id].everyone, deny=["send_messages", "add_reactions"]
        ),
        bot.set_overwrite(emulator.general, bot.bot_role(), allow=["send_messages"]),
        bot.set_overwrite(emulator.general, helpers, allow=["mention_everyone"]),
        bot.set_bot_permission(emulator.general, "send_messages_in_threads", False),
        bot.set_bot_permission(None, "embed_links", False),  # the bot's role
        bot.set_bot_permission(emulator.general, "embed_links", True),  # the member overwrite wins
        bot.set_role_permissions(emulator.guild.everyone, P.DEFAULT_EVERYONE & ~P.USE_EXTERNAL_EMOJIS),
    ]
    for step in steps:
        await step
        await bot.settle()
        for channel in (emulator.general, thread):
            assert seen_by_discord_py(bot, emulator, channel) == world.permissions(emulator.bot, channel), channel
    perms = world.permissions(emulator.bot, emulator.general)
    assert perms & P.SEND_MESSAGES and perms & P.EMBED_LINKS and not perms & P.ATTACH_FILES
    assert not world.permissions(emulator.bot, thread) & P.EMBED_LINKS  # no SEND_MESSAGES_IN_THREADS there


async def test_interactions_carry_the_computed_permissions(emulator: Emulator, alice: User, bot: Harness) -> None:
    await bot.set_bot_permission(emulator.general, "attach_files", False)
    seen: list[tuple[int, int]] = []

    async def on_interaction(interaction: discord.Interaction) -> None:
        seen.append((interaction.app_permissions.value, interaction.permissions.value))

    client_of(bot).event(on_interaction)
    await bot.slash(alice, emulator.general, "toy echo", text="x")
    world = emulator.world
    assert seen == [(world.permissions(emulator.bot, emulator.general), world.permissions(alice, emulator.general))]


async def test_revoking_and_restoring_a_permission_mid_game(emulator: Emulator, alice: User, bot: Harness) -> None:
    res = await bot.slash(alice, emulator.general, "toy picture")
    assert res.message is not None and res.message.attachments  # an interaction response: a webhook, not subject
    await bot.set_bot_permission(emulator.general, "attach_files", False)
    assert "attach_files" not in bot.bot_permissions(emulator.general)
    client = client_of(bot)
    channel = client.get_channel(emulator.general.id)
    assert isinstance(channel, discord.TextChannel)
    assert not channel.permissions_for(channel.guild.me).attach_files  # CHANNEL_UPDATE reached discord.py
    with emulator.expect_violation("missing-permissions"), pytest.raises(discord.Forbidden) as refused:
        await channel.send("a file", file=discord.File(io.BytesIO(b"abc"), "a.txt"))
    assert refused.value.code == 50013
    await bot.set_bot_permission(emulator.general, "attach_files", None)
    assert channel.permissions_for(channel.guild.me).attach_files
    await channel.send("a file", file=discord.File(io.BytesIO(b"abc"), "a.txt"))
    # the guild-wide variant: the bot's role (GUILD_ROLE_UPDATE); @everyone grants ATTACH_FILES anyway, so this
    # matters for what only the bot's role grants, such as MANAGE_THREADS
    await bot.set_bot_permission(None, "attach_files", False)
    assert channel.permissions_for(channel.guild.me).attach_files
    await bot.set_bot_permission(None, "manage_threads", False)
    assert not channel.permissions_for(channel.guild.me).manage_threads
    assert "manage_threads" not in bot.bot_permissions(emulator.general)
    await bot.set_bot_permission(None, "manage_threads", None)
    assert channel.permissions_for(channel.guild.me).manage_threads


async def test_users_without_view_cannot_act_there(emulator: Emulator, alice: User, bob: User, bot: Harness) -> None:
    secret = await bot.add_channel("secret")
    await bot.set_overwrite(secret, emulator.guild.everyone, deny=["view_channel"])
    await bot.set_overwrite(secret, alice, allow=["view_channel"])
    assert (await bot.slash(alice, secret, "toy echo", text="here")).content == "here"
    with pytest.raises(HarnessError, match="cannot use"):
        await bot.slash(bob, secret, "toy echo", text="here")
    with pytest.raises(HarnessError, match="cannot see"):
        await bot.say(bob, secret, "hello?")
    await bot.set_overwrite(secret, emulator.guild.everyone)  # removed
    assert (await bot.slash(bob, secret, "toy echo", text="now")).content == "now"


async def test_the_clock_expires_tokens_and_archives_threads_for_the_bot(
    emulator: Emulator, alice: User, bot: Harness
) -> None:
    await bot.slash(alice, emulator.general, "toy thread", name="t")
    (thread,) = bot.threads(emulator.general)
    assert await bot.advance(minutes=1439) == []
    assert await bot.advance(minutes=1) == [thread]
    client = client_of(bot)
    guild = client.get_guild(emulator.guild.id)
    assert guild is not None and guild.get_thread(thread.id) is None  # discord.py drops archived threads
