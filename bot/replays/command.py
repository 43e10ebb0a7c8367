"""``/pyramid replay [game] [move]``: the board at any move of a finished game, with
buttons to step through it (``bot.replays.handlers``)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.core.services import Services
from bot.replays.handlers import ReplayViewer

Interaction = discord.Interaction[Any]
#: The highest ``move:`` Discord lets a player type (games end far sooner; a larger one shows the last).
MAX_MOVE = 100_000


class ReplayCommands:
    def __init__(self, services: Services) -> None:
        self.viewer = ReplayViewer(services)

    def commands(self) -> list[app_commands.Command[Any, ..., Any]]:
        return [app_commands.Command(name=locale_str("replay"),
                                     description=locale_str("Look back at a finished game, move by move"),
                                     callback=self.replay)]

    @app_commands.describe(
        game=locale_str("Game number (default: the finished game of this thread, or your latest)"),
        move=locale_str("The move to show (0: the deal; default: the last)"))
    async def replay(self, interaction: Interaction, game: int | None = None,
                     move: app_commands.Range[int, 0, MAX_MOVE] | None = None) -> None:
        await self.viewer.command(interaction, game, None if move is None else max(0, int(move)))
