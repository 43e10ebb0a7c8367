"""Command names, descriptions, option names and choice names in every language we
speak, as Discord shows them in its command picker.

discord.py hands each of a command's strings to a :class:`app_commands.Translator`
when the tree is synced (one call per Discord locale) and sends what it returns as
the ``name_localizations`` / ``description_localizations`` Discord stores. Ours looks
the English up in the gettext catalogues (:mod:`i18n`), so command texts are managed
like every other message: written as ``app_commands.locale_str("…")`` where the
command is declared (Babel extracts them) and translated in the PO files.

Discord refuses a whole sync over one bad localization, so every translation is
checked before it is returned: a name must be lowercase letters, digits, ``-`` or
``_`` (1-32), a description 1-100 characters. One that isn't is left out (Discord
then shows the English), and logged.

Parameter names come from the callbacks' signatures (and the games' options models),
where Babel can't see them; :data:`PARAMETER_NAMES` marks them for extraction.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where
from discord.app_commands import locale_str

from i18n import Lang, Texts, language_of

log = logging.getLogger(__name__)

#: Discord's rule for chat command and option names (``\p{L}``/``\p{N}``: any letter
#: or digit; Discord also wants them lowercase).
NAME = re.compile(r"^[-_\w]{1,32}$")
MAX_DESCRIPTION = 100
MAX_CHOICE = 100
NAMES = frozenset({Where.command_name, Where.group_name, Where.parameter_name})
DESCRIPTIONS = frozenset({Where.command_description, Where.group_description, Where.parameter_description})

#: A ``locale_str`` extra: ``fill(gettext) -> str`` builds the text in a language (a
#: description composed of several messages, such as ``/pyramid new``'s options).
FILL = "fill"
#: A ``locale_str`` extra: the text is the same in every language (a language's own name).
FIXED = "fixed"

#: Option names as the commands' callbacks (and the games' options models) spell them.
#: discord.py hands each one to the translator; listed here so Babel extracts them.
PARAMETER_NAMES = (
    locale_str("game"), locale_str("move"), locale_str("player"), locale_str("min_games"), locale_str("show"),
    locale_str("channel"), locale_str("enabled"), locale_str("challenge"), locale_str("text"),
    # /pyramid-admin settings
    locale_str("threads"), locale_str("reminder_hours"), locale_str("timeout_hours"), locale_str("on_timeout"),
    locale_str("max_open_games"), locale_str("away_days"), locale_str("away_window_days"), locale_str("language"),
    locale_str("increment_hours"),
    # the games' options (engine options models), offered by /pyramid new
    locale_str("curse"), locale_str("turn_limit"), locale_str("undo"), locale_str("winnable_only"),
    locale_str("target"), locale_str("mode"), locale_str("size"), locale_str("rounds"),
    # /pyramid away, back, quiet and settings (bot.away.command, .settings)
    locale_str("away"), locale_str("back"), locale_str("quiet"), locale_str("days"), locale_str("from"),
    locale_str("to"), locale_str("timezone"), locale_str("off"), locale_str("settings"), locale_str("preview"),
)

#: Choice names discord.py makes from ``Literal`` options (the value is the name).
CHOICE_NAMES = (
    locale_str("today"), locale_str("streaks"),  # /pyramid daily show:
    locale_str("ai"), locale_str("forfeit"),  # /pyramid-admin settings on_timeout:
)


def valid_name(text: str) -> bool:
    """Discord accepts ``text`` as a chat command's or an option's name."""
    return bool(NAME.match(text)) and text == text.lower()


def composed(english: str, fill: Callable[[Callable[[str], str]], str]) -> locale_str:
    """A command text built of several messages: ``english`` as Discord's default, and
    ``fill(gettext)`` to build it in another language."""
    return locale_str(english, **{FILL: fill})


def formatted(template: str, /, **args: Any) -> locale_str:
    """A command text with fields: ``formatted(N_("… (default {n})"), n=3)``."""
    return composed(template.format(**args), lambda gettext: _format(gettext(template), template, args))


def fixed(text: str) -> locale_str:
    """A text shown the same in every language."""
    return locale_str(text, **{FIXED: True})


def _format(translated: str, template: str, args: Mapping[str, Any]) -> str:
    try:
        return translated.format(**args)
    except (IndexError, KeyError, ValueError):
        return template.format(**args)


class CatalogueTranslator(app_commands.Translator):
    """Translates command texts from the gettext catalogues (None: Discord shows the English)."""

    def __init__(self, texts: Texts) -> None:
        self.texts = texts

    async def translate(self, string: locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        return self.localize(string, locale, context.location)

    def localize(self, string: locale_str, locale: object, where: Where) -> str | None:
        """``string`` for a client in ``locale`` at ``where`` (a name, a description, a
        choice), or None when it is the English or would not be valid there."""
        language = language_of(locale)
        if not language or language == self.texts.default or string.extras.get(FIXED):
            return None
        lang = self.texts.lang(language)
        text = self.text(string, lang)
        if text == string.message:
            return None
        if where in NAMES:
            if valid_name(text):
                return text
        elif where in DESCRIPTIONS:
            if 1 <= len(text) <= MAX_DESCRIPTION:
                return text
        elif 1 <= len(text) <= MAX_CHOICE:
            return text
        log.warning("the %s %s of %r is no valid %s; Discord shows the English", lang.code, where.name,
                    string.message, where.name)
        return None

    @staticmethod
    def text(string: locale_str, lang: Lang) -> str:
        fill = string.extras.get(FILL)
        if callable(fill):
            return str(fill(lang.gettext))
        return lang.gettext(string.message)
