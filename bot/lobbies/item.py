"""A lobby's buttons and its "add an AI" menu."""

from __future__ import annotations

from typing import ClassVar

from bot.interactions.items.base import Component, Interaction
from bot.lobbies.handlers import Lobbies


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
