"""A challenge's ▶ Play this deal (its id carries the challenge's number)."""

from __future__ import annotations

from typing import ClassVar

from bot.discord.challenges import Challenges
from bot.discord.items.base import Component, Interaction


class PlayDealButton(Component, actions=("chal",)):
    challenges: ClassVar[Challenges]

    async def handle(self, interaction: Interaction) -> None:
        await self.challenges.play(interaction, self.cid.game_id)
