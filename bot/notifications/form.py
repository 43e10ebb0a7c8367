"""``/pyramid settings`` → **🔔 Notifications in a form**: the player's own notification settings in a modal,
their current choices filled in (how, the reminder interval and its cap, the heads-up, the digest's
hour); submitting saves them as ``/pyramid notify`` would. A bad number changes nothing. Per-game
overrides, muting and the time zone stay options of ``/pyramid notify`` (a modal holds five inputs)."""

from __future__ import annotations

from typing import Any, ClassVar

import discord

from bot.cards.components import button
from bot.cards.custom_ids import CustomId
from bot.interactions.items.base import Component
from bot.interactions.replies import reader, tell
from bot.notifications.command import MODE_CHOICES, describe
from bot.notifications.gate import NotificationGate
from bot.notifications.policy import INTERVALS, MODES, MOST_REPEATS, Settings
from i18n import Lang

Interaction = discord.Interaction[Any]
#: The button's action (its id names no game: 0).
FORM_ACTION = "nform"
FORM_TIMEOUT = 15 * 60


class Refused(ValueError):
    """A field that can't be taken; the message says which, in the player's language."""


def form_button(lang: Lang) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(button(CustomId(FORM_ACTION, 0, 0), lang.gettext("🔔 Notifications in a form"),
                         discord.ButtonStyle.secondary))
    return view


def _options(pairs: list[tuple[str, str]], chosen: str) -> list[discord.RadioGroupOption]:
    return [discord.RadioGroupOption(label=label[:100], value=value, default=value == chosen)
            for value, label in pairs]


def whole(text: str, low: int, high: int, field: str, lang: Lang) -> int | None:
    """A whole number from ``low`` to ``high`` as typed; empty: None."""
    text = text.strip()
    if not text:
        return None
    if not text.isdigit() or not low <= int(text) <= high:
        raise Refused(lang.tr("{field} takes a whole number from {low} to {high}, not “{text}”", field=field,
                              low=low, high=high, text=text[:20]))
    return int(text)


class NotifyForm(discord.ui.Modal):
    def __init__(self, gate: NotificationGate, current: Settings, lang: Lang) -> None:
        super().__init__(title=lang.gettext("Your notifications")[:45], timeout=FORM_TIMEOUT)
        self.gate, self.current, self.lang = gate, current, lang
        self.how: discord.ui.RadioGroup[Any] = discord.ui.RadioGroup(custom_id="how", options=_options(
            [(m, lang.gettext(MODE_CHOICES[m])) for m in MODES], current.mode))
        self.every: discord.ui.RadioGroup[Any] = discord.ui.RadioGroup(custom_id="every", options=_options(
            [(str(h), lang.gettext("off") if h == 0 else f"{h} h") for h in INTERVALS], str(current.interval_hours)))
        self.cap = discord.ui.TextInput[Any](custom_id="cap", default=str(current.cap), required=False, max_length=3)
        self.heads_up: discord.ui.RadioGroup[Any] = discord.ui.RadioGroup(custom_id="heads_up", options=_options(
            [("on", lang.gettext("on")), ("off", lang.gettext("off"))], "on" if current.heads_up else "off"))
        self.digest = discord.ui.TextInput[Any](
            custom_id="digest", required=False, max_length=3,
            default="" if current.digest_hour is None else str(current.digest_hour))
        for text, description, component in (
            (lang.gettext("How you learn it's your turn"), None, self.how),
            (lang.gettext("Remind me again every"), None, self.every),
            (lang.gettext("Reminders per turn, at most"), lang.tr("1 to {most}", most=MOST_REPEATS), self.cap),
            (lang.gettext("Tell me when I'm next"), None, self.heads_up),
            (lang.gettext("Daily digest at (local hour)"), lang.gettext("0 to 23; empty: no digest"), self.digest),
        ):
            self.add_item(discord.ui.Label(text=text[:45], description=description[:100] if description else None,
                                           component=component))

    async def on_submit(self, interaction: Interaction) -> None:
        lang = await reader(interaction, self.gate.services.languages)
        try:
            how = self.how.value or self.current.mode
            every = self.every.value or str(self.current.interval_hours)
            if how not in MODES or not every.isdigit() or int(every) not in INTERVALS:
                raise Refused(lang.gettext("Choose from the lists."))
            cap = whole(self.cap.value, 1, MOST_REPEATS, lang.gettext("Reminders per turn, at most"), lang)
            digest = whole(self.digest.value, 0, 23, lang.gettext("Daily digest at (local hour)"), lang)
        except Refused as exc:
            await tell(interaction, "❌ " + lang.tr("{reason}. Nothing was changed.", reason=exc))
            return
        fields: dict[str, Any] = {"mode": how, "interval_hours": int(every), "cap": cap or self.current.cap,
                                  "heads_up": self.heads_up.value == "on", "digest_hour": digest}
        store = self.gate.store
        user_id = interaction.user.id
        await store.save(user_id, 0, fields)
        settings = await self.gate.settings(user_id)
        await tell(interaction, "\n".join(["✅ " + lang.gettext("Saved."),
                                           *describe(settings, lang, 0, await store.settings(user_id, 0))]))


class NotifyFormButton(Component, actions=(FORM_ACTION,)):
    """🔔 Notifications in a form, under ``/pyramid settings``: the clicker's own settings (names no game)."""

    gate: ClassVar[NotificationGate]

    async def handle(self, interaction: Interaction) -> None:
        lang = await reader(interaction, self.gate.services.languages)
        current = await self.gate.settings(interaction.user.id)
        await interaction.response.send_modal(NotifyForm(self.gate, current, lang))


__all__ = ["NotifyFormButton", "form_button"]
