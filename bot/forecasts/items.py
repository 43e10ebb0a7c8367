"""The buttons of issue #41 on a hand card (``bot.posting.undo_cards``): ↩ Take back, the
same path as ``/pyramid undo`` for the move the card was shown after, and 🔮 Forecast, the
player's lines as a form, kept as ``/pyramid forecast`` keeps them."""

from __future__ import annotations

from typing import ClassVar

from bot.forecasts.commands import UndoCommands
from bot.interactions.items.base import Component, Interaction
from bot.interactions.replies import defer_private


class TakeBackButton(Component, actions=("undo",)):
    undo: ClassVar[UndoCommands]

    async def handle(self, interaction: Interaction) -> None:
        await defer_private(interaction)
        await self.undo.take_back(interaction, self.cid.game_id, self.cid.version)


class ForecastButton(Component, actions=("fcast",)):
    undo: ClassVar[UndoCommands]

    async def handle(self, interaction: Interaction) -> None:
        await self.undo.forecast_form(interaction, self.cid.game_id)
