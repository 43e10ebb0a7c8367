"""Loading the PO catalogues into gettext translations, and one language's texts.

PO files are compiled in memory at load (Babel writes the MO bytes that the standard
library's :class:`gettext.GNUTranslations` reads), so no compiled file is kept in the
repository and a PO edit takes effect at the next start.
"""

from __future__ import annotations

import gettext as _gettext
import io
import logging
import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

log = logging.getLogger(__name__)

LOCALE_DIR = Path(__file__).with_name("locale")
_LANGUAGES = ("en", "de")


def language_of(locale: object) -> str:
    """The supported language for a Discord locale (``"de"``, ``"en-US"``, a
    :class:`discord.Locale`), or ``""`` when it is none of ours."""
    text = str(getattr(locale, "value", locale) or "").strip().lower().replace("_", "-")
    base = text.split("-", 1)[0]
    return base if base in _LANGUAGES else ""


def placeholders(text: str) -> frozenset[str]:
    """The ``str.format`` fields of ``text`` (``{0}``, ``{name}``, ``{n:g}`` → name)."""
    fields: set[str] = set()
    for _literal, name, _spec, _conversion in string.Formatter().parse(text):
        if name is not None:
            fields.add(name.split(".", 1)[0].split("[", 1)[0])
    return frozenset(fields)


def read_catalogue(files: Iterable[Path], language: str) -> Catalog:
    """All messages of ``files`` (PO files of one language) in one catalogue. A message
    translated differently in two files keeps the first and is logged."""
    merged = Catalog(locale=language)
    for path in sorted(files):
        with path.open("rb") as handle:
            part = read_po(handle, locale=language)
        for message in part:
            if not message.id or not message.string or message.fuzzy:
                continue
            old = merged.get(message.id, message.context)
            if old is not None and old.string and old.string != message.string:
                log.warning("%s translates %r differently from an earlier file; the first is kept", path, message.id)
                continue
            merged.add(message.id, message.string, context=message.context)
    return merged


def compile_catalogue(catalogue: Catalog) -> _gettext.GNUTranslations:
    buffer = io.BytesIO()
    write_mo(buffer, catalogue)
    buffer.seek(0)
    return _gettext.GNUTranslations(buffer)


@dataclass(frozen=True)
class Lang:
    """One language's texts. ``tr`` translates, then fills ``str.format`` fields; a
    translation whose fields don't fit falls back to the English (and is logged), so a
    slip in a catalogue never costs a player their message."""

    code: str
    translations: _gettext.NullTranslations = field(default_factory=_gettext.NullTranslations, compare=False)
    #: What every translated text goes through last (the bot: commands named become command mentions).
    finish: Callable[[str], str] | None = field(default=None, compare=False)

    def gettext(self, msgid: str) -> str:
        return self.translations.gettext(msgid) if msgid else msgid

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.translations.ngettext(singular, plural, n)

    def tr(self, msgid: str, /, *args: object, **kwargs: object) -> str:
        return self._finished(self._fill(self.gettext(msgid), msgid, args, kwargs))

    def trn(self, singular: str, plural: str, n: int, /, *args: object, **kwargs: object) -> str:
        english = singular if n == 1 else plural
        return self._finished(self._fill(self.ngettext(singular, plural, n), english, args, kwargs))

    def finishing(self, finish: Callable[[str], str]) -> Lang:
        """This language with ``finish`` applied to every text ``tr``/``trn`` give."""
        return replace(self, finish=finish)

    def _finished(self, text: str) -> str:
        return self.finish(text) if self.finish is not None else text

    def _fill(self, text: str, english: str, args: tuple[object, ...], kwargs: Mapping[str, object]) -> str:
        if not args and not kwargs:
            return text
        try:
            return text.format(*args, **kwargs)
        except (IndexError, KeyError, ValueError):
            log.warning("The %s translation of %r does not fit its placeholders", self.code, english)
            return english.format(*args, **kwargs)


@dataclass(frozen=True)
class Texts:
    """Every supported language's :class:`Lang`, loaded once."""

    langs: Mapping[str, Lang]
    default: str = "en"

    @classmethod
    def load(cls, folder: Path = LOCALE_DIR, default: str = "en") -> Texts:
        langs: dict[str, Lang] = {"en": Lang("en")}
        for language in _LANGUAGES[1:]:
            files = list((folder / language / "LC_MESSAGES").glob("*.po"))
            langs[language] = Lang(language, compile_catalogue(read_catalogue(files, language)))
        return cls(langs, default)

    def lang(self, *locales: object) -> Lang:
        """The first of ``locales`` we speak (a player's choice, their Discord locale,
        the server's language…), else the default."""
        for locale in locales:
            language = language_of(locale)
            if language:
                return self.langs[language]
        return self.langs[self.default]

    def finishing(self, finish: Callable[[str], str]) -> Texts:
        """These texts with ``finish`` applied to every text each language gives."""
        return Texts({code: lang.finishing(finish) for code, lang in self.langs.items()}, self.default)

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(self.langs)


@lru_cache(maxsize=1)
def shared_texts() -> Texts:
    """This process's texts, read once (render workers and the bot share the files;
    the loaded catalogues never change)."""
    return Texts.load()
