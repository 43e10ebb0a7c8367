"""A lobby's options as a form: its opener clicks **⚙️ Options** and gets a modal built
from the game's options model (:func:`engine.core.options.offered`): a checkbox for a
yes/no, a radio group for a choice, a text field for a number, each with the current
value filled in. ``/pyramid new``'s options stay for those who type them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.cards.cards import note
from bot.games.presenter import Presenter
from engine.core.options import Offer, offered
from i18n import Lang

Interaction = discord.Interaction[Any]
#: A modal holds five inputs.
MAX_INPUTS = 5
#: Radio groups take 2 to 10 options; a longer choice is a select menu.
RADIO_RANGE = (2, 10)


class OptionRefused(ValueError):
    """A typed value the option does not take; the message says why, for the opener."""


def _input(offer: Offer, current: Any, lang: Lang) -> discord.ui.Item[Any]:
    if offer.kind == "bool":
        return discord.ui.Checkbox(custom_id=offer.name, default=bool(current))
    if offer.kind == "choice" and RADIO_RANGE[0] <= len(offer.choices) <= RADIO_RANGE[1]:
        return discord.ui.RadioGroup(custom_id=offer.name, required=offer.default is not None, options=[
            discord.RadioGroupOption(label=lang.gettext(str(c))[:100], value=str(c), default=c == current)
            for c in offer.choices])
    if offer.kind == "choice":
        return discord.ui.Select(custom_id=offer.name, options=[
            discord.SelectOption(label=lang.gettext(str(c))[:100], value=str(c), default=c == current)
            for c in offer.choices[:25]])
    bounds = f"{offer.minimum}–{offer.maximum}" if offer.minimum is not None and offer.maximum is not None else ""
    return discord.ui.TextInput(custom_id=offer.name, default="" if current is None else str(current),
                                required=False, max_length=12, placeholder=bounds or None)


def _value(offer: Offer, item: discord.ui.Item[Any], lang: Lang) -> Any:
    """What the opener chose for ``offer`` (None: left empty, the game's default)."""
    if isinstance(item, discord.ui.Checkbox):
        return bool(item.value)
    if isinstance(item, discord.ui.RadioGroup):
        raw: str | None = item.value
    elif isinstance(item, discord.ui.Select):
        raw = str(item.values[0]) if item.values else None
    else:
        assert isinstance(item, discord.ui.TextInput)
        text = item.value.strip()
        if not text:
            return None
        try:
            return int(text)
        except ValueError:
            raise OptionRefused(lang.tr("{option} takes a whole number, not “{text}”",
                                        option=lang.gettext(offer.label or offer.name), text=text[:20])) from None
    return next((c for c in offer.choices if str(c) == raw), None)


Submit = Callable[[Interaction, dict[str, Any]], Awaitable[None]]


class LobbyOptionsForm(discord.ui.Modal):
    """The form; ``submit`` gets the options chosen (those left empty are left out)."""

    def __init__(self, presenter: Presenter, current: dict[str, Any], lang: Lang, submit: Submit) -> None:
        super().__init__(title=lang.tr("Options of this game")[:45], timeout=15 * 60)
        self.lang, self.submit = lang, submit
        self.inputs: list[tuple[Offer, discord.ui.Item[Any]]] = []
        for offer in offered(presenter.game.options_model)[:MAX_INPUTS]:
            value = current.get(offer.name)
            item = _input(offer, offer.default if value is None else value, lang)
            self.inputs.append((offer, item))
            self.add_item(discord.ui.Label(text=lang.gettext(offer.label or offer.name)[:45],
                                           description=lang.gettext(offer.description)[:100] or None,
                                           component=item))

    async def on_submit(self, interaction: Interaction) -> None:
        chosen: dict[str, Any] = {}
        try:
            for offer, item in self.inputs:
                value = _value(offer, item, self.lang)
                if value is not None:
                    chosen[offer.name] = value
        except OptionRefused as exc:
            await interaction.response.send_message(view=note(f"❌ {exc}"), ephemeral=True)
            return
        await self.submit(interaction, chosen)
