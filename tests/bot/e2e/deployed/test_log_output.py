"""The deployed bot's log, written to a file as ``docker logs`` or a service manager
keeps it (stderr is not a terminal): plain text lines, no ANSI colour escapes, and
none of discord.py's "voice will NOT be supported" warnings, which name libraries a
bot without voice does not need."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from emulator.harness import Harness
from emulator.server import Emulator
from tests.bot.e2e.deployed.log_file import bot_log, bot_workers, written  # noqa: F401 - fixtures

ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture
def bot_env() -> dict[str, str]:
    return {"PYRAMID_LOG_LEVEL": "INFO"}


async def test_a_log_file_is_plain_text_without_voice_warnings(emulator: Emulator, harness: Harness,
                                                               tmp_path: Path) -> None:
    await harness.start_bot()
    await harness.stop_bot()
    log = written(tmp_path)
    assert "INFO" in log and "discord" in log, log[:2000]  # the log was written, at INFO
    assert not ANSI.search(log), f"colour escapes in a log that is not a terminal: {log[:500]!r}"
    assert "PyNaCl" not in log and "davey" not in log and "voice will NOT be supported" not in log, log[:2000]
    assert re.search(r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] \[INFO +\] ", log, re.MULTILINE), log[:2000]
