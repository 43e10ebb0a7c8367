"""The compose file the README gives for scaling out: every shard run once, one shared database."""

from __future__ import annotations

from typing import Any

import yaml

from bot.config.settings import load_settings
from tests.paths import REPO


def test_the_bot_services_split_the_shards_over_one_postgresql_database() -> None:
    compose: dict[str, Any] = yaml.safe_load((REPO / "compose.yaml").read_text())
    bots = {name: service for name, service in compose["services"].items() if name.startswith("bot-")}
    assert len(bots) == 2
    environments = [{k: str(v) for k, v in service["environment"].items()} for service in bots.values()]
    databases = {env["PYRAMID_DATABASE"] for env in environments}
    assert len(databases) == 1 and next(iter(databases)).startswith("postgresql://")
    shards: list[int] = []
    for env in environments:
        settings = load_settings(discord_token="t", database=env["PYRAMID_DATABASE"].replace(
            "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD in .env}", "secret"),
            shard_count=env["PYRAMID_SHARD_COUNT"], shard_ids=env["PYRAMID_SHARD_IDS"])
        assert settings.database.shared and not settings.runs_every_shard
        shards.extend(settings.shard_ids or ())
    assert sorted(shards) == list(range(int(environments[0]["PYRAMID_SHARD_COUNT"])))
    assert all(service["depends_on"]["postgres"]["condition"] == "service_healthy" for service in bots.values())
