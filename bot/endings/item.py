"""The buttons of a game's first and last cards: 🔐 Fair deal and 🔁 Rematch (the id carries the game)."""

from __future__ import annotations

from typing import ClassVar

from bot.endings.handlers import Endings
from bot.interactions.items.base import Component, Interaction


class EndingComponent(Component):
    endings: ClassVar[Endings]


class FairDealButton(EndingComponent, actions=("fair",)):
    async def handle(self, interaction: Interaction) -> None:
        await self.endings.fair_deal(interaction, self.cid.game_id)


class RematchButton(EndingComponent, actions=("again",)):
    async def handle(self, interaction: Interaction) -> None:
        await self.endings.rematch(interaction, self.cid.game_id)
