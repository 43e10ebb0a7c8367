"""Every custom id no other kind answers: a component of an older bot, a damaged or a
forged id. It gets a friendly answer, never Discord's silent failure."""

from __future__ import annotations

from bot.cards.custom_ids import UNRECOGNISED
from bot.interactions.items.base import Component, Interaction
from bot.interactions.replies import tell


class UnknownComponent(Component):
    """Bound with the template of every id the other kinds leave (``custom_ids.none_of``)."""

    async def handle(self, interaction: Interaction) -> None:
        await tell(interaction, f"❌ {(await self.lang(interaction)).gettext(UNRECOGNISED)}")
