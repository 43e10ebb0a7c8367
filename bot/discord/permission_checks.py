"""The bot's own permissions where a command is used: ``/pyramid new`` refuses up
front where a game could not be posted (#15), ``/pyramid-admin check`` reports them.
Discord sends the bot's permissions in the channel with every interaction."""

from __future__ import annotations

from typing import Any

import discord

from bot.play import permissions
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
    """Why no game can be opened here, naming the missing permissions (in ``lang``); None when one can."""
    if interaction.guild_id is None:
        return None
    return permissions.refusal(interaction.app_permissions, channel_name(interaction, lang),
                               await place_here(interaction, store), lang)


def permission_report(interaction: Interaction, place: permissions.Place, lang: Lang = ENGLISH) -> str:
    """Every permission the bot uses here, marked (in ``lang``)."""
    return permissions.report(interaction.app_permissions, channel_name(interaction, lang), place, lang)
