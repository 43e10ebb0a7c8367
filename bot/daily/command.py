"""``/pyramid daily``: today's deal for everyone (played in your DMs), or with
``show:`` the server's daily leaderboard (today's results, or streaks)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.core.services import Services
from bot.daily.deals import DAILY_KIND, Board
from bot.daily.handlers import DailyPlay
from bot.interactions.host import Host

Interaction = discord.Interaction[Any]


class DailyCommands:
    def __init__(self, services: Services, host: Host) -> None:
        self.services = services
        self.handler = DailyPlay(services, host)

    def commands(self) -> list[app_commands.Command[Any, ..., Any]]:
        if DAILY_KIND not in self.services.catalogue:  # a catalogue without the daily deal's game
            return []
        return [app_commands.Command(
            name=locale_str("daily"), callback=self.daily,
            description=locale_str("Today's deal, the same for everyone: play it in your DMs (or see this server's "
                                   "results)"))]

    @app_commands.describe(show=locale_str("Instead of playing: this server's results of today, or its streaks"))
    async def daily(self, interaction: Interaction, show: Board | None = None) -> None:
        if show is None:
            await self.handler.play(interaction)
        else:
            await self.handler.board(interaction, show)
