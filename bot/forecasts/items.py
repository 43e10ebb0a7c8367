"""↩ Take back on the mover's hand card (``bot.play.posting.undo_cards.take_back_button``):
the same path as ``/pyramid undo``, for the move the card was shown after."""

from __future__ import annotations

from typing import ClassVar

from bot.discord.items.base import Component, Interaction
from bot.discord.replies import defer_private
from bot.forecasts.commands import UndoCommands


class TakeBackButton(Component, actions=("undo",)):
    undo: ClassVar[UndoCommands]

    async def handle(self, interaction: Interaction) -> None:
        await defer_private(interaction)
        await self.undo.take_back(interaction, self.cid.game_id, self.cid.version)
