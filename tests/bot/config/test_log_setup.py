"""Colour in the log only for a person at a terminal; discord.py's voice warnings dropped.
(The deployed bot's own log file is checked in ``e2e/deployed/test_log_output.py``.)"""

from __future__ import annotations

import io
import logging
import os

import pytest

from bot.config.log_setup import WithoutVoiceWarnings, wants_colour


def test_colour_only_on_a_terminal_and_never_with_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    main, side = os.openpty()
    try:
        with open(side, "w", closefd=False) as terminal:
            assert wants_colour(terminal)
            monkeypatch.setenv("NO_COLOR", "1")
            assert not wants_colour(terminal)
    finally:
        os.close(main)
        os.close(side)
    monkeypatch.delenv("NO_COLOR")
    assert not wants_colour(io.StringIO())


def _record(name: str, message: str) -> logging.LogRecord:
    return logging.LogRecord(name, logging.WARNING, __file__, 1, message, None, None)


def test_only_the_voice_warnings_are_dropped() -> None:
    keep = WithoutVoiceWarnings()
    assert not keep.filter(_record("discord.client", "PyNaCl is not installed, voice will NOT be supported"))
    assert not keep.filter(_record("discord.client", "davey is not installed, voice will NOT be supported"))
    assert keep.filter(_record("discord.client", "logging in using static token"))
    assert keep.filter(_record("bot", "voice will NOT be supported"))  # our own lines are never dropped
