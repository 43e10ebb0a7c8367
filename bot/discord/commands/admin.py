"""``/pyramid-admin``: server settings and a permissions check.

A top-level command of its own, because Discord applies ``default_member_permissions``
per top-level command (discord.py drops it on a subcommand), so only members who can
manage the server see it."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands

from bot.discord.daily import set_results_channel
from bot.discord.permission_checks import permission_report, place_here
from bot.discord.replies import tell
from bot.server_settings import SettingsRefused, change_settings, describe
from bot.services import Services

Interaction = discord.Interaction[Any]


class AdminCommands(app_commands.Group, name="pyramid-admin", description="Pyramid Bot server administration",
                    default_permissions=discord.Permissions(manage_guild=True), guild_only=True):
    def __init__(self, services: Services) -> None:
        super().__init__()
        self.services = services

    @app_commands.command(name="settings", description="Server settings for Pyramid Bot (admins)")
    @app_commands.describe(
        threads="Play each game in its own thread (on) or in the channel itself (off)",
        reminder_hours="Nudge the player to move after this many idle hours (1-720)",
        timeout_hours="Hand the seat over after this many idle hours (1-2160, after the reminder)",
        on_timeout="What happens on timeout: an AI takes the seat, or the player forfeits",
        max_open_games="How many lobbies and running games one member may have opened at once (1-25)",
    )
    async def settings(
        self,
        interaction: Interaction,
        threads: bool | None = None,
        reminder_hours: app_commands.Range[float, 1.0, 720.0] | None = None,
        timeout_hours: app_commands.Range[float, 1.0, 2160.0] | None = None,
        on_timeout: Literal["ai", "forfeit"] | None = None,
        max_open_games: app_commands.Range[int, 1, 25] | None = None,
    ) -> None:
        if interaction.guild_id is None:
            await tell(interaction, "Settings belong to a server; use this command in one.")
            return
        perms = interaction.permissions
        if not (perms.manage_guild or perms.administrator):
            await tell(interaction, "❌ Only members who can manage the server can change these settings.")
            return
        store, defaults = self.services.store, self.services.settings
        current = await store.guild_settings(interaction.guild_id)
        changes: dict[str, Any] = {}
        if threads is not None:
            changes["use_threads"] = threads
        if reminder_hours is not None:
            changes["reminder_hours"] = reminder_hours
        if timeout_hours is not None:
            changes["timeout_hours"] = timeout_hours
        if on_timeout is not None:
            changes["timeout_action"] = on_timeout
        if max_open_games is not None:
            changes["max_open_games"] = max_open_games
        try:
            updated = change_settings(current, changes, defaults)
        except SettingsRefused as exc:
            await tell(interaction, f"❌ {exc}. Nothing was changed.")
            return
        if changes:
            await store.save_guild_settings(updated)
        verb = "Saved" if changes else "Current settings"
        await tell(interaction, f"⚙️ {verb}: {describe(updated, defaults)}")

    @app_commands.command(name="check",
                          description="Which permissions Pyramid Bot has and lacks in this channel (admins)")
    async def check(self, interaction: Interaction) -> None:
        if interaction.guild_id is None:
            await tell(interaction, "Permissions belong to a server channel; use this command in one.")
            return
        place = await place_here(interaction, self.services.store)
        await tell(interaction, permission_report(interaction, place))

    @app_commands.command(name="daily", description="Post the daily deal's results in a channel, or stop (admins)")
    @app_commands.describe(channel="The channel for the daily deal's results (one message a day, scores only)",
                           enabled="Post them there (on, the default) or stop (off)")
    async def daily(self, interaction: Interaction, channel: discord.TextChannel, enabled: bool = True) -> None:
        await set_results_channel(self.services, interaction, channel, enabled)
