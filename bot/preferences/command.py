"""``/pyramid settings``: a player's own choices, which follow them to every server:
whether they see a move before it is played (``preview``) and the language of what
the bot tells them privately (``language``; "auto" follows their Discord client).

Not ``/pyramid-admin settings``, which is the server's. The answer is private, in
the player's language (the new one, when they just chose it)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.core.services import Services
from bot.interactions.replies import defer_private, tell
from bot.notifications.form import form_button
from bot.store.players import Language, PlayerPrefs
from i18n import N_, Lang

Interaction = discord.Interaction[Any]
#: The ``language`` option's choices; "auto" goes back to following Discord.
AUTO = "auto"
LANGUAGES: dict[str, Language] = {"en": "en", "de": "de"}


class SettingsCommands:
    def __init__(self, services: Services) -> None:
        self.services = services

    def commands(self) -> list[app_commands.Command[Any, ..., Any]]:
        return [app_commands.Command(
            name="settings", description=N_("Your own settings: see moves before you play them, and your language"),
            callback=self.settings)]

    @app_commands.describe(
        preview=N_("Show the board after your move, with Confirm and Back, before it is played"),
        language=N_("The language of the bot's messages to you (auto: your Discord language)"),
    )
    @app_commands.choices(language=[
        app_commands.Choice(name=N_("auto"), value=AUTO),
        app_commands.Choice(name="English", value="en"),
        app_commands.Choice(name="Deutsch", value="de"),
    ])
    async def settings(self, interaction: Interaction, preview: bool | None = None,
                       language: app_commands.Choice[str] | None = None) -> None:
        await defer_private(interaction)
        players, user_id = self.services.players, interaction.user.id
        chosen = None if language is None else language.value
        if chosen is not None and chosen != AUTO and chosen not in LANGUAGES:  # a forged interaction
            chosen = None
        if preview is None and chosen is None:
            prefs = await players.prefs(user_id)
            lang = await self.services.languages.for_interaction(interaction)
            await tell(interaction, describe(prefs, lang, self.services), view=form_button(lang))  # 🔔 notifications
            return
        prefs = await players.choose(
            user_id, preview=preview,
            language="keep" if chosen is None else (None if chosen == AUTO else LANGUAGES[chosen]))
        lang = await self.services.languages.for_interaction(interaction)
        await tell(interaction, "✅ " + lang.tr("Saved.") + " " + describe(prefs, lang, self.services))


def describe(prefs: PlayerPrefs, lang: Lang, services: Services) -> str:
    """A player's settings in words, with how to change them."""
    name = services.languages.choice_name(lang.code)
    if prefs.language is not None:
        language = lang.tr("Language: **{language}** (your choice).", language=name)
    else:
        language = lang.tr("Language: **auto**, following your Discord client (now {language}).", language=name)
    return "\n".join([
        "⚙️ " + lang.tr("**Your settings**, the same on every server:"),
        "• " + (lang.tr("See before you commit: **on**. A move you pick first shows the board as it will be, "
                        "with **✅ Confirm** and **↩ Back**.") if prefs.preview else
                lang.tr("See before you commit: **off**. Moves you pick are played at once; turn it on to see the "
                        "board as it will be first, with **✅ Confirm** and **↩ Back**.")),
        "• " + language,
        lang.tr("Change them with `/pyramid settings preview:` and `/pyramid settings language:`."),
    ])
