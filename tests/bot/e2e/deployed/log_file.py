"""Fixtures of the tests that read the deployed bot's log (``test_log_output.py``,
``test_log_redaction.py``): the bot with its workers in threads, so one process writes
the whole log, and that log in a file, as ``docker logs`` or a service manager keeps it.
A test module imports them (``from tests.bot.e2e.deployed.log_file import bot_log,
bot_workers``) and sets its own ``bot_env`` (the log level)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def bot_workers() -> int:
    return 0


#: The log file's name in the test's ``tmp_path``.
LOG_NAME = "bot.log"


@pytest.fixture
def bot_log(tmp_path: Path) -> Path:
    return tmp_path / LOG_NAME


def written(tmp_path: Path) -> str:
    """What the bot wrote to its log file in ``tmp_path`` (read once it has stopped)."""
    return (tmp_path / LOG_NAME).read_text(encoding="utf-8", errors="replace")
