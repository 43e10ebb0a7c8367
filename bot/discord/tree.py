"""The command tree: ``/pyramid`` and ``/pyramid-admin``, and what a command that
fails tells the player."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.discord.challenges import Challenges
from bot.discord.commands.admin import AdminCommands
from bot.discord.commands.away import AwayCommands
from bot.discord.commands.daily import DailyCommands
from bot.discord.commands.info import InfoCommands
from bot.discord.commands.lobby import LobbyCommands
from bot.discord.commands.play import PlayCommands
from bot.discord.commands.pyramid import PyramidCommands
from bot.discord.commands.replay import ReplayCommands
from bot.discord.commands.settings import SettingsCommands
from bot.discord.commands.stats import StatsCommands
from bot.discord.lobbies import Lobbies
from bot.discord.replies import explain, reader_or_english, tell
from bot.discord.turns import Turns
from bot.play.errors import PlayError
from bot.play.host import Host
from bot.play.languages import Languages
from bot.services import Services
from i18n import Lang

log = logging.getLogger(__name__)


class CommandTree(app_commands.CommandTree[Any]):
    """The tree of one client; ``languages`` says who reads which language (errors are
    told in the player's)."""

    def __init__(self, client: discord.Client, languages: Languages | None = None) -> None:
        super().__init__(client)
        self.languages = languages

    async def on_error(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
        original = getattr(error, "original", error)
        lang = await self._lang(interaction)
        if isinstance(original, PlayError):
            await tell(interaction, f"❌ {explain(original, lang)}")
            return
        log.exception("command %s failed", interaction.command and interaction.command.qualified_name,
                      exc_info=original)
        # Not "nothing was changed": the failure may come after a move was saved (it then counts).
        await tell(interaction, "❌ " + lang.tr("Something went wrong on my side. `/pyramid status` shows where the "
                                                "game stands; if your move is not there, please try again."))

    async def _lang(self, interaction: discord.Interaction[Any]) -> Lang:
        """The player's language; English when it can't be told (the failure is told all the same)."""
        return await reader_or_english(interaction, self.languages)


def command_groups(services: Services, host: Host, lobbies: Lobbies, turns: Turns,
                   challenges: Challenges) -> list[app_commands.Group]:
    """Every top-level command the bot registers: ``/pyramid`` and ``/pyramid-admin``."""
    pyramid = PyramidCommands(LobbyCommands(services, lobbies, challenges), PlayCommands(services, host, turns),
                              InfoCommands(services, host), StatsCommands(services, host),
                              DailyCommands(services, host), ReplayCommands(services), AwayCommands(services, host),
                              SettingsCommands(services))
    return [pyramid, AdminCommands(services)]
