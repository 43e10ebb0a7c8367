"""A challenge's ▶ Play this deal (its id carries the challenge's number)."""

from __future__ import annotations

from typing import ClassVar

from bot.interactions.items.base import Component, Interaction
from bot.lobbies.challenges import Challenges


class PlayDealButton(Component, actions=("chal",)):
    challenges: ClassVar[Challenges]

    async def handle(self, interaction: Interaction) -> None:
        await self.challenges.play(interaction, self.cid.game_id)
