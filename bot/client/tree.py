"""The command tree: ``/pyramid`` and ``/pyramid-admin``, and what a command that
fails tells the player."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.admin.command import AdminCommands
from bot.away.command import AwayCommands
from bot.client.host import Host
from bot.client.pyramid import PyramidCommands
from bot.core.languages import Languages
from bot.core.services import Services
from bot.daily.command import DailyCommands
from bot.forecasts.commands import UndoCommands
from bot.info.command import InfoCommands
from bot.interactions.command_input import BadInput, check_command
from bot.interactions.failures import answer_failure, mistake_text, suggest_nothing, tell_if_possible
from bot.interactions.replies import reader_or_english
from bot.lobbies.challenges import Challenges
from bot.lobbies.command import LobbyCommands
from bot.lobbies.handlers import Lobbies
from bot.notifications.command import NotifyCommands
from bot.notifications.gate import NotificationGate
from bot.preferences.command import SettingsCommands
from bot.replays.command import ReplayCommands
from bot.seasons.runner import Seasons
from bot.seeks.commands import queue_command, seek_command
from bot.seeks.runner import Seeks
from bot.stats.command import StatsCommands
from bot.tournaments.commands import admin_group, player_group
from bot.tournaments.runner import Tournaments
from bot.turns.command import PlayCommands
from bot.turns.handlers import Turns
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
        (:mod:`bot.interactions.command_input`); one that does not fit is answered here and
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
                   challenges: Challenges, tournaments: Tournaments, seeks: Seeks,
                   seasons: Seasons, gate: NotificationGate) -> list[app_commands.Group]:
    """Every top-level command the bot registers: ``/pyramid`` and ``/pyramid-admin``."""
    pyramid = PyramidCommands(LobbyCommands(services, lobbies, challenges), PlayCommands(services, host, turns),
                              InfoCommands(services, host), StatsCommands(services, host),
                              DailyCommands(services, host), ReplayCommands(services), AwayCommands(services, host),
                              SettingsCommands(services), UndoCommands(services, host),
                              NotifyCommands(services, gate))
    pyramid.add_command(player_group(services, tournaments))
    pyramid.add_command(seek_command(services, seeks, lobbies))
    pyramid.add_command(queue_command(services, seeks))
    pyramid.add_command(seasons.command())
    admin = AdminCommands(services)
    admin.add_command(admin_group(services, tournaments))
    return [pyramid, admin]
