"""Where an interaction comes from, as far as the bot may act there (#27, play anywhere).

Discord names the installs that authorized an interaction (``authorizing_integration_owners``):
the guild install (the bot user is a member of that server), the user install (the app follows
the user everywhere). The bot user is present in servers that installed it and in its own DM
with a user; it is never in a group DM, nor in a server that only a user install reaches. Where it
is absent, a game lives in the messages its players' clicks update (``bot.posting.in_place``)."""

from __future__ import annotations

from typing import Any

import discord

from bot.store.records import GameSurface


def surface_of(interaction: discord.Interaction[Any]) -> GameSurface:
    """"channel" where the bot user can post itself, "interactions" where it may only answer."""
    if interaction.guild_id is not None:
        return "channel" if interaction.is_guild_integration() else "interactions"
    return "interactions" if interaction.context.private_channel else "channel"


def in_bot_dm(interaction: discord.Interaction[Any]) -> bool:
    """The DM between the user and the bot (not a group DM, nor a DM between two users)."""
    return interaction.guild_id is None and not interaction.context.private_channel
