"""Every message a player can meet has a German translation with the same
placeholders; and the check itself catches a missing one and a mismatch."""

from __future__ import annotations

from pathlib import Path

from i18n import Texts, language_of, shared_texts
from i18n.catalogue import placeholders
from i18n.extract import problems, template


def test_every_message_is_translated_into_german_with_the_same_placeholders() -> None:
    found = problems("de")
    assert not found, "\n".join(found[:50]) + (f"\n… and {len(found) - 50} more" if len(found) > 50 else "")


def _tree(tmp_path: Path, source: str, po: str) -> tuple[Path, Path]:
    root = tmp_path / "root"
    for package in ("engine", "render", "bot"):
        (root / package).mkdir(parents=True)
    (root / "bot" / "talk.py").write_text(source, encoding="utf-8")
    locale = tmp_path / "locale"
    (locale / "de" / "LC_MESSAGES").mkdir(parents=True)
    (locale / "de" / "LC_MESSAGES" / "talk.po").write_text(po, encoding="utf-8")
    return root, locale


HEADER = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
          '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n')


def test_the_check_names_a_missing_translation_and_a_placeholder_mismatch(tmp_path: Path) -> None:
    source = (
        'def talk(lang, n):\n'
        '    lang.tr("Hello {name}", name="Ana")\n'
        '    lang.tr("Goodbye")\n'
        '    lang.trn("{n} tile", "{n} tiles", n, n=n)\n'
        '    lang.tr("Fine {who}", who="x")\n'
    )
    po = HEADER + (
        'msgid "Hello {name}"\nmsgstr "Hallo {nom}"\n\n'
        'msgid "{n} tile"\nmsgid_plural "{n} tiles"\nmsgstr[0] "{n} Stein"\nmsgstr[1] ""\n\n'
        'msgid "Fine {who}"\nmsgstr "Gut {who}"\n'
    )
    root, locale = _tree(tmp_path, source, po)
    found = problems("de", root=root, folder=locale)
    assert len(found) == 3, found
    assert any("'Hello {name}'" in line and "placeholders" in line for line in found)
    assert any("no de translation of 'Goodbye'" in line for line in found)
    assert any("plural form" in line and "{n} tile" in line for line in found)
    assert {m.id for m in template(root) if m.id} >= {"Hello {name}", "Goodbye", ("{n} tile", "{n} tiles")}


def test_a_translation_that_does_not_fit_falls_back_to_english(tmp_path: Path) -> None:
    _root, locale = _tree(tmp_path, "", HEADER + 'msgid "Hi {name}"\nmsgstr "Hallo {nom}"\n\n'
                          'msgid "Bye"\nmsgstr "Tschüss"\n')
    texts = Texts.load(locale)
    de = texts.lang("de-DE")
    assert de.tr("Bye") == "Tschüss"
    assert de.tr("Hi {name}", name="Ana") == "Hi Ana"
    assert texts.lang("fr", None, "en-GB").code == "en"
    assert texts.lang("", "de").code == "de"


def test_locales_and_placeholders() -> None:
    assert language_of("de") == "de" and language_of("en-US") == "en" and language_of("pt-BR") == ""
    assert placeholders("{0} placed {colour} at {cell:>3}, {n:g} left") == {"0", "colour", "cell", "n"}
    assert shared_texts().lang("de").code == "de"
