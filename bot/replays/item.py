"""The ⏮ ◀ ▶ ⏭ buttons of ``/pyramid replay`` (the id carries the game and the move to show)."""

from __future__ import annotations

from typing import ClassVar

from bot.interactions.items.base import Component, Interaction
from bot.replays.handlers import ACTION, ReplayViewer


class ReplayStepButton(Component, actions=(ACTION,)):
    viewer: ClassVar[ReplayViewer]

    async def handle(self, interaction: Interaction) -> None:
        await self.viewer.step(interaction, self.cid)
