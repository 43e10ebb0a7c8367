"""Languages: the texts players read, in English (the source) and German.

Messages are written in English in the code, marked for extraction (``tr``, ``trn``,
``gettext``, ``N_``), extracted with Babel (``python -m i18n extract``) and translated
in gettext PO files under ``i18n/locale/<language>/LC_MESSAGES/``. Every PO file of a
language is merged when loaded, so each area of the code keeps its own file.

This package imports nothing of the project's: the bot and the renderer use it, and
the engine only marks its texts (``engine.core.text.N_``) so it stays free of I/O.
"""

from __future__ import annotations

from i18n.catalogue import LOCALE_DIR, Lang, Texts, language_of, shared_texts

#: The languages the bot speaks; the first is the source language of the code.
SUPPORTED: tuple[str, ...] = ("en", "de")
DEFAULT = "en"


def N_(msgid: str) -> str:
    """Mark ``msgid`` for extraction without translating it (it is translated where
    it is shown, in the reader's language)."""
    return msgid


__all__ = ["DEFAULT", "LOCALE_DIR", "N_", "SUPPORTED", "Lang", "Texts", "language_of", "shared_texts"]
