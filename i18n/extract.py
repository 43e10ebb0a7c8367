"""Finding the messages in the code with Babel, and checking the catalogues against
them: ``python -m i18n extract`` writes ``i18n/messages.pot`` (the template
translators start from, e.g. with ``pybabel update``); ``python -m i18n check`` names
every message without a German translation or whose placeholders differ."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import write_po

from i18n.catalogue import LOCALE_DIR, placeholders, read_catalogue

ROOT = Path(__file__).resolve().parent.parent
#: Where player-visible text is written (tools and tests speak to developers).
PACKAGES = ("engine", "render", "bot")
KEYWORDS = {"tr": None, "trn": (1, 2), "gettext": None, "ngettext": (1, 2), "N_": None, "locale_str": None}
TEMPLATE = Path(__file__).with_name("messages.pot")


@dataclass(frozen=True)
class Found:
    msgid: str
    plural: str | None
    where: str


def found_messages(root: Path = ROOT) -> Iterator[Found]:
    for package in PACKAGES:
        for filename, lineno, message, _comments, _context in extract_from_dir(
            root / package, method_map=[("**.py", "python")], keywords=KEYWORDS, strip_comment_tags=True,
        ):
            where = f"{package}/{filename}:{lineno}"
            if isinstance(message, tuple):
                singular, plural = message[0], message[1]
                if singular:
                    yield Found(singular, plural, where)
            elif message:
                yield Found(message, None, where)


def template(root: Path = ROOT) -> Catalog:
    catalogue = Catalog(project="pyramid-bot", charset="utf-8")
    for found in found_messages(root):
        msgid = (found.msgid, found.plural) if found.plural else found.msgid
        catalogue.add(msgid, locations=[(found.where.rsplit(":", 1)[0], int(found.where.rsplit(":", 1)[1]))])
    return catalogue


def write_template(path: Path = TEMPLATE, root: Path = ROOT) -> int:
    catalogue = template(root)
    with path.open("wb") as handle:
        write_po(handle, catalogue, width=100, sort_output=True)
    return len(catalogue)


def problems(language: str = "de", root: Path = ROOT, folder: Path = LOCALE_DIR) -> list[str]:
    """What a player of ``language`` would meet in English, or broken: each found
    message must be translated (plural forms too), with the same placeholders."""
    catalogue = read_catalogue((folder / language / "LC_MESSAGES").glob("*.po"), language)
    out: list[str] = []
    seen: set[str] = set()
    for found in found_messages(root):
        if found.msgid in seen:
            continue
        seen.add(found.msgid)
        key: str | tuple[str, str] = (found.msgid, found.plural) if found.plural else found.msgid
        message = catalogue.get(key if isinstance(key, str) else key[0])
        if message is None or not message.string:
            out.append(f"{found.where}: no {language} translation of {found.msgid!r}")
            continue
        strings = tuple(message.string) if isinstance(message.string, (tuple, list)) else (message.string,)
        if any(not s for s in strings):
            out.append(f"{found.where}: a {language} plural form of {found.msgid!r} is empty")
            continue
        wanted = placeholders(found.msgid) | (placeholders(found.plural) if found.plural else frozenset())
        for text in strings:
            got = placeholders(text)
            if got != wanted and not (found.plural and got <= wanted):
                out.append(f"{found.where}: {language} {text!r} has placeholders {sorted(got)},"
                           f" {found.msgid!r} has {sorted(wanted)}")
    return out
