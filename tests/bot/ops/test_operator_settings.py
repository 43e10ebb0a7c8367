"""The operator's settings: defaults, readable errors, no token needed for the
operator's commands, and every setting documented in the README and .env.example."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.settings import ENV_NAMES, OperatorSettings, Settings, SettingsError, load_operator_settings, load_settings

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ENV_NAMES.values():
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no stray .env


def test_backups_are_on_by_default_next_to_the_database() -> None:
    settings = load_settings(discord_token="t", database_path=Path("/data/pyramid-bot.db"))
    assert settings.backup_hours == 24 and settings.backup_keep == 7
    assert settings.backup_folder == Path("/data/backups")
    assert load_settings(discord_token="t", backup_dir=Path("/elsewhere")).backup_folder == Path("/elsewhere")
    assert settings.metrics_port is None and settings.metrics_host == "127.0.0.1"


def test_the_operator_commands_need_no_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYRAMID_DATABASE", "x.db")
    assert load_operator_settings().database_path == Path("x.db")
    with pytest.raises(SettingsError, match="DISCORD_TOKEN is not set"):
        load_settings()


def test_bad_operator_settings_name_their_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYRAMID_METRICS_PORT", "70000")
    monkeypatch.setenv("PYRAMID_BACKUP_KEEP", "0")
    with pytest.raises(SettingsError) as info:
        load_operator_settings()
    assert "PYRAMID_METRICS_PORT" in str(info.value) and "PYRAMID_BACKUP_KEEP" in str(info.value)


def test_every_setting_is_named_documented_and_in_the_example() -> None:
    fields = set(Settings.model_fields) | set(OperatorSettings.model_fields)
    assert fields == set(ENV_NAMES), "ENV_NAMES names every setting's variable"
    readme = (ROOT / "README.md").read_text()
    table = set(re.findall(r"^\| `([A-Z_]+)` \|", readme, flags=re.MULTILINE))
    example = set(re.findall(r"^([A-Z_]+)=", (ROOT / ".env.example").read_text(), flags=re.MULTILINE))
    assert set(ENV_NAMES.values()) <= table, f"missing from the README's table: {set(ENV_NAMES.values()) - table}"
    assert set(ENV_NAMES.values()) <= example, f"missing from .env.example: {set(ENV_NAMES.values()) - example}"
