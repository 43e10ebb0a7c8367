"""Settings errors must be readable sentences naming the variable."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import SettingsError, load_settings


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("DISCORD_TOKEN", "PYRAMID_DATABASE", "PYRAMID_LOG_LEVEL", "PYRAMID_REMINDER_HOURS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no stray .env


def test_missing_token_names_the_variable() -> None:
    with pytest.raises(SettingsError, match="DISCORD_TOKEN is not set"):
        load_settings()


def test_bad_values_name_their_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("PYRAMID_LOG_LEVEL", "chatty")
    monkeypatch.setenv("PYRAMID_REMINDER_HOURS", "-1")
    with pytest.raises(SettingsError) as info:
        load_settings()
    assert "PYRAMID_LOG_LEVEL must be one of" in str(info.value)
    assert "PYRAMID_REMINDER_HOURS" in str(info.value)


def test_env_file_and_defaults(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-file\nPYRAMID_LOG_LEVEL=debug\n")
    settings = load_settings()
    assert settings.discord_token.get_secret_value() == "from-file"
    assert settings.log_level == "DEBUG"
    assert settings.database_path == Path("pyramid-bot.db")


def test_the_command_exits_with_a_message_not_a_traceback(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot"], capture_output=True, text=True, cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin"}, timeout=60,
    )
    assert done.returncode == 2
    assert "DISCORD_TOKEN is not set" in done.stderr
    assert "Traceback" not in done.stderr
