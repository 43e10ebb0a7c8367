"""The ✅ Confirm and ↩ Back buttons of a move preview (``bot.turns.previews``)."""

from __future__ import annotations

from typing import ClassVar

from bot.interactions.items.base import Component, Interaction
from bot.turns.handlers import acknowledge
from bot.turns.previews import BACK, CONFIRM, Previews


class PreviewButton(Component, actions=(CONFIRM, BACK)):
    """The id carries the game, the board version the preview was made for and the move."""

    previews: ClassVar[Previews]

    async def callback(self, interaction: Interaction) -> None:
        """Answered at once, as every turn item (:func:`bot.turns.handlers.acknowledge`)."""
        await acknowledge(interaction)
        await super().callback(interaction)

    async def handle(self, interaction: Interaction) -> None:
        cid = self.cid
        if cid.action == CONFIRM:
            await self.previews.confirm(interaction, cid)
        else:
            await self.previews.back(interaction, cid)
