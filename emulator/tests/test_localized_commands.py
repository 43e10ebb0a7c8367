"""A client in another language lists commands by their localized names: the harness
lets a test type them so (``harness.slash(user, channel, "spielzeug neu", art="Flammen",
locale="de")``), and the interaction still names everything as Discord does, by its
own names, with the user's locale."""

from __future__ import annotations

from typing import Any

import pytest

from emulator import Emulator, HarnessError
from emulator.interactions import build_command_data, find_command, localized, names_match
from emulator.model import Command

RAW: dict[str, Any] = {
    "name": "toy",
    "type": 1,
    "description": "A toy",
    "name_localizations": {"de": "spielzeug"},
    "options": [
        {
            "type": 1,
            "name": "new",
            "description": "New",
            "name_localizations": {"de": "neu"},
            "options": [
                {
                    "type": 3,
                    "name": "kind",
                    "description": "Kind",
                    "required": True,
                    "name_localizations": {"de": "art"},
                    "choices": [
                        {"name": "Flaming", "value": "fp", "name_localizations": {"de": "Flammen"}},
                        {"name": "Domino", "value": "do"},
                    ],
                },
                {"type": 4, "name": "size", "description": "Size", "name_localizations": {"de": "größe"}},
            ],
        }
    ],
}


def toy(emulator: Emulator) -> Command:
    command = Command(emulator.world.ids.next(), emulator.world.application_id, "toy", 1, RAW)
    emulator.world.commands[command.id] = command
    return command


def test_localized_names_are_looked_up_per_locale() -> None:
    assert localized(RAW, "name", "de") == "spielzeug"
    assert localized(RAW, "name", "fr") is None and localized(RAW, "name", None) is None
    assert names_match(RAW, "toy", "de") and names_match(RAW, "spielzeug", "de")
    assert not names_match(RAW, "spielzeug", "en-US")


def test_a_german_client_types_german_names_and_the_data_carries_the_real_ones(emulator: Emulator) -> None:
    command = toy(emulator)
    assert find_command(emulator, emulator.general, "spielzeug", locale="de") is command
    with pytest.raises(HarnessError, match="not registered"):
        find_command(emulator, emulator.general, "spielzeug", locale="en-US")
    data = build_command_data(emulator, command, ["neu"], {"art": "Flammen", "größe": 4}, guild_id=None, locale="de")
    assert data["name"] == "toy"
    assert data["options"] == [
        {
            "name": "new",
            "type": 1,
            "options": [{"name": "kind", "type": 3, "value": "fp"}, {"name": "size", "type": 4, "value": 4}],
        }
    ]
    # the own names (and a choice without a localization, by its name) still work
    same = build_command_data(emulator, command, ["new"], {"kind": "Domino"}, guild_id=None, locale="de")
    assert same["options"][0]["options"] == [{"name": "kind", "type": 3, "value": "do"}]
    with pytest.raises(HarnessError, match="no subcommand"):
        build_command_data(emulator, command, ["neu"], {"kind": "fp"}, guild_id=None, locale="en-US")
    with pytest.raises(HarnessError, match="must be one of"):
        build_command_data(emulator, command, ["new"], {"kind": "Flammen"}, guild_id=None, locale="en-US")
