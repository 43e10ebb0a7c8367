"""``/pyramid-admin settings`` as a form: typed without options, the command shows the
server's settings with **✏️ Change in a form**, which opens a modal with the current
choices filled in (radio groups for the choices, text fields for the hours); typed with
options, it saves them at once as before.

The form covers what an admin changes most (threads or channel, reminder and timeout,
what a timeout does, the channel's language); the open-game cap and the away budget stay
options of the command (a modal holds five inputs)."""

from __future__ import annotations

import math
from typing import Any

import discord

from bot.admin.server_settings import LANGUAGE_NAMES, SettingsRefused, change_settings, describe
from bot.cards.components import button
from bot.cards.custom_ids import CustomId
from bot.core.services import Services
from bot.interactions.access import manages_server
from bot.interactions.replies import reader, tell
from bot.store import GuildSettings
from bot.store.records import REMINDER_HOURS, TIMEOUT_HOURS
from i18n import Lang

Interaction = discord.Interaction[Any]
#: How long an opened form waits for its submission (Discord keeps the token 15 minutes).
FORM_TIMEOUT = 15 * 60


def settings_form_button(lang: Lang) -> discord.ui.View:
    """The button under the settings that opens the form (its id names no game)."""
    view = discord.ui.View(timeout=None)
    view.add_item(button(CustomId("setform", 0, 0), lang.tr("✏️ Change in a form"), discord.ButtonStyle.primary))
    return view


async def open_settings_form(services: Services, interaction: Interaction) -> None:
    """✏️ Change in a form: for members who manage the server, in a server."""
    lang = await reader(interaction, services.languages)
    if interaction.guild_id is None or not manages_server(interaction):
        await tell(interaction, "❌ " + lang.tr("Only members who can manage the server can change these settings."))
        return
    current = await services.store.guild_settings(interaction.guild_id)
    await interaction.response.send_modal(ServerSettingsForm(services, current, lang))


def _hours(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


def _hint(bounds: tuple[float, float], lang: Lang) -> str:
    """A field's bounds as its hint, from where they are declared (``bot.store.records``)."""
    return lang.tr("{low:g} to {high:g}; empty for the bot's default", low=bounds[0], high=bounds[1])


def _choices(pairs: list[tuple[str, str]], chosen: str) -> list[discord.RadioGroupOption]:
    return [discord.RadioGroupOption(label=label[:100], value=value, default=value == chosen)
            for value, label in pairs]


class ServerSettingsForm(discord.ui.Modal):
    def __init__(self, services: Services, current: GuildSettings, lang: Lang) -> None:
        super().__init__(title=lang.tr("Pyramid Bot server settings")[:45], timeout=FORM_TIMEOUT)
        self.services, self.current, self.lang = services, current, lang
        defaults = services.settings
        self.threads: discord.ui.RadioGroup[Any] = discord.ui.RadioGroup(custom_id="threads", options=_choices(
            [("on", lang.tr("In a thread of its own")), ("off", lang.tr("In the channel itself"))],
            "on" if current.use_threads else "off"))
        self.reminder_input = discord.ui.TextInput[Any](
            custom_id="reminder_hours", default=_hours(current.reminder_hours), required=False, max_length=10,
            placeholder=lang.tr("empty: the bot's {hours} hours", hours=f"{defaults.reminder_hours:g}")[:100])
        self.timeout_input = discord.ui.TextInput[Any](
            custom_id="timeout_hours", default=_hours(current.timeout_hours), required=False, max_length=10,
            placeholder=lang.tr("empty: the bot's {hours} hours", hours=f"{defaults.timeout_hours:g}")[:100])
        self.action_input: discord.ui.RadioGroup[Any] = discord.ui.RadioGroup(custom_id="on_timeout", options=_choices(
            [("ai", lang.tr("An AI takes the seat")), ("forfeit", lang.tr("The player forfeits"))],
            current.timeout_action))
        self.language: discord.ui.RadioGroup[Any] = discord.ui.RadioGroup(custom_id="language", options=_choices(
            list(LANGUAGE_NAMES.items()), current.language or "en"))
        for text, description, component in (
            (lang.tr("Where each game is played"), None, self.threads),
            (lang.tr("Reminder after (hours)"), _hint(REMINDER_HOURS, lang), self.reminder_input),
            (lang.tr("Time bank (hours)"), _hint(TIMEOUT_HOURS, lang), self.timeout_input),
            (lang.tr("When the bank is empty"), None, self.action_input),
            (lang.tr("What the channel reads"), None, self.language),
        ):
            self.add_item(discord.ui.Label(text=text[:45], description=description[:100] if description else None,
                                           component=component))

    async def on_submit(self, interaction: Interaction) -> None:
        lang = await reader(interaction, self.services.languages)
        try:
            changes: dict[str, Any] = {
                "use_threads": self.threads.value != "off",
                "reminder_hours": self._parse(self.reminder_input.value, lang.tr("Reminder after (hours)"), lang),
                "timeout_hours": self._parse(self.timeout_input.value, lang.tr("Time bank (hours)"), lang),
                "timeout_action": self.action_input.value or self.current.timeout_action,
                "language": self.language.value or self.current.language,
            }
            updated = change_settings(self.current, changes, self.services.settings, lang)
        except SettingsRefused as exc:
            await tell(interaction, "❌ " + lang.tr("{reason}. Nothing was changed.", reason=exc))
            return
        if updated != self.current:
            await self.services.store.save_guild_settings(updated)
        await tell(interaction, f"⚙️ {lang.tr('Saved')}: {describe(updated, self.services.settings, lang)}")

    @staticmethod
    def _parse(text: str, field: str, lang: Lang) -> float | None:
        """Hours as typed (a comma works as a decimal point); empty: the bot's default."""
        text = text.strip().replace(",", ".")
        if not text:
            return None
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise SettingsRefused(lang.tr("{field} takes a number of hours, not “{text}”", field=field,
                                          text=text[:20]))
        return value
