"""🔮 Forecast as a form: the player's lines in one text field (the form ``/pyramid forecast``
takes, filled with what they have), kept on submit through the same checks."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from bot.forecasts.lines import MAX_TEXT
from engine.core.forecast import Line
from i18n import Lang

Interaction = discord.Interaction[Any]
Submit = Callable[[Interaction, str], Awaitable[None]]
#: Discord's longest text field.
FIELD_MAX = 4000


def typed(lines: Sequence[Line]) -> str:
    """Lines back in the form they are typed in, one per row."""
    return "\n".join(f"{' | '.join(line.others)} -> {line.answer}" for line in lines)


class ForecastForm(discord.ui.Modal):
    def __init__(self, game_id: int, lines: Sequence[Line], lang: Lang, submit: Submit) -> None:
        super().__init__(title=lang.tr("🔮 Forecast · game #{game}", game=game_id)[:45], timeout=15 * 60)
        self.submit = submit
        self.field: discord.ui.TextInput[Any] = discord.ui.TextInput(
            custom_id="lines", style=discord.TextStyle.paragraph, default=typed(lines)[:FIELD_MAX] or None,
            required=False, max_length=min(MAX_TEXT, FIELD_MAX),
            placeholder=lang.gettext("play B7 2,0 | play G20 3,1 -> play R40 1,0")[:100])
        self.add_item(discord.ui.Label(
            text=lang.gettext("One line each: the others' moves, then -> and yours")[:45],
            description=lang.gettext("Up to 10 lines of up to 5 moves; empty: no forecast")[:100],
            component=self.field))

    async def on_submit(self, interaction: Interaction) -> None:
        await self.submit(interaction, self.field.value or "")
