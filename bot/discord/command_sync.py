"""Syncing the slash commands at start-up, and clearing a development copy.

Globally synced commands reach every server (Discord may take up to an hour to show
changes); ``PYRAMID_DEV_GUILD_ID`` copies them to one server as well, where they show
at once. That copy outlives the setting, and the server would then list every command
twice, so the server copied to is remembered (:class:`bot.store.command_copies.CommandCopies`)
and its copy cleared at the first start without the setting (or with another server).
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.store.command_copies import CommandCopies

log = logging.getLogger(__name__)


async def sync_commands(tree: app_commands.CommandTree[discord.Client], dev_guild_id: int | None,
                        copies: CommandCopies) -> None:
    """Sync globally, or to ``dev_guild_id`` when set; then clear a development copy
    left on another server. Discord's refusals are logged, never raised: a bot with
    stale commands still plays."""
    previous = await copies.remembered()
    try:
        if dev_guild_id:
            guild = discord.Object(dev_guild_id)
            await copies.remember(dev_guild_id)  # before the copy, so a copy half made is cleared later too
            tree.copy_global_to(guild=guild)
            await tree.sync(guild=guild)
        else:
            await tree.sync()
    except discord.HTTPException as exc:
        log.error("could not sync slash commands: %s", exc)
    if previous is not None and previous != dev_guild_id:
        await clear_copy(tree, previous, copies)


async def clear_copy(tree: app_commands.CommandTree[discord.Client], guild_id: int, copies: CommandCopies) -> None:
    stale = discord.Object(guild_id)
    tree.clear_commands(guild=stale)
    try:
        await tree.sync(guild=stale)
    except discord.Forbidden:
        pass  # the bot left that server, and its commands went with it
    except discord.HTTPException as exc:
        log.error("could not clear the development copy of the commands on server %s: %s", guild_id, exc)
        return
    await copies.forget(guild_id)
    log.info("cleared the development copy of the slash commands on server %s (PYRAMID_DEV_GUILD_ID is no "
             "longer set to it)", guild_id)
