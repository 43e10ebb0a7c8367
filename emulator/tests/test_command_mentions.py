"""The bot's policy ``command-mention``: a command mention (``</name subcommand:id>``) in its message names one of
the app's commands, by its id and its names. Discord draws any such mention, and accepts the message; a click on a
stale or misspelt one opens nothing, so the emulator records it (the request still succeeds)."""

from __future__ import annotations

from typing import Any

import pytest

from emulator import Emulator
from emulator.model import Command

from .raw import RawAPI, RawGateway

NONE = {"parse": []}


def _pyramid(emulator: Emulator) -> Command:
    raw: dict[str, Any] = {"name": "pyramid", "type": 1, "description": "d", "options": [
        {"type": 1, "name": "new", "description": "d"},
        {"type": 2, "name": "club", "description": "d", "options": [{"type": 1, "name": "join", "description": "d"}]},
    ]}
    command = Command(emulator.world.ids.next(), emulator.world.application_id, "pyramid", 1, raw)
    emulator.world.commands[command.id] = command
    return command


async def _post(emulator: Emulator, api: RawAPI, content: str) -> int:
    status, _ = await api.request("POST", f"/channels/{emulator.general.id}/messages",
                                  {"content": content, "allowed_mentions": NONE})
    return status


async def test_a_mention_of_a_command_of_the_app_passes(emulator: Emulator, gw: RawGateway, api: RawAPI) -> None:
    command = _pyramid(emulator)
    text = f"Start with </pyramid new:{command.id}> or </pyramid club join:{command.id}>"
    assert await _post(emulator, api, text) == 200
    assert not [v for v in emulator.violations if v.rule == "command-mention"]


@pytest.mark.parametrize("mention", ["</pyramid new:1>", "</pyramide new:{id}>", "</pyramid old:{id}>",
                                     "</pyramid:{id}>", "</pyramid club:{id}>"])
async def test_a_mention_of_no_command_of_the_app_is_a_violation(emulator: Emulator, gw: RawGateway, api: RawAPI,
                                                                 mention: str) -> None:
    command = _pyramid(emulator)
    with emulator.expect_violation("command-mention") as caught:
        status = await _post(emulator, api, "Try " + mention.format(id=command.id))
    assert status == 200 and len(caught) == 1
