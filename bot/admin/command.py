"""``/pyramid-admin``: server settings and a permissions check.

A top-level command of its own, because Discord applies ``default_member_permissions``
per top-level command (discord.py drops it on a subcommand), so only members who can
manage the server see it."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.admin.form import settings_form_button
from bot.admin.server_settings import LANGUAGE_NAMES, SettingsRefused, change_settings, describe
from bot.core.services import Services
from bot.daily.handlers import set_results_channel
from bot.forecasts.commands import set_undo_mode
from bot.interactions.access import manages_server
from bot.interactions.command_sync import SERVER_ONLY_CONTEXTS, SERVER_ONLY_INSTALLS
from bot.interactions.permission_checks import permission_report, place_here
from bot.interactions.replies import reader, tell
from bot.interactions.translator import fixed, formatted
from bot.store.records import (
    AWAY_DAYS,
    AWAY_WINDOW_DAYS,
    INCREMENT_HOURS,
    MAX_OPEN_GAMES,
    REMINDER_HOURS,
    TIMEOUT_HOURS,
)
from i18n import N_

Interaction = discord.Interaction[Any]
#: ``language:``'s choices, each language named in its own words.
LANGUAGE_CHOICES = [app_commands.Choice(name=fixed(name), value=code) for code, name in LANGUAGE_NAMES.items()]


def bounded(template: str, bounds: tuple[float, float]) -> locale_str:
    """An option's description naming its bounds (``{low}``, ``{high}``), filled in from the one
    place they are declared (``bot.store.records``), as the option's min/max and the check are."""
    return formatted(template, low=bounds[0], high=bounds[1])


class AdminCommands(app_commands.Group, name=locale_str("pyramid-admin"),
                    description=locale_str("Pyramid Bot server administration"),
                    default_permissions=discord.Permissions(manage_guild=True)):
    def __init__(self, services: Services) -> None:
        # Servers only: installed to a server and used there (never in DMs or through a user's install).
        super().__init__(allowed_contexts=SERVER_ONLY_CONTEXTS, allowed_installs=SERVER_ONLY_INSTALLS)
        self.services = services

    @app_commands.command(name=locale_str("settings"),
                          description=locale_str("Server settings for Pyramid Bot (admins)"))
    @app_commands.describe(
        threads=locale_str("Play each game in its own thread (on) or in the channel itself (off)"),
        reminder_hours=bounded(N_("Remind the player once a turn has used this many hours of a full bank "
                                  "({low:g}-{high:g})"), REMINDER_HOURS),
        timeout_hours=bounded(N_("The time bank: each seat starts with this many hours; at zero the timeout "
                                 "({low:g}-{high:g})"), TIMEOUT_HOURS),
        increment_hours=bounded(N_("Hours a move adds to the seat's bank, never past the full bank ({low:g}-{high:g})"),
                                INCREMENT_HOURS),
        on_timeout=locale_str("What happens on timeout: an AI takes the seat, or the player forfeits"),
        max_open_games=bounded(N_("How many lobbies and running games one member may have opened at once "
                                  "({low}-{high})"), MAX_OPEN_GAMES),
        away_days=bounded(N_("How many days a member may be away (/pyramid away) within the window "
                             "({low}-{high}; 0: none)"), AWAY_DAYS),
        away_window_days=bounded(N_("The window the away days are counted in, in days ({low}-{high})"),
                                 AWAY_WINDOW_DAYS),
        language=locale_str("The language of what the channel reads: lobbies, boards, notices"),
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def settings(
        self,
        interaction: Interaction,
        threads: bool | None = None,
        reminder_hours: app_commands.Range[float, REMINDER_HOURS[0], REMINDER_HOURS[1]] | None = None,
        timeout_hours: app_commands.Range[float, TIMEOUT_HOURS[0], TIMEOUT_HOURS[1]] | None = None,
        on_timeout: Literal["ai", "forfeit"] | None = None,
        increment_hours: app_commands.Range[float, INCREMENT_HOURS[0], INCREMENT_HOURS[1]] | None = None,
        max_open_games: app_commands.Range[int, MAX_OPEN_GAMES[0], MAX_OPEN_GAMES[1]] | None = None,
        away_days: app_commands.Range[int, AWAY_DAYS[0], AWAY_DAYS[1]] | None = None,
        away_window_days: app_commands.Range[int, AWAY_WINDOW_DAYS[0], AWAY_WINDOW_DAYS[1]] | None = None,
        language: app_commands.Choice[str] | None = None,
    ) -> None:
        lang = await reader(interaction, self.services.languages)
        if interaction.guild_id is None:
            await tell(interaction, lang.tr("Settings belong to a server; use this command in one."))
            return
        if not manages_server(interaction):
            await tell(interaction, "❌ " + lang.tr("Only members who can manage the server can change these "
                                                    "settings."))
            return
        store, defaults = self.services.store, self.services.settings
        current = await store.guild_settings(interaction.guild_id)
        given: dict[str, Any] = {
            "use_threads": threads, "reminder_hours": reminder_hours, "timeout_hours": timeout_hours,
            "timeout_action": on_timeout, "increment_hours": increment_hours, "max_open_games": max_open_games,
            "away_days": away_days,
            "away_window_days": away_window_days, "language": language.value if language is not None else None,
        }
        changes = {name: value for name, value in given.items() if value is not None}
        try:
            updated = change_settings(current, changes, defaults, lang)
        except SettingsRefused as exc:
            await tell(interaction, "❌ " + lang.tr("{reason}. Nothing was changed.", reason=exc))
            return
        if changes:
            await store.save_guild_settings(updated)
        verb = lang.tr("Saved") if changes else lang.tr("Current settings")
        # typed without options: the settings, and a form to change them with the current choices filled in
        view = settings_form_button(lang) if not changes else discord.utils.MISSING
        await tell(interaction, f"⚙️ {verb}: {describe(updated, defaults, lang)}", view=view)

    @app_commands.command(name=locale_str("check"),
                          description=locale_str("Which permissions Pyramid Bot has and lacks in this channel "
                                                 "(admins)"))
    async def check(self, interaction: Interaction) -> None:
        lang = await reader(interaction, self.services.languages)
        if interaction.guild_id is None:
            await tell(interaction, lang.tr("Permissions belong to a server channel; use this command in one."))
            return
        place = await place_here(interaction, self.services.store)
        await tell(interaction, permission_report(interaction, place, lang))

    @app_commands.command(name=locale_str("daily"),
                          description=locale_str("Post the daily deal's results in a channel, or stop (admins)"))
    @app_commands.describe(
        channel=locale_str("The channel for the daily deal's results (one message a day, scores only)"),
        enabled=locale_str("Post them there (on, the default) or stop (off)"))
    async def daily(self, interaction: Interaction, channel: discord.TextChannel, enabled: bool = True) -> None:
        await set_results_channel(self.services, interaction, channel, enabled)

    @app_commands.command(name=locale_str("undo"),
                          description=locale_str("Whether players may take back their last move (admins)"))
    @app_commands.describe(mode=locale_str("off: never; casual: not in rated games or shared deals; all: every game"))
    async def undo(self, interaction: Interaction, mode: Literal["off", "casual", "all"] | None = None) -> None:
        await set_undo_mode(self.services, interaction, mode)
