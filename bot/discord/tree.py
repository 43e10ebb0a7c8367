"""The command tree: ``/pyramid`` and ``/pyramid-admin``, and what a command that
fails tells the player."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.discord.challenges import Challenges
from bot.discord.command_input import BadInput, check_command
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
from bot.discord.failures import answer_failure, mistake_text, suggest_nothing, tell_if_possible
from bot.discord.lobbies import Lobbies
from bot.discord.replies import reader_or_english
from bot.discord.turns import Turns
from bot.notifications.command import NotifyCommands
from bot.notifications.gate import NotificationGate
from bot.play.host import Host
from bot.play.languages import Languages
from bot.services import Services
from i18n import N_, Lang

log = logging.getLogger(__name__)
#: What a command that failed inside says (translated where it is shown).
INTERNAL = N_("Something went wrong on my side. `/pyramid status` shows where the game stands; if your move is "
              "not there, please try again.")


class CommandTree(app_commands.CommandTree[Any]):
    """The tree of one client; ``languages`` says who reads which language (errors are
    told in the player's)."""

    def __init__(self, client: discord.Client, languages: Languages | None = None) -> None:
        super().__init__(client)
        self.languages = languages

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Every request is checked against its command before discord.py converts it
        (:mod:`bot.discord.command_input`); one that does not fit is answered here and
        goes no further (an autocomplete with no suggestions)."""
        try:
            check_command(self, interaction)
        except BadInput as exc:
            data: dict[str, Any] = dict(interaction.data or {})
            name = str(data.get("name", "?"))[:40]
            log.info("command %s refused: %s", name, exc)
            if interaction.type is discord.InteractionType.autocomplete:
                await suggest_nothing(interaction)
                return False
            await tell_if_possible(interaction, mistake_text(exc, await self._lang(interaction)))
            return False
        except Exception as exc:
            if interaction.type is discord.InteractionType.autocomplete:
                log.exception("checking an autocomplete failed")
                await suggest_nothing(interaction)
                return False
            await answer_failure(interaction, exc, await self._lang(interaction), what="checking a command",
                                 internal=INTERNAL)
            return False
        return True

    async def on_error(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
        if interaction.type is discord.InteractionType.autocomplete:  # it can only be answered with suggestions
            log.info("autocomplete failed: %s", error)
            await suggest_nothing(interaction)
            return
        original = getattr(error, "original", error)
        name = interaction.command.qualified_name if interaction.command else "?"
        # Not "nothing was changed" for a bug: the failure may come after a move was saved (it then counts).
        await answer_failure(interaction, original, await self._lang(interaction), what=f"command {name}",
                             internal=INTERNAL)

    async def _lang(self, interaction: discord.Interaction[Any]) -> Lang:
        """The player's language; English when it can't be told (the failure is told all the same)."""
        return await reader_or_english(interaction, self.languages)


def command_groups(services: Services, host: Host, lobbies: Lobbies, turns: Turns,
                   challenges: Challenges, gate: NotificationGate) -> list[app_commands.Group]:
    """Every top-level command the bot registers: ``/pyramid`` and ``/pyramid-admin``."""
    pyramid = PyramidCommands(LobbyCommands(services, lobbies, challenges), PlayCommands(services, host, turns),
                              InfoCommands(services, host), StatsCommands(services, host),
                              DailyCommands(services, host), ReplayCommands(services), AwayCommands(services, host),
                              SettingsCommands(services), NotifyCommands(services, gate))
    return [pyramid, AdminCommands(services)]
