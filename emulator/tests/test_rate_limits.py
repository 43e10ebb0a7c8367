"""Discord's rate limits (topics/rate-limits), each refusal as Discord documents it, over raw HTTP."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from multidict import CIMultiDictProxy

from emulator import Emulator, User
from emulator.interactions import dispatch_interaction
from emulator.ratelimits import Limit, RateLimits, exempt

from .raw import RawAPI, RawGateway

Answer = tuple[int, Any, CIMultiDictProxy[str]]


async def call(api: RawAPI, method: str, path: str, body: Any = None, *, token: str | None = None) -> Answer:
    """One request, with its headers (``RawAPI.request`` drops them)."""
    headers = {"Authorization": f"Bot {token or api.emu.token}"}
    async with api.session.request(method, api.emu.api_url + path, json=body, headers=headers) as r:
        data = await r.json() if r.content_type == "application/json" else await r.text()
        return r.status, data, r.headers


def post(emulator: Emulator, channel_id: int | None = None) -> tuple[str, str]:
    return "POST", f"/channels/{channel_id or emulator.general.id}/messages"


@pytest.mark.parametrize(
    "emulator_options", [{"rate_limits": RateLimits(routes={"POST /channels/{channel_id}/messages": Limit(2, 0.5)})}]
)
async def test_route_bucket_headers_and_429(emulator_options: dict[str, Any], emulator: Emulator, api: RawAPI) -> None:
    method, path = post(emulator)
    first = await call(api, method, path, {"content": "one"})
    assert first[0] == 200
    headers = first[2]
    assert headers["X-RateLimit-Limit"] == "2" and headers["X-RateLimit-Remaining"] == "1"
    assert 0 < float(headers["X-RateLimit-Reset-After"]) <= 0.5 and float(headers["X-RateLimit-Reset"]) > 1e9
    bucket = headers["X-RateLimit-Bucket"]
    second = await call(api, method, path, {"content": "two"})
    assert second[0] == 200 and second[2]["X-RateLimit-Remaining"] == "0" and second[2]["X-RateLimit-Bucket"] == bucket
    status, body, headers = await call(api, method, path, {"content": "three"})
    assert status == 429
    assert body["global"] is False and 0 < body["retry_after"] <= 0.5 and body["message"]
    assert headers["X-RateLimit-Scope"] == "user" and "X-RateLimit-Global" not in headers
    assert headers["X-RateLimit-Remaining"] == "0" and headers["X-RateLimit-Bucket"] == bucket
    assert int(headers["Retry-After"]) >= 1 and headers["Via"]  # discord.py retries only with Via
    assert [m.content for m in emulator.world.channel_messages(emulator.general.id)][-2:] == ["one", "two"]
    await asyncio.sleep(body["retry_after"] + 0.05)
    assert (await call(api, method, path, {"content": "four"}))[0] == 200  # the window reset


@pytest.mark.parametrize(
    "emulator_options", [{"rate_limits": RateLimits(routes={"POST /channels/{channel_id}/messages": Limit(1, 5.0)})}]
)
async def test_buckets_per_top_level_resource(
    emulator_options: dict[str, Any], emulator: Emulator, api: RawAPI
) -> None:
    other = emulator.world.add_channel(emulator.guild, "other")
    assert (await call(api, *post(emulator), {"content": "a"}))[0] == 200
    assert (await call(api, *post(emulator), {"content": "b"}))[0] == 429
    assert (await call(api, *post(emulator, other.id), {"content": "c"}))[0] == 200  # another channel, another bucket


@pytest.mark.parametrize("emulator_options", [{"rate_limits": RateLimits(global_per_second=3, route_default=None)}])
async def test_global_limit(emulator_options: dict[str, Any], emulator: Emulator, api: RawAPI) -> None:
    answers = [await call(api, "GET", "/users/@me") for _ in range(4)]
    assert [a[0] for a in answers] == [200, 200, 200, 429]
    body, headers = answers[-1][1:]
    assert body["global"] is True and 0 < body["retry_after"] <= 1.0
    assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
    assert headers["Via"] and int(headers["Retry-After"]) >= 1
    assert [r.scope for r in emulator.requests][-1] == "global"
    await asyncio.sleep(body["retry_after"] + 0.05)
    assert (await call(api, "GET", "/users/@me"))[0] == 200


@pytest.mark.parametrize("emulator_options", [{"rate_limits": RateLimits(global_per_second=2, route_default=None)}])
async def test_global_limit_is_per_token_across_clients(emulator_options: dict[str, Any], emulator: Emulator) -> None:
    """Every process of a bot shares the token, so they share the limit."""
    async with RawAPI(emulator) as one, RawAPI(emulator) as two:
        assert (await call(one, "GET", "/users/@me"))[0] == 200
        assert (await call(two, "GET", "/users/@me"))[0] == 200
        assert (await call(one, "GET", "/users/@me"))[0] == 429
        assert (await call(two, "GET", "/users/@me"))[0] == 429


@pytest.mark.parametrize("emulator_options", [{"rate_limits": RateLimits(global_per_second=1, route_default=None)}])
async def test_interaction_endpoints_are_exempt(
    emulator_options: dict[str, Any], emulator: Emulator, api: RawAPI, gw: RawGateway, carol: User
) -> None:
    assert (await call(api, "GET", "/users/@me"))[0] == 200  # the global limit is used up
    assert (await call(api, "GET", "/users/@me"))[0] == 429
    inter = await dispatch_interaction(
        emulator, type=2, user=carol, channel=emulator.general, data={"id": "1", "name": "cmd", "type": 1}
    )
    status, _, _ = await call(
        api, "POST", f"/interactions/{inter.id}/{inter.token}/callback", {"type": 4, "data": {"content": "hi"}}
    )
    assert status == 204
    hook = f"/webhooks/{emulator.world.application_id}/{inter.token}"
    assert (await call(api, "POST", hook, {"content": "more"}))[0] == 200
    assert (await call(api, "PATCH", hook + "/messages/@original", {"content": "edited"}))[0] == 200
    assert exempt("POST /interactions/{interaction_id}/{token}/callback")
    assert not exempt("POST /channels/{channel_id}/messages")


@pytest.mark.parametrize(
    "emulator_options",
    [{"rate_limits": RateLimits(global_per_second=None, route_default=None, invalid_limit=3, invalid_window=60.0)}],
)
async def test_invalid_requests_bring_a_ban(emulator_options: dict[str, Any], emulator: Emulator, api: RawAPI) -> None:
    with emulator.expect_violation("invalid-requests"):
        for _ in range(3):  # 401s count
            assert (await call(api, "GET", "/users/@me", token="wrong"))[0] == 401
        assert emulator.limiter.invalid_requests == 3
        assert (await call(api, "GET", "/users/@me"))[0] == 200  # 3 is the limit, not yet over it
        assert (await call(api, "GET", "/users/@me", token="wrong"))[0] == 401  # the 4th: banned
    status, body, headers = await call(api, "GET", "/users/@me")
    assert status == 429 and isinstance(body, str) and "Via" not in headers  # Cloudflare's, not the API's
    assert emulator.requests[-1].scope == "banned"


@pytest.mark.parametrize(
    "emulator_options", [{"rate_limits": RateLimits(global_per_second=None, route_default=None, invalid_limit=100)}]
)
async def test_403_and_429_count_as_invalid(
    emulator_options: dict[str, Any], emulator: Emulator, api: RawAPI, carol: User
) -> None:
    emulator.world.users[carol.id].dms_open = False
    status, body, _ = await call(api, "POST", "/users/@me/channels", {"recipient_id": str(carol.id)})
    assert status == 200
    assert (await call(api, "POST", f"/channels/{body['id']}/messages", {"content": "hi"}))[0] == 403
    emulator.rate_limit("GET /users/@me")
    assert (await call(api, "GET", "/users/@me"))[0] == 429
    assert emulator.limiter.invalid_requests == 2


async def test_default_limits_are_discords(emulator: Emulator, api: RawAPI) -> None:
    """On by default: the global 50 a second and the invalid-request limit, with route headers everywhere."""
    limits = emulator.rate_limits
    assert limits.global_per_second == 50 and limits.invalid_limit == 10_000 and limits.invalid_window == 600.0
    assert "X-RateLimit-Bucket" in (await call(api, "GET", "/users/@me"))[2]
    assert RateLimits.discord().for_route("POST /channels/{channel_id}/messages") == Limit(5, 5.0)
    emulator.rate_limits = RateLimits.off()
    assert "X-RateLimit-Bucket" not in (await call(api, "GET", "/users/@me"))[2]
