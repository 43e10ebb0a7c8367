"""Discord's login limits (emulator/logins.py): IDENTIFYs per 5 s in each ``shard_id % max_concurrency`` bucket
(refused with op 9 INVALID_SESSION, as gateway.mdx says), and the day's session starts (spent: the token is reset,
every session ends with 4004). ``GET /gateway/bot`` reports both in ``session_start_limit``."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from emulator import Emulator

from .raw import RawAPI, RawGateway


async def refused_or_ready(emulator: Emulator, shard: list[int]) -> tuple[RawGateway, dict[str, Any]]:
    """A connection that sent IDENTIFY for ``shard``, and the first payload after it (READY or op 9)."""
    gw = RawGateway(emulator)
    await gw.__aenter__()
    hello = await gw.recv()
    assert hello is not None and hello["op"] == 10
    await gw.send(2, {"token": emulator.token, "intents": gw.intents, "properties": {}, "shard": shard})
    answer = await gw.recv()
    assert answer is not None
    return gw, answer


@pytest.mark.parametrize("emulator_options", [{"max_concurrency": 16, "session_start_total": 2000}])
async def test_gateway_bot_reports_the_limits(emulator: Emulator, api: RawAPI, emulator_options: Any) -> None:
    _, body = await api.request("GET", "/gateway/bot")
    assert body["session_start_limit"] == {"total": 2000, "remaining": 2000, "reset_after": 86_400_000,
                                           "max_concurrency": 16}
    async with RawGateway(emulator) as gw:
        await gw.identify(shard=[0, 1])
    await emulator.advance(hours=1)
    _, body = await api.request("GET", "/gateway/bot")
    limit = body["session_start_limit"]
    assert limit["remaining"] == 1999
    assert 82_700_000 <= limit["reset_after"] <= 82_800_000, "the day counts from the first start"
    await emulator.advance(hours=23)
    _, body = await api.request("GET", "/gateway/bot")
    assert body["session_start_limit"]["remaining"] == 2000, "a new day"


@pytest.mark.parametrize("emulator_options", [{"enforce_max_concurrency": True, "shard_count": 2}])
async def test_a_second_identify_in_the_bucket_within_5_s_gets_invalid_session(
    emulator: Emulator, emulator_options: Any
) -> None:
    first, ready = await refused_or_ready(emulator, [0, 2])
    second, answer = await refused_or_ready(emulator, [1, 2])  # max_concurrency 1: one bucket for every shard
    try:
        assert ready["t"] == "READY"
        assert answer == {"op": 9, "d": False, "s": None, "t": None}
        assert [s.shard for s in emulator.gateway.live_sessions] == [(0, 2)], "no session started"
        assert [(r.why, r.shard) for r in emulator.logins.refusals] == [("concurrency", (1, 2))]
        assert emulator.logins.used == 1, "a refused IDENTIFY is not a session start"
    finally:
        await first.__aexit__(None, None, None)
        await second.__aexit__(None, None, None)


@pytest.mark.parametrize("emulator_options", [{"enforce_max_concurrency": True, "max_concurrency": 2,
                                               "shard_count": 4}])
async def test_buckets_are_shard_id_modulo_max_concurrency(emulator: Emulator, emulator_options: Any) -> None:
    emulator.logins.window = 2.0  # Discord's 5 s, shortened so the test can wait it out
    opened = []
    try:
        for shard in ([0, 4], [1, 4], [2, 4], [3, 4]):
            gw, answer = await refused_or_ready(emulator, shard)
            opened.append(gw)
            assert (answer["t"] == "READY") == (shard[0] < 2), (shard, answer)
        assert [r.shard for r in emulator.logins.refusals] == [(2, 4), (3, 4)]
        await asyncio.sleep(2.1)
        for shard in ([2, 4], [3, 4]):
            gw, answer = await refused_or_ready(emulator, shard)
            opened.append(gw)
            assert answer["t"] == "READY", "after the window, the bucket admits again"
    finally:
        for gw in opened:
            await gw.__aexit__(None, None, None)


@pytest.mark.parametrize("emulator_options", [{"shard_count": 2}])
async def test_not_enforced_unless_asked(emulator: Emulator, emulator_options: Any) -> None:
    for shard in ([0, 2], [1, 2]):
        async with RawGateway(emulator) as gw:
            await gw.identify(shard=shard)
    assert emulator.logins.refusals == [] and emulator.logins.used == 2


@pytest.mark.parametrize("emulator_options", [{"session_start_total": 2}])
async def test_the_days_starts_spent_reset_the_token(emulator: Emulator, emulator_options: Any) -> None:
    old_token = emulator.token
    async with RawGateway(emulator) as live, RawGateway(emulator) as spent:
        await live.identify()
        async with RawGateway(emulator) as second:
            await second.identify()
        async with RawAPI(emulator) as api:
            _, body = await api.request("GET", "/gateway/bot")
            assert body["session_start_limit"]["remaining"] == 0
        assert await spent.close_code_after_identify() == 4004
        while await live.recv() is not None:  # the live session is terminated too
            pass
        assert live.ws is not None and live.ws.close_code == 4004
    assert emulator.token != old_token and not emulator.gateway.live_sessions
    assert [r.why for r in emulator.logins.refusals] == ["starts"]
    async with RawAPI(emulator, token=old_token) as api:
        status, _ = await api.request("GET", "/users/@me")
        assert status == 401, "the old token is refused by REST"
    async with RawGateway(emulator, token=old_token) as gw:
        assert await gw.close_code_after_identify() == 4004


def test_limits_are_checked() -> None:
    with pytest.raises(ValueError, match="max_concurrency"):
        Emulator(max_concurrency=0)
    with pytest.raises(ValueError, match="session_start_total"):
        Emulator(session_start_total=0)
