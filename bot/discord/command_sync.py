"""Syncing the slash commands the way Discord documents them today.

Where a command works is said with ``contexts`` (server, DM with the bot, group DMs) and
``integration_types`` (installed to a server, to a user). discord.py also sends
``dm_permission`` with every command, a field Discord deprecated in favour of ``contexts``;
this sync leaves it out, so the bot sends no deprecated field.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

#: What Discord deprecated (and what replaced it); dropped from every command we send.
DEPRECATED_FIELDS = ("dm_permission",)

#: Where the bot's commands work unless a command says otherwise (``/pyramid-admin``: servers only).
INSTALLS = app_commands.AppInstallationType(guild=True, user=False)
CONTEXTS = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=False)
#: Server administration: installed to a server, used in it.
SERVER_ONLY_INSTALLS = app_commands.AppInstallationType(guild=True, user=False)
SERVER_ONLY_CONTEXTS = app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False)


def without_deprecated(payload: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in payload.items() if key not in DEPRECATED_FIELDS}


async def command_payloads(tree: app_commands.CommandTree[Any], *, guild: discord.abc.Snowflake | None) -> list[
        dict[str, Any]]:
    """The commands of ``guild`` (None: the global ones) as ``tree.sync`` would send them, translated, minus the
    deprecated fields."""
    translator = tree.translator
    payloads = []
    for command in tree.get_commands(guild=guild):
        payload = (await command.get_translated_payload(tree, translator) if translator is not None
                   else command.to_dict(tree))
        payloads.append(without_deprecated(payload))
    return payloads


async def sync_commands(tree: app_commands.CommandTree[Any], *, guild: discord.abc.Snowflake | None = None) -> None:
    """``tree.sync`` without the deprecated fields. Raises ``discord.HTTPException`` as it does."""
    client = tree.client
    if client.application_id is None:
        raise app_commands.MissingApplicationID
    payloads = await command_payloads(tree, guild=guild)
    if guild is None:
        await client.http.bulk_upsert_global_commands(client.application_id, payload=payloads)
    else:
        await client.http.bulk_upsert_guild_commands(
            client.application_id, guild.id, payload=payloads)
