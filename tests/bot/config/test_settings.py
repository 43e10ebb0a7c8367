"""The bot's and the operator's settings: defaults, errors as readable sentences
naming the variable, no token needed for the operator's commands, and every setting
documented in the README and .env.example."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config.settings import (
    ENV_NAMES,
    OperatorSettings,
    Settings,
    SettingsError,
    load_operator_settings,
    load_settings,
)
from tests.paths import REPO


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ENV_NAMES.values():
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no stray .env


#: A bot that could never reach Discord, running shards 0 and 1 of 4.
SOME_SHARDS = {"DISCORD_TOKEN": "never-sent-anywhere", "PYRAMID_API_BASE_URL": "http://127.0.0.1:9",
               "PYRAMID_SHARD_COUNT": "4", "PYRAMID_SHARD_IDS": "0-1"}


def run_bot(cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` started as an operator would, with only ``env`` (and a PATH) set."""
    return subprocess.run([sys.executable, "-m", "bot"], capture_output=True, text=True, cwd=cwd,
                          env={"PATH": "/usr/bin:/bin", **env}, timeout=60)


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
    done = run_bot(tmp_path)
    assert done.returncode == 2
    assert "DISCORD_TOKEN is not set" in done.stderr
    assert "Traceback" not in done.stderr


def test_without_a_token_it_says_how_to_get_one_and_how_to_try_the_bot_at_once(tmp_path: Path) -> None:
    done = run_bot(tmp_path)
    assert done.returncode == 2  # it did not run: a configuration error, as for any other missing setting
    assert "https://discord.com/developers/applications" in done.stderr
    assert "pyramid-bot demo" in done.stderr
    other = run_bot(tmp_path, DISCORD_TOKEN="t", PYRAMID_LOG_LEVEL="chatty")  # a token, another mistake
    assert other.returncode == 2 and "PYRAMID_LOG_LEVEL" in other.stderr
    assert "pyramid-bot demo" not in other.stderr


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
    readme = (REPO / "README.md").read_text()
    table = set(re.findall(r"^\| `([A-Z_]+)` \|", readme, flags=re.MULTILINE))
    # Set, or shown commented out where setting it would override a better default (the Docker image's database).
    example = set(re.findall(r"^(?:# )?([A-Z_]+)=", (REPO / ".env.example").read_text(), flags=re.MULTILINE))
    assert set(ENV_NAMES.values()) <= table, f"missing from the README's table: {set(ENV_NAMES.values()) - table}"
    assert set(ENV_NAMES.values()) <= example, f"missing from .env.example: {set(ENV_NAMES.values()) - example}"


@pytest.mark.parametrize(("count", "ids", "parsed"), [
    ("4", "0-3", (0, 1, 2, 3)), ("6", "5,0,2", (0, 2, 5)), ("2", "1", (1,)), ("8", " 1 - 2 , 6 ,2", (1, 2, 6)),
])
def test_shard_ids_are_read_as_ranges_and_lists(monkeypatch: pytest.MonkeyPatch, count: str, ids: str,
                                                parsed: tuple[int, ...]) -> None:
    monkeypatch.setenv("PYRAMID_SHARD_COUNT", count)
    monkeypatch.setenv("PYRAMID_SHARD_IDS", ids)
    settings = load_settings(discord_token="t")
    assert settings.shard_count == int(count) and settings.shard_ids == parsed


def test_without_shard_settings_discord_chooses_and_one_process_runs_all() -> None:
    settings = load_settings(discord_token="t")
    assert settings.shard_count is None and settings.shard_ids is None and settings.runs_every_shard
    assert load_settings(discord_token="t", shard_count=3).runs_every_shard
    assert load_settings(discord_token="t", shard_count=2, shard_ids="0-1").runs_every_shard
    assert not load_settings(discord_token="t", shard_count=3, shard_ids="0,2").runs_every_shard


@pytest.mark.parametrize(("env", "message"), [
    ({"PYRAMID_SHARD_IDS": "0-1"}, "PYRAMID_SHARD_IDS needs PYRAMID_SHARD_COUNT too"),
    ({"PYRAMID_SHARD_COUNT": "2", "PYRAMID_SHARD_IDS": "0-2"},
     r"PYRAMID_SHARD_IDS must be shards 0 to 1 \(PYRAMID_SHARD_COUNT is 2\), not 2"),
    ({"PYRAMID_SHARD_COUNT": "4", "PYRAMID_SHARD_IDS": "3-1"}, "PYRAMID_SHARD_IDS has the range 3-1 backwards"),
    ({"PYRAMID_SHARD_COUNT": "4", "PYRAMID_SHARD_IDS": "first"}, "PYRAMID_SHARD_IDS must list shard numbers such as"),
    ({"PYRAMID_SHARD_COUNT": "4", "PYRAMID_SHARD_IDS": "-1"}, "PYRAMID_SHARD_IDS must list shard numbers such as"),
    ({"PYRAMID_SHARD_COUNT": "0"}, "PYRAMID_SHARD_COUNT"),
    ({"PYRAMID_SWEEP_SECONDS": "0"}, "PYRAMID_SWEEP_SECONDS"),
    ({"PYRAMID_SHARD_COUNT": "two"}, "PYRAMID_SHARD_COUNT"),
])
def test_bad_shard_settings_name_their_variables(monkeypatch: pytest.MonkeyPatch, env: dict[str, str],
                                                 message: str) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError, match=message):
        load_settings(discord_token="t")


def test_some_shards_only_are_refused_at_start_since_sqlite_serves_one_process(tmp_path: Path) -> None:
    """The real start path: it stops before it locks or creates the database, or calls Discord."""
    database = tmp_path / "bot.db"
    done = run_bot(tmp_path, **SOME_SHARDS, PYRAMID_DATABASE=str(database))
    assert done.returncode == 2, done.stderr
    assert "PYRAMID_SHARD_IDS=0,1 runs only some of the 4 shards" in done.stderr
    assert "a PostgreSQL database (postgresql://…) that every bot process shares" in done.stderr
    assert "Traceback" not in done.stderr
    assert not database.exists() and not database.with_name("bot.db.lock").exists()


@pytest.mark.parametrize(("text", "dialect", "where"), [
    ("pyramid-bot.db", "sqlite", "pyramid-bot.db"),
    ("sqlite:///data/bot.db", "sqlite", "data/bot.db"),
    ("sqlite:////var/lib/pyramid/bot.db", "sqlite", "/var/lib/pyramid/bot.db"),
    ("postgresql://bot:secret@db.example:5432/pyramid", "postgresql", "postgresql://bot:***@db.example:5432/pyramid"),
    ("postgres://db/pyramid", "postgresql", "postgres://db/pyramid"),
])
def test_pyramid_database_takes_a_path_or_a_url(text: str, dialect: str, where: str) -> None:
    settings = load_settings(discord_token="t", database=text)
    assert settings.database.dialect == dialect
    assert settings.database.describe() == where  # never the password


@pytest.mark.parametrize(("text", "message"), [
    ("mysql://db/pyramid", "mysql://… is not supported"),
    ("sqlite://bot.db", "sqlite:///relative/path"),
    ("postgresql:///pyramid", "names no server host"),
])
def test_unusable_database_settings_say_what_to_write(text: str, message: str) -> None:
    with pytest.raises(SettingsError, match="PYRAMID_DATABASE") as caught:
        load_settings(discord_token="t", database=text)
    assert message in str(caught.value)


def test_backups_and_restores_need_a_file() -> None:
    settings = load_settings(discord_token="t", database="postgresql://bot:secret@db/pyramid")
    with pytest.raises(SettingsError, match="pg_dump") as caught:
        settings.database_path  # noqa: B018
    assert "secret" not in str(caught.value)


def test_an_unreachable_postgresql_server_stops_the_bot_with_a_sentence(tmp_path: Path) -> None:
    """Several shards of one process on PostgreSQL are allowed, and an unreachable server is named (without its
    password) with what to check, exit code 6."""
    done = run_bot(tmp_path, **SOME_SHARDS, PYRAMID_DATABASE="postgresql://pyramid:hunter2@127.0.0.1:9/pyramid")
    assert done.returncode == 6, done.stderr
    assert "postgresql://pyramid:***@127.0.0.1:9/pyramid" in done.stderr
    assert "PostgreSQL server in PYRAMID_DATABASE is running and reachable" in done.stderr
    assert "hunter2" not in done.stderr and "Traceback" not in done.stderr
