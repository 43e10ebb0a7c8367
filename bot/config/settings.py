"""All configuration, read once from the environment (and `.env`) into one model.

Settings are the bot's boundary with its operator, so a mistake must come back as a
sentence naming the setting, never as a traceback.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Annotated, Any, TypeVar

from pydantic import AliasChoices, Field, SecretStr, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.store.target import DatabaseTarget

#: Environment variable for each field, for messages and the README.
ENV_NAMES: dict[str, str] = {
    "discord_token": "DISCORD_TOKEN",
    "database": "PYRAMID_DATABASE",
    "log_level": "PYRAMID_LOG_LEVEL",
    "reminder_hours": "PYRAMID_REMINDER_HOURS",
    "timeout_hours": "PYRAMID_TIMEOUT_HOURS",
    "increment_hours": "PYRAMID_INCREMENT_HOURS",
    "dev_guild_id": "PYRAMID_DEV_GUILD_ID",
    "api_base_url": "PYRAMID_API_BASE_URL",
    "ai_delay_seconds": "PYRAMID_AI_DELAY_SECONDS",
    "render_workers": "PYRAMID_RENDER_WORKERS",
    "backup_dir": "PYRAMID_BACKUP_DIR",
    "backup_hours": "PYRAMID_BACKUP_HOURS",
    "backup_keep": "PYRAMID_BACKUP_KEEP",
    "metrics_port": "PYRAMID_METRICS_PORT",
    "metrics_host": "PYRAMID_METRICS_HOST",
    "shard_count": "PYRAMID_SHARD_COUNT",
    "shard_ids": "PYRAMID_SHARD_IDS",
    "sweep_seconds": "PYRAMID_SWEEP_SECONDS",
    "rest_per_second": "PYRAMID_REST_PER_SECOND",
    "sqlite_max_mb": "PYRAMID_SQLITE_MAX_MB",
}

#: One part of ``PYRAMID_SHARD_IDS``: a shard (``2``) or a range of shards (``0-3``).
_SHARD_PART = re.compile(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?")


class SettingsError(Exception):
    """A setting is missing or invalid; the message names it for the operator.
    ``missing`` names the variables that are not set at all (the first run without a token, say)."""

    def __init__(self, message: str, missing: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.missing = missing


class OperatorSettings(BaseSettings):
    """What the operator's commands (``pyramid-bot backup``, ``restore``, ``health``)
    need: the database, its backups and the health endpoint, but no bot token."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True)

    #: A SQLite file (a path or ``sqlite:///path``) or a PostgreSQL server (``postgresql://…``).
    database: Annotated[DatabaseTarget, NoDecode] = Field(
        default=DatabaseTarget("sqlite", path=Path("pyramid-bot.db")),
        validation_alias=AliasChoices("PYRAMID_DATABASE", "database", "database_path"),
    )
    log_level: str = Field(default="INFO", validation_alias=AliasChoices("PYRAMID_LOG_LEVEL", "log_level"))
    #: Empty means a ``backups`` folder next to the database (see :attr:`backup_folder`).
    backup_dir: Path | None = Field(default=None, validation_alias=AliasChoices("PYRAMID_BACKUP_DIR", "backup_dir"))
    #: Hours between automatic backups; 0 turns them off.
    backup_hours: float = Field(
        default=24.0, ge=0, validation_alias=AliasChoices("PYRAMID_BACKUP_HOURS", "backup_hours")
    )
    backup_keep: int = Field(default=7, ge=1, validation_alias=AliasChoices("PYRAMID_BACKUP_KEEP", "backup_keep"))
    #: The /healthz and /metrics HTTP endpoint; off when unset.
    metrics_port: int | None = Field(
        default=None, ge=1, le=65535, validation_alias=AliasChoices("PYRAMID_METRICS_PORT", "metrics_port")
    )
    metrics_host: str = Field(
        default="127.0.0.1", validation_alias=AliasChoices("PYRAMID_METRICS_HOST", "metrics_host")
    )

    @property
    def database_path(self) -> Path:
        """The SQLite file, for what works on files (backups, restores, the one-bot lock)."""
        if self.database.path is None:
            raise SettingsError(
                f"PYRAMID_DATABASE is the PostgreSQL database {self.database.describe()}: back it up and restore "
                "it with PostgreSQL's own tools (pg_dump, pg_restore), as the README's \"Backups\" section says."
            )
        return self.database.path

    @property
    def backup_folder(self) -> Path:
        if self.backup_dir is not None:
            return self.backup_dir
        return (self.database.path.parent if self.database.path is not None else Path(".")) / "backups"

    @field_validator("database", mode="before")
    @classmethod
    def _parse_database(cls, value: Any) -> Any:
        return DatabaseTarget.parse(value) if isinstance(value, str | Path) else value

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.upper()
        if level not in logging.getLevelNamesMapping():
            raise ValueError("must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL")
        return level


class Settings(OperatorSettings):
    """Everything the running bot needs."""

    discord_token: SecretStr = Field(validation_alias=AliasChoices("DISCORD_TOKEN", "discord_token"))
    reminder_hours: float = Field(
        default=24.0, gt=0, validation_alias=AliasChoices("PYRAMID_REMINDER_HOURS", "reminder_hours")
    )
    timeout_hours: float = Field(
        default=72.0, gt=0, validation_alias=AliasChoices("PYRAMID_TIMEOUT_HOURS", "timeout_hours")
    )
    #: The clock (bot/clock/clock.py): timeout_hours is the full time bank, and a move that
    #: passes the turn on tops the seat's bank up by this much (never past the full bank).
    increment_hours: float = Field(
        default=24.0, ge=0, le=720, validation_alias=AliasChoices("PYRAMID_INCREMENT_HOURS", "increment_hours")
    )
    dev_guild_id: int | None = Field(
        default=None, validation_alias=AliasChoices("PYRAMID_DEV_GUILD_ID", "dev_guild_id")
    )
    api_base_url: str | None = Field(
        default=None, validation_alias=AliasChoices("PYRAMID_API_BASE_URL", "api_base_url")
    )
    ai_delay_seconds: float = Field(
        default=2.0, ge=0, validation_alias=AliasChoices("PYRAMID_AI_DELAY_SECONDS", "ai_delay_seconds")
    )

    #: Seconds between sweeps for reminders and timeouts (one process sweeps at a time).
    sweep_seconds: float = Field(
        default=60.0, ge=1, le=3600, validation_alias=AliasChoices("PYRAMID_SWEEP_SECONDS", "sweep_seconds")
    )

    #: Rate-limited Discord requests a second for the whole bot, split between its processes
    #: (Discord's global limit is 50 per bot token; ``bot.posting.rest_budget``).
    rest_per_second: float = Field(
        default=45.0, gt=0, le=10_000,
        validation_alias=AliasChoices("PYRAMID_REST_PER_SECOND", "rest_per_second"),
    )

    #: The most megabytes (MiB) the bot's writes may make its SQLite file (unset: no cap but
    #: the disk's). Beyond it a write is refused as on a full disk and nothing is changed.
    sqlite_max_mb: float | None = Field(
        default=None, gt=0, le=1_000_000, validation_alias=AliasChoices("PYRAMID_SQLITE_MAX_MB", "sqlite_max_mb")
    )

    @property
    def sqlite_max_bytes(self) -> int | None:
        return None if self.sqlite_max_mb is None else int(self.sqlite_max_mb * 1024 * 1024)

    render_workers: int = Field(
        default=2, ge=0, le=16, validation_alias=AliasChoices("PYRAMID_RENDER_WORKERS", "render_workers")
    )

    #: Discord's gateway shards. Unset: as many as Discord recommends (``/gateway/bot``), all in this process.
    shard_count: int | None = Field(
        default=None, ge=1, validation_alias=AliasChoices("PYRAMID_SHARD_COUNT", "shard_count")
    )
    #: The shards this process runs (``0-3``, ``0,2,5``, ``1``); unset: all ``shard_count`` of them.
    #: ``NoDecode``: the environment's text is parsed here, not taken for JSON.
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = Field(
        default=None, validation_alias=AliasChoices("PYRAMID_SHARD_IDS", "shard_ids")
    )

    @property
    def runs_every_shard(self) -> bool:
        """Whether this process runs all the shards (no other process needs to run any)."""
        return self.shard_ids is None or self.shard_count is None or set(self.shard_ids) == set(
            range(self.shard_count)
        )

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _parse_shard_ids(cls, value: Any) -> Any:
        if not isinstance(value, str):
            return value
        ids: set[int] = set()
        for part in value.split(","):
            match = _SHARD_PART.fullmatch(part)
            if match is None:
                raise ValueError(f"must list shard numbers such as 0-3, 0,2,5 or 1, not {value!r}")
            first, last = int(match[1]), int(match[2] if match[2] is not None else match[1])
            if last < first:
                raise ValueError(f"has the range {first}-{last} backwards; write {last}-{first}")
            ids.update(range(first, last + 1))
        return tuple(ids)

    @field_validator("shard_ids")
    @classmethod
    def _shards_exist(cls, value: tuple[int, ...] | None, info: ValidationInfo) -> tuple[int, ...] | None:
        if value is None:
            return None
        if "shard_count" not in info.data:  # PYRAMID_SHARD_COUNT is invalid, and already said so
            return tuple(sorted(set(value)))
        count = info.data["shard_count"]
        if count is None:
            raise ValueError("needs PYRAMID_SHARD_COUNT too: the number of shards they are taken from")
        if not value:
            raise ValueError("lists no shard")
        if min(value) < 0 or max(value) >= count:
            wrong = min(value) if min(value) < 0 else max(value)
            raise ValueError(f"must be shards 0 to {count - 1} (PYRAMID_SHARD_COUNT is {count}), not {wrong}")
        return tuple(sorted(set(value)))

    @field_validator("discord_token")
    @classmethod
    def _token_not_blank(cls, value: SecretStr) -> SecretStr:
        if not value.get_secret_value().strip():
            raise ValueError("is empty")
        return value


def load_settings(**overrides: Any) -> Settings:
    """Read settings, turning pydantic's report into one readable sentence per problem."""
    return _load(Settings, overrides)


def load_operator_settings(**overrides: Any) -> OperatorSettings:
    """The settings the operator's commands need; no bot token required."""
    return _load(OperatorSettings, overrides)


S = TypeVar("S", bound=OperatorSettings)


def _load(model: type[S], overrides: dict[str, Any]) -> S:
    try:
        return model(**overrides)
    except ValidationError as exc:
        problems = []
        missing: list[str] = []
        for err in exc.errors():
            field = str(err["loc"][0]) if err["loc"] else "settings"
            env = ENV_NAMES.get(field, field)
            if err["type"] == "missing":
                problems.append(f"{env} is not set")
                missing.append(env)
            else:
                problems.append(f"{env} {err['msg'].removeprefix('Value error, ')}")
        raise SettingsError(
            "Pyramid Bot cannot start: " + "; ".join(problems) + ". See .env.example and the README.",
            missing=tuple(missing),
        ) from None
