"""🔕 No more pings this turn: the button on a repeated reminder (``pb:hush:<game>:<version>``).

Only the player whose turn it is may press it (anyone else is told it is not theirs), and only
while that turn runs; it stops the repeated reminders of this turn. The clock's own low-bank
reminder still comes, and the clock runs on."""

from __future__ import annotations

from typing import ClassVar

from bot.core.errors import PlayError
from bot.interactions.access import seen_by
from bot.interactions.items.base import Component, Interaction
from bot.interactions.replies import defer_private, explain, tell
from bot.notifications.gate import STOP_ACTION, NotificationGate
from i18n import N_

NOT_YOURS = N_("That button is for the player whose turn it is.")


class NoMorePingsButton(Component, actions=(STOP_ACTION,)):
    gate: ClassVar[NotificationGate]

    async def handle(self, interaction: Interaction) -> None:
        await defer_private(interaction)
        services = self.gate.services
        lang = await services.languages.for_interaction(interaction)
        cid = self.cid
        record = await services.store.game_record(cid.game_id)
        if record is None:
            await tell(interaction, "❌ " + lang.gettext("That game doesn't exist."))
            return
        try:
            await seen_by(services.store, record, interaction)  # the one rule, as every click
            session = await services.sessions.load(record.id)
        except PlayError as exc:
            await tell(interaction, "❌ " + explain(exc, lang))
            return
        seat = session.seat(session.to_act) if session.to_act is not None else None
        if seat is None or seat.user_id != interaction.user.id:
            await tell(interaction, "❌ " + lang.gettext(NOT_YOURS))
            return
        if session.version != cid.version:
            await tell(interaction, lang.gettext("That turn is over; nothing to stop."))
            return
        await self.gate.stop(interaction.user.id, record.id, cid.version)
        await tell(interaction, "🔕 " + lang.tr(
            "No more reminders this turn in game #{number}. The clock's own reminder still comes when your bank "
            "runs low, and the clock keeps running.", number=record.id))


__all__ = ["NoMorePingsButton"]
