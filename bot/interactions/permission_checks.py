"""The bot's own permissions where a command is used: ``/pyramid new`` refuses up
front where a game could not be posted (#15), ``/pyramid-admin check`` reports them.
Discord sends the bot's permissions in the channel with every interaction."""

from __future__ import annotations

from typing import Any

import discord

from bot.interactions.surfaces import surface_of
from bot.posting import permissions
from bot.store import GameStore
from i18n import Lang

Interaction = discord.Interaction[Any]
ENGLISH = Lang("en")


def channel_name(interaction: Interaction, lang: Lang = ENGLISH) -> str:
    return f"<#{interaction.channel_id}>" if interaction.channel_id else lang.tr("this channel")


async def place_here(interaction: Interaction, store: GameStore) -> permissions.Place:
    """Where a game opened here would be played, by the server's thread setting."""
    settings = await store.guild_settings(interaction.guild_id or 0)
    return permissions.place_of(interaction.channel, settings.use_threads)


async def permission_refusal(interaction: Interaction, store: GameStore, lang: Lang = ENGLISH) -> str | None:
    """Why no game can be opened here, naming the missing permissions (in ``lang``); None when one can.
    Where only a user install reaches (a server that did not add the bot) the bot posts nothing itself:
    the game lives in its card (``bot.posting.in_place``), and the bot's permissions don't matter."""
    if interaction.guild_id is None:
        return None
    if surface_of(interaction) == "interactions":
        perms = interaction.app_permissions  # there: the member's own, as Discord applies them to the app
        if not perms.use_external_apps or not (perms.send_messages or perms.send_messages_in_threads):
            return "❌ " + lang.tr("This server lets apps you added answer only you here (they need **Use External "
                                   "Apps** and **Send Messages**), so nobody else would see the game. Play in a "
                                   "group DM, or ask an admin to add the bot to the server.")
        return None
    return permissions.refusal(interaction.app_permissions, channel_name(interaction, lang),
                               await place_here(interaction, store), lang)


def permission_report(interaction: Interaction, place: permissions.Place, lang: Lang = ENGLISH) -> str:
    """Every permission the bot uses here, marked (in ``lang``)."""
    return permissions.report(interaction.app_permissions, channel_name(interaction, lang), place, lang)
