"""Every command of the bot, as the tree sends it to Discord with our translator:
German names that Discord accepts (lowercase letters, digits, ``-``/``_``, 1-32, unique
among their siblings), descriptions within 100 characters, and the whole set passes
the emulator's checks of a bulk overwrite."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from discord.app_commands import TranslationContextLocation as Where
from discord.app_commands import locale_str

from bot.client.client import PyramidClient
from bot.config.settings import load_settings
from bot.core.services import Services
from bot.interactions.command_sync import command_payloads
from bot.interactions.translator import CatalogueTranslator, composed, fixed, formatted, valid_name
from emulator.limits import check_command_set
from i18n import N_, shared_texts
from tests.bot.clock import FakeClock

JSON = dict[str, Any]
#: Discord's rule for names, as documented (``\p{L}``, ``\p{N}``, ``-``, ``_``).
DISCORD_NAME = re.compile(r"^[-_\w]{1,32}$")


@pytest.fixture
async def payloads(tmp_path: Path) -> AsyncIterator[list[JSON]]:
    """The commands exactly as the bot syncs them (with their localizations)."""
    settings = load_settings(discord_token="token", api_base_url="http://127.0.0.1:9", database=str(tmp_path / "b.db"),
                             ai_delay_seconds=0, render_workers=0)
    services = await Services.open(settings, FakeClock())
    try:
        client = PyramidClient(services)
        translator = CatalogueTranslator(services.texts)
        await client.tree.set_translator(translator)
        yield await command_payloads(client.tree, guild=None)
    finally:
        await services.close()


def nodes(options: list[JSON], path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], JSON, list[JSON]]]:
    """Every option (subcommands too) with its path and its siblings."""
    for option in options:
        here = (*path, option["name"])
        yield here, option, options
        yield from nodes(option.get("options") or [], here)


def test_german_names_follow_discords_rules_and_are_unique_among_siblings(payloads: list[JSON]) -> None:
    top = [p["name_localizations"]["de"] for p in payloads]
    assert sorted(top) == ["pyramide", "pyramide-admin"]
    for payload in payloads:
        for path, option, siblings in nodes(payload.get("options") or [], (payload["name"],)):
            german = str((option.get("name_localizations") or {}).get("de", option["name"]))
            assert DISCORD_NAME.match(german) and german == german.lower(), (path, german)
            shown = [(s.get("name_localizations") or {}).get("de", s["name"]) for s in siblings]
            assert shown.count(german) == 1, (path, shown)


def test_every_description_has_german_within_discords_limit(payloads: list[JSON]) -> None:
    for payload in payloads:
        assert 1 <= len(payload["description_localizations"]["de"]) <= 100
        for path, option, _siblings in nodes(payload.get("options") or [], (payload["name"],)):
            if option["description"] == "…":  # an option nobody described (discord.py's default)
                continue
            german = (option.get("description_localizations") or {}).get("de")
            assert german is not None and 1 <= len(german) <= 100, (path, option["description"])
            for choice in option.get("choices") or []:
                localized = (choice.get("name_localizations") or {}).get("de")
                assert localized is None or 1 <= len(localized) <= 100


def test_the_commands_name_their_subcommands_and_options_in_german(payloads: list[JSON]) -> None:
    pyramid = next(p for p in payloads if p["name"] == "pyramid")
    subs = {o["name"]: o for o in pyramid["options"]}
    assert subs["new"]["name_localizations"]["de"] == "neu"
    assert subs["rules"]["name_localizations"]["de"] == "regeln"
    assert subs["resign"]["name_localizations"]["de"] == "aufgeben"
    new = {o["name"]: o for o in subs["new"]["options"]}
    assert new["game"]["name_localizations"]["de"] == "spiel"
    assert new["size"]["name_localizations"]["de"] == "größe"
    # an option from a game's options model: the title and the model's description, translated
    assert new["mode"]["description_localizations"]["de"].startswith("Pyramido: ")
    assert new["mode"]["description_localizations"]["de"] != new["mode"]["description"]
    admin = next(p for p in payloads if p["name"] == "pyramid-admin")
    settings = next(o for o in admin["options"] if o["name"] == "settings")
    language = next(o for o in settings["options"] if o["name"] == "language")
    assert language["name_localizations"]["de"] == "sprache"
    assert [c["name"] for c in language["choices"]] == ["English", "Deutsch"]
    assert all("name_localizations" not in c for c in language["choices"])  # each in its own words


def test_the_synced_commands_pass_discords_checks(payloads: list[JSON]) -> None:
    assert check_command_set(payloads) == []


def test_the_translator_checks_what_it_returns() -> None:
    translator = CatalogueTranslator(shared_texts())
    assert translator.localize(locale_str("new"), "de", Where.command_name) == "neu"
    assert translator.localize(locale_str("new"), "en-US", Where.command_name) is None
    assert translator.localize(locale_str("new"), "fr", Where.command_name) is None  # not a language of ours
    # a translation Discord would refuse is left out (Discord then shows the English)
    assert translator.localize(locale_str("Options"), "de", Where.parameter_name) is None  # "Optionen": uppercase
    assert translator.localize(locale_str("Options"), "de", Where.choice_name) == "Optionen"
    assert translator.localize(fixed("English"), "de", Where.choice_name) is None
    assert translator.localize(formatted(N_("Game #{game}:"), game=3), "de", Where.choice_name) == "Spiel #3:"
    built = composed("Ana: Join", lambda gettext: f"Ana: {gettext('Join')}")
    assert built.message == "Ana: Join"
    assert translator.localize(built, "de", Where.parameter_description) == "Ana: Beitreten"
    assert valid_name("größe") and not valid_name("Größe") and not valid_name("zwei worte")


def test_commands_say_where_they_work_without_the_deprecated_field(payloads: list[JSON]) -> None:
    """``contexts`` and ``integration_types`` on every command, never ``dm_permission``; the server
    administration only in servers that installed the bot; ``/pyramid`` through either install, in
    servers, the DM with the bot and group DMs (#27, play anywhere)."""
    by_name = {p["name"]: p for p in payloads}
    for payload in payloads:
        assert "dm_permission" not in payload
        assert payload["contexts"] and payload["integration_types"]
    assert by_name["pyramid-admin"]["contexts"] == [0] and by_name["pyramid-admin"]["integration_types"] == [0]
    assert sorted(by_name["pyramid"]["contexts"]) == [0, 1, 2]
    assert sorted(by_name["pyramid"]["integration_types"]) == [0, 1]
