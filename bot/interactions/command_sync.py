"""Syncing the slash commands at start-up, the way Discord documents them today, and
clearing a development copy.

Where a command works is said with ``contexts`` (server, DM with the bot, group DMs) and
``integration_types`` (installed to a server, to a user). discord.py also sends
``dm_permission`` with every command, a field Discord deprecated in favour of
``contexts``; every sync here leaves it out, so the bot sends no deprecated field.

Globally synced commands reach every server (Discord may take up to an hour to show
changes); ``PYRAMID_DEV_GUILD_ID`` copies them to one server as well, where they show
at once. That copy outlives the setting, and the server would then list every command
twice, so the server copied to is remembered (:class:`bot.store.command_copies.CommandCopies`)
and its copy cleared at the first start without the setting (or with another server).
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.core.command_links import CommandLinks
from bot.store.command_copies import CommandCopies

log = logging.getLogger(__name__)

#: What Discord deprecated (and what replaced it); dropped from every command we send.
DEPRECATED_FIELDS = ("dm_permission",)

#: Where the bot's commands work unless a command says otherwise (``/pyramid-admin``: servers only):
#: installed to a server or to a user, used in servers, the DM with the bot and group DMs. Where only
#: the user install reaches (a group DM, a server without the bot), a game lives in the messages its
#: players' clicks update (``bot.posting.in_place``).
INSTALLS = app_commands.AppInstallationType(guild=True, user=True)
CONTEXTS = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
#: Server administration: installed to a server, used in it.
SERVER_ONLY_INSTALLS = app_commands.AppInstallationType(guild=True, user=False)
SERVER_ONLY_CONTEXTS = app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False)


#: The user install and the one interaction context only it reaches (group DMs and DMs between users).
USER_INSTALL, PRIVATE_CHANNEL = 1, 2


def without_deprecated(payload: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in payload.items() if key not in DEPRECATED_FIELDS}


def within_installs(payload: dict[str, Any], *, user_install: bool) -> dict[str, Any]:
    """A command as the app's installation settings allow it: Discord refuses a command whose
    ``integration_types`` name an install the app does not offer (developer portal, Installation →
    User Install unticked), so without the user install the command keeps the guild install and the
    contexts it reaches (no group DMs)."""
    if user_install:
        return payload
    fitted = dict(payload)
    if isinstance(fitted.get("integration_types"), list):
        fitted["integration_types"] = [kind for kind in fitted["integration_types"] if kind != USER_INSTALL]
    if isinstance(fitted.get("contexts"), list):
        fitted["contexts"] = [where for where in fitted["contexts"] if where != PRIVATE_CHANNEL]
    return fitted


async def offers_user_install(client: discord.Client) -> bool:
    """Whether the app may be installed to users (its ``integration_types_config``; one request, at
    start-up). When it cannot be read, the commands ask for it, and Discord's refusal is logged."""
    try:
        info = await client.application_info()
    except discord.HTTPException as exc:
        log.warning("could not read the application's installation settings: %s", exc)
        return True
    return info.user_integration_config is not None


async def command_payloads(tree: app_commands.CommandTree[Any], *, guild: discord.abc.Snowflake | None,
                           user_install: bool = True) -> list[dict[str, Any]]:
    """The commands of ``guild`` (None: the global ones) as ``tree.sync`` would send them, translated, minus the
    deprecated fields, within the installs the app offers."""
    translator = tree.translator
    payloads = []
    for command in tree.get_commands(guild=guild):
        payload = (await command.get_translated_payload(tree, translator) if translator is not None
                   else command.to_dict(tree))
        payloads.append(within_installs(without_deprecated(payload), user_install=user_install))
    return payloads


async def sync_tree(tree: app_commands.CommandTree[Any], *, guild: discord.abc.Snowflake | None = None,
                    user_install: bool = True) -> list[dict[str, Any]]:
    """``tree.sync`` without the deprecated fields: the commands as Discord answered them (with their ids).
    Raises ``discord.HTTPException`` as it does."""
    client = tree.client
    if client.application_id is None:
        raise app_commands.MissingApplicationID
    payloads = await command_payloads(tree, guild=guild, user_install=user_install)
    if guild is None:
        return list(await client.http.bulk_upsert_global_commands(client.application_id, payload=payloads))
    return list(await client.http.bulk_upsert_guild_commands(client.application_id, guild.id, payload=payloads))


async def registered(client: discord.Client, guild_id: int | None) -> list[dict[str, Any]]:
    """The commands Discord holds for the app (``guild_id``'s copy, or the global ones), with their ids; none
    when they cannot be read (the texts then name the commands as written)."""
    if client.application_id is None:
        return []
    try:
        commands: list[Any] = await (client.http.get_guild_commands(client.application_id, guild_id) if guild_id
                                     else client.http.get_global_commands(client.application_id))
    except discord.HTTPException as exc:
        log.warning("could not read the registered commands (texts name them without mentions): %s", exc)
        return []
    return [dict(command) for command in commands]


async def sync_commands(tree: app_commands.CommandTree[discord.Client], dev_guild_id: int | None,
                        copies: CommandCopies, links: CommandLinks | None = None) -> None:
    """Sync globally, or to ``dev_guild_id`` when set; then clear a development copy
    left on another server. Discord's refusals are logged, never raised: a bot with
    stale commands still plays. ``links`` learns the commands' ids: from the sync's answer, or
    when the sync was refused, from the commands Discord still holds."""
    previous = await copies.remembered()
    user_install = await offers_user_install(tree.client)
    if not user_install:
        log.info("the app is not installable to users (developer portal: Installation → User Install); the "
                 "commands work only where a server added the bot and in the DM with the bot")
    try:
        if dev_guild_id:
            guild = discord.Object(dev_guild_id)
            await copies.remember(dev_guild_id)  # before the copy, so a copy half made is cleared later too
            tree.copy_global_to(guild=guild)
            synced = await sync_tree(tree, guild=guild, user_install=user_install)
        else:
            synced = await sync_tree(tree, user_install=user_install)
    except discord.HTTPException as exc:
        log.error("could not sync slash commands: %s", exc)
        synced = await registered(tree.client, dev_guild_id)
    if links is not None:
        links.learn(synced)
    if previous is not None and previous != dev_guild_id:
        await clear_copy(tree, previous, copies)


async def clear_copy(tree: app_commands.CommandTree[discord.Client], guild_id: int, copies: CommandCopies) -> None:
    stale = discord.Object(guild_id)
    tree.clear_commands(guild=stale)
    try:
        await sync_tree(tree, guild=stale)
    except discord.Forbidden:
        pass  # the bot left that server, and its commands went with it
    except discord.HTTPException as exc:
        log.error("could not clear the development copy of the commands on server %s: %s", guild_id, exc)
        return
    await copies.forget(guild_id)
    log.info("cleared the development copy of the slash commands on server %s (PYRAMID_DEV_GUILD_ID is no "
             "longer set to it)", guild_id)
