"""Buttons the bot puts on its messages. Each carries a custom id from
:mod:`bot.cards.custom_ids` (the one place ids are built), so it works after a restart."""

from __future__ import annotations

from typing import Any

import discord

from bot.cards.custom_ids import CustomId


def button(cid: CustomId, label: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
           row: int | None = None, disabled: bool = False) -> discord.ui.Button[Any]:
    return discord.ui.Button(label=label[:80], custom_id=cid.encode(), style=style, row=row, disabled=disabled)
