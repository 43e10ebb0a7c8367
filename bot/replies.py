"""Answering an interaction the right way whatever state it is in.

discord.py raises if you respond twice; these helpers pick ``response`` or
``followup`` so handlers can just say what they mean."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import discord

if TYPE_CHECKING:
    from bot.client import PyramidClient


def client_of(interaction: discord.Interaction[Any]) -> PyramidClient:
    """The bot behind an interaction; its services hang off it (no globals)."""
    return cast("PyramidClient", interaction.client)


async def tell(interaction: discord.Interaction[Any], text: str, **kwargs: Any) -> None:
    """An ephemeral message to the clicker, as the first response or a follow-up."""
    kwargs.setdefault("ephemeral", True)
    if interaction.response.is_done():
        await interaction.followup.send(text[:2000], **kwargs)
    else:
        await interaction.response.send_message(text[:2000], **kwargs)


async def ack_update(interaction: discord.Interaction[Any], text: str) -> None:
    """Acknowledge a component click by editing its message (e.g. "Playing…")."""
    if interaction.response.is_done():
        return
    await interaction.response.edit_message(content=text[:2000], view=None)


async def defer_private(interaction: discord.Interaction[Any]) -> None:
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
