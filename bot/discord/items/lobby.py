"""A lobby's buttons and its "add an AI" menu, and the server settings' form button."""

from __future__ import annotations

from typing import ClassVar

from bot.discord.items.base import Component, Interaction
from bot.discord.lobbies import Lobbies
from bot.discord.settings_form import open_settings_form
from bot.services import Services


class LobbyComponent(Component):
    lobbies: ClassVar[Lobbies]


class JoinButton(LobbyComponent, actions=("join",)):
    async def handle(self, interaction: Interaction) -> None:
        await self.lobbies.join(interaction, self.cid.game_id)


class LeaveButton(LobbyComponent, actions=("leave",)):
    async def handle(self, interaction: Interaction) -> None:
        await self.lobbies.leave(interaction, self.cid.game_id)


class StartButton(LobbyComponent, actions=("start",)):
    async def handle(self, interaction: Interaction) -> None:
        await self.lobbies.start(interaction, self.cid.game_id)


class CancelButton(LobbyComponent, actions=("cancel",)):
    async def handle(self, interaction: Interaction) -> None:
        await self.lobbies.cancel(interaction, self.cid.game_id)


class AddAiSelect(LobbyComponent, actions=("addai",)):
    async def handle(self, interaction: Interaction) -> None:
        await self.lobbies.add_ai(interaction, self.cid.game_id, self.args.value or "")


class OptionsButton(LobbyComponent, actions=("lopts",)):
    async def handle(self, interaction: Interaction) -> None:
        await self.lobbies.options_form(interaction, self.cid.game_id)


class SettingsFormButton(Component, actions=("setform",)):
    """✏️ Change in a form, under ``/pyramid-admin settings``."""

    services: ClassVar[Services]

    async def handle(self, interaction: Interaction) -> None:
        await open_settings_form(self.services, interaction)
