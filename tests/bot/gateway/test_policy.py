"""The login rules (bot/gateway/policy.py), by property: the restart backoff grows and is capped, and the refusal
falls exactly where starting would dip into the starts kept back."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.gateway.crowding import warn_if_crowded
from bot.gateway.policy import LoginPolicy, StartLimit, refusal, reserve

POLICY = LoginPolicy()


DISCORD = StartLimit(total=1000, remaining=1000, reset_after_ms=86_400_000, max_concurrency=1)


@given(st.integers(0, 500), st.integers(0, 500), st.integers(1, 5000), st.integers(1, 128))
def test_backoff_grows_with_recent_starts_and_is_capped(a: int, b: int, total: int, shards: int) -> None:
    low, high = sorted((a, b))
    limit = StartLimit(total, total, 0, 1)
    assert POLICY.restart_delay(low, limit, shards) <= POLICY.restart_delay(high, limit, shards) <= POLICY.backoff_cap


@given(total=st.integers(1, 100_000), shards=st.integers(1, 1024))
def test_free_starts_all_day_stay_within_the_days_starts(total: int, shards: int) -> None:
    limit = StartLimit(total, total, 0, 1)
    free = POLICY.free(limit, shards)
    assert free >= POLICY.free_starts
    if free > POLICY.free_starts:  # the share, not the floor: a day at that pace spends at most what may be spent
        assert free * 24 * shards <= total - reserve(limit, shards)


def test_backoff_starts_after_the_free_starts() -> None:
    free = POLICY.free(DISCORD, 8)
    assert free == 4, "8 shards, 900 spendable starts a day: 4 an hour each"
    assert POLICY.free(DISCORD, 1) == 37 and POLICY.free(DISCORD, 2) == 18
    delays = [POLICY.restart_delay(n, DISCORD, 8) for n in (0, free - 1, free, free + 1, free + 2)]
    assert delays == [0, 0, 5, 10, 20]
    assert POLICY.restart_delay(free + 40, DISCORD, 8) == POLICY.backoff_cap


@given(total=st.integers(1, 5000), used=st.integers(0, 5000), shards=st.integers(1, 64),
       starting=st.integers(1, 64), reset_ms=st.integers(0, 86_400_000), concurrency=st.sampled_from([1, 16]))
def test_refusal_keeps_the_reserve(total: int, used: int, shards: int, starting: int, reset_ms: int,
                                   concurrency: int) -> None:
    limit = StartLimit(total, max(0, total - used), reset_ms, concurrency)
    why = refusal(limit, starting, shards)
    keep = reserve(limit, shards)
    assert keep >= shards and keep >= total / 10
    assert (why is None) == (limit.remaining - starting >= keep)
    if why is not None:
        assert f"{limit.remaining} are left" in why and "resets the bot's token" in why


def test_start_limit_reads_gateway_bot() -> None:
    limit = StartLimit.of({"total": 1000, "remaining": 998, "reset_after": 14_400_000, "max_concurrency": 16})
    assert limit == StartLimit(1000, 998, 14_400_000, 16)
    assert POLICY.bucket(17, limit.max_concurrency) == 1 and POLICY.bucket(17, 1) == 0


@dataclass
class OnShard:
    shard_id: int


def test_a_shard_over_2500_guilds_is_warned_about(caplog: pytest.LogCaptureFixture) -> None:
    guilds = [OnShard(0)] * 2500 + [OnShard(1)] * 2501
    with caplog.at_level(logging.WARNING, logger="bot.gateway.crowding"):
        assert warn_if_crowded(guilds, [0]) == {}
        assert warn_if_crowded(guilds) == {1: 2501}
    assert [r.getMessage()[:40] for r in caplog.records] == ["shard 1 holds 2501 servers, more than th"]
