"""Where REST and the gateway go are separate settings (issue #42), and PYRAMID_SHARD_COUNT takes ``auto``."""

from __future__ import annotations

import pytest

from bot.config.settings import SettingsError, load_settings


def test_rest_and_gateway_are_read_apart() -> None:
    s = load_settings(discord_token="t", rest_url="http://nirn:8080/api/v10", gateway_url="wss://gateway.discord.gg")
    assert (s.rest_url, s.gateway_url, s.api_base_url) == ("http://nirn:8080/api/v10", "wss://gateway.discord.gg", None)


@pytest.mark.parametrize(("field", "value", "says"), [
    ("rest_url", "ws://nirn:8080", "PYRAMID_REST_URL must be http(s)://host[:port]"),
    ("rest_url", "nirn:8080", "PYRAMID_REST_URL must be http(s)://host[:port]"),
    ("gateway_url", "http://127.0.0.1:1/gateway", "PYRAMID_GATEWAY_URL must be ws(s)://host[:port][/path]"),
    ("api_base_url", "127.0.0.1:8765", "PYRAMID_API_BASE_URL must be http(s)://host[:port]"),
])
def test_a_wrong_url_is_named(field: str, value: str, says: str) -> None:
    with pytest.raises(SettingsError, match=r"PYRAMID_\w+ must") as caught:
        load_settings(discord_token="t", **{field: value})
    assert says in str(caught.value)


@pytest.mark.parametrize("value", ["auto", "AUTO", " auto "])
def test_auto_shard_count_is_discords_recommendation(value: str) -> None:
    assert load_settings(discord_token="t", shard_count=value).shard_count is None


def test_shard_ids_need_a_number_not_auto() -> None:
    with pytest.raises(SettingsError, match="not auto"):
        load_settings(discord_token="t", shard_count="auto", shard_ids="0-1")
