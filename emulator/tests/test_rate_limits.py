"""Discord's rate limits (topics/rate-limits), each refusal as Discord documents it, over raw HTTP."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from multidict import CIMultiDictProxy

from emulator import Emulator, User
from emulator.interactions import dispatch_interaction
from emulator.ratelimits import Limit, RateLimits, Shared, exempt

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
    """On by default: the global 50 a second, the invalid-request limit, route headers everywhere, Discord's buckets
    on the message routes (5 posts per 5 s per channel) and its buckets shared across routes."""
    limits = emulator.rate_limits
    assert limits.global_per_second == 50 and limits.invalid_limit == 10_000 and limits.invalid_window == 600.0
    assert limits == RateLimits.discord()
    assert limits.for_route("POST /channels/{channel_id}/messages") == Limit(5, 5.0)
    assert "X-RateLimit-Bucket" in (await call(api, "GET", "/users/@me"))[2]
    answers = [(await call(api, *post(emulator), {"content": str(n)}))[0] for n in range(6)]
    assert answers == [200] * 5 + [429]  # Discord's observed 5 posts per 5 s in a channel
    emulator.rate_limits = RateLimits.off()
    assert "X-RateLimit-Bucket" not in (await call(api, "GET", "/users/@me"))[2]


REACTION = "/channels/{channel}/messages/{message}/reactions/%F0%9F%91%8D/@me"


async def _message(api: RawAPI, emulator: Emulator, channel_id: int | None = None) -> str:
    status, body, _ = await call(api, *post(emulator, channel_id), {"content": "react to me"})
    assert status == 200, body
    return str(body["id"])


async def test_adding_and_removing_reactions_share_one_bucket_per_channel(emulator: Emulator, api: RawAPI) -> None:
    """Discord's reaction routes count against one bucket (same X-RateLimit-Bucket), per channel."""
    other = emulator.world.add_channel(emulator.guild, "other")
    message, elsewhere = await _message(api, emulator), await _message(api, emulator, other.id)
    path = REACTION.format(channel=emulator.general.id, message=message)
    added = await call(api, "PUT", path)
    assert added[0] == 204 and added[2]["X-RateLimit-Limit"] == "1"
    status, body, headers = await call(api, "DELETE", path)  # another route, the same bucket
    assert status == 429 and headers["X-RateLimit-Scope"] == "user" and body["global"] is False
    assert headers["X-RateLimit-Bucket"] == added[2]["X-RateLimit-Bucket"]
    assert (await call(api, "PUT", REACTION.format(channel=other.id, message=elsewhere)))[0] == 204  # its own
    await asyncio.sleep(body["retry_after"] + 0.05)
    assert (await call(api, "DELETE", path))[0] == 204
    assert emulator.limiter.refused["user"] == 1


SHARED_POSTS = RateLimits(
    routes={"POST /channels/{channel_id}/messages": Limit(5, 5.0)},
    shared={"busy channel": Shared(frozenset({"POST /channels/{channel_id}/messages",
                                              "PATCH /channels/{channel_id}/messages/{message_id}"}),
                                   Limit(2, 5.0), scope="shared")},
    invalid_limit=1,
)


@pytest.mark.parametrize("emulator_options", [{"rate_limits": SHARED_POSTS}])
async def test_a_resource_limit_says_shared_and_is_not_held_against_the_bot(
    emulator_options: dict[str, Any], emulator: Emulator, api: RawAPI
) -> None:
    """Scope ``shared``: a limit on the resource, across its routes, besides the route's own bucket; its 429s do
    not count toward the invalid-request limit (here 1: a single counted 429 more would ban)."""
    message = await _message(api, emulator)
    edit = await call(api, "PATCH", f"/channels/{emulator.general.id}/messages/{message}", {"content": "e"})
    assert edit[0] == 200
    for _ in range(2):
        status, body, headers = await call(api, *post(emulator), {"content": "third"})
        assert status == 429 and headers["X-RateLimit-Scope"] == "shared" and headers["Via"]
        assert body == {"message": "The resource is being rate limited.", "retry_after": body["retry_after"],
                        "global": False}
        assert headers["X-RateLimit-Remaining"] == "4"  # the bot's own bucket: one post made, not used up
    assert emulator.limiter.invalid_requests == 0 and emulator.limiter.refused["shared"] == 2
    assert [r.scope for r in emulator.requests][-2:] == ["shared", "shared"]
    assert [m.content for m in emulator.world.channel_messages(emulator.general.id)] == ["e"]


@pytest.mark.parametrize(
    "emulator_options", [{"rate_limits": RateLimits(global_per_second=None, route_default=None, invalid_limit=3)}]
)
async def test_404s_count_as_invalid(emulator_options: dict[str, Any], emulator: Emulator, api: RawAPI) -> None:
    """topics/rate-limits: repeating requests that answer 404 brings the same temporary restriction."""
    gone = f"/channels/{emulator.general.id}/messages/1"
    with emulator.expect_violation("invalid-requests"):
        for _ in range(4):
            assert (await call(api, "GET", gone))[0] == 404
    assert emulator.limiter.invalid_requests == 4
    status, body, headers = await call(api, "GET", "/users/@me")
    assert status == 429 and isinstance(body, str) and "Via" not in headers


def test_shared_buckets_are_checked() -> None:
    with pytest.raises(ValueError, match="scope"):
        Shared(frozenset({"GET /users/@me"}), Limit(1, 1.0), scope="global")
    discord = RateLimits.discord()
    assert [name for name, _ in discord.groups("PUT " + REACTION.replace("{channel}", "{channel_id}").replace(
        "{message}", "{message_id}").replace("%F0%9F%91%8D", "{emoji}"))] == ["reactions"]
    assert [(n, g.scope) for n, g in discord.groups("POST /guilds/{guild_id}/emojis")] == [("emojis", "shared")]


@pytest.mark.parametrize("emulator_options", [{"rate_limits": RateLimits.discord(time_scale=0.1)}])
async def test_a_faster_clock_keeps_discords_counts(
    emulator_options: dict[str, Any], emulator: Emulator, api: RawAPI
) -> None:
    """``time_scale``: the same 5 posts per window, the window a tenth of Discord's 5 s (what bot tests meet)."""
    answers = [await call(api, *post(emulator), {"content": str(n)}) for n in range(6)]
    statuses = [a[0] for a in answers]
    assert statuses[:5] == [200] * 5 and answers[0][2]["X-RateLimit-Limit"] == "5"
    assert float(answers[0][2]["X-RateLimit-Reset-After"]) <= 0.5
    if statuses[5] == 429:  # unless the machine took half a second for six requests
        await asyncio.sleep(answers[5][1]["retry_after"] + 0.05)
    assert (await call(api, *post(emulator), {"content": "again"}))[0] == 200
    with pytest.raises(ValueError, match="time_scale"):
        RateLimits(time_scale=0)
