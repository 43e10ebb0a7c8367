"""REST routes through raw HTTP: auth, application, commands, DMs, messages, threads, attachments."""

from __future__ import annotations

import pytest

from emulator import Emulator, User
from emulator import permissions as P
from emulator.model import Overwrite
from emulator.ratelimits import RateLimits

from .raw import RawAPI, RawGateway

#: Many requests on one channel in a row from a raw client that does not wait for buckets: this test is about
#: bodies, not rate limits, so it runs without Discord's (explicitly).
UNLIMITED = pytest.mark.parametrize("emulator_options", [{"rate_limits": RateLimits.off()}])


async def test_auth_required(emulator: Emulator) -> None:
    async with RawAPI(emulator, token="wrong") as api:
        status, err = await api.request("GET", "/users/@me")
        assert (status, err["message"]) == (401, "401: Unauthorized")
        status, _ = await api.request("GET", "/users/@me", auth=False)
        assert status == 401
    assert emulator.violations == []


async def test_me_application_gateway(emulator: Emulator, api: RawAPI) -> None:
    status, me = await api.request("GET", "/users/@me")
    assert status == 200 and me["bot"] and me["id"] == str(emulator.bot.id)
    _, app = await api.request("GET", "/oauth2/applications/@me")
    assert app["id"] == str(emulator.world.application_id) and app["interactions_endpoint_url"] is None
    _, gw = await api.request("GET", "/gateway/bot")
    assert gw["url"] == emulator.gateway_url and gw["shards"] == 1


async def test_command_sync_keeps_ids(emulator: Emulator, api: RawAPI) -> None:
    path = f"/applications/{emulator.world.application_id}/commands"
    cmds = [{"name": "a", "description": "A", "type": 1}, {"name": "b", "description": "B", "type": 1}]
    _, first = await api.request("PUT", path, cmds)
    _, second = await api.request("PUT", path, [cmds[1], {"name": "c", "description": "C", "type": 1}])
    ids1 = {c["name"]: c["id"] for c in first}
    ids2 = {c["name"]: c["id"] for c in second}
    assert ids2["b"] == ids1["b"] and "a" not in ids2
    _, listed = await api.request("GET", path)
    assert sorted(c["name"] for c in listed) == ["b", "c"]
    gpath = f"/applications/{emulator.world.application_id}/guilds/{emulator.guild.id}/commands"
    _, guild_cmds = await api.request("PUT", gpath, [cmds[0]])
    assert guild_cmds[0]["guild_id"] == str(emulator.guild.id)
    status, _ = await api.request("PUT", f"/applications/{emulator.world.application_id}/guilds/123/commands", [])
    assert status == 403


async def test_dm_channels_and_closed_dms(emulator: Emulator, api: RawAPI, carol: User) -> None:
    _, dm = await api.request("POST", "/users/@me/channels", {"recipient_id": str(carol.id)})
    _, again = await api.request("POST", "/users/@me/channels", {"recipient_id": str(carol.id)})
    assert dm["id"] == again["id"] and dm["type"] == 1 and dm["recipients"][0]["id"] == str(carol.id)
    status, _ = await api.request("POST", f"/channels/{dm['id']}/messages", {"content": "hi"})
    assert status == 200
    carol.dms_open = False
    status, err = await api.request("POST", f"/channels/{dm['id']}/messages", {"content": "hi again"})
    assert (status, err["code"], err["message"]) == (403, 50007, "Cannot send messages to this user")
    assert emulator.violations == []  # a refusal, not a bot mistake
    assert emulator.rejections[-1].code == 50007


@UNLIMITED
async def test_message_crud_and_history(emulator: Emulator, emulator_options: object, api: RawAPI) -> None:
    base = f"/channels/{emulator.general.id}/messages"
    ids = [(await api.request("POST", base, {"content": f"m{i}"}))[1]["id"] for i in range(5)]
    _, newest = await api.request("GET", base, params={"limit": "2"})
    assert [m["content"] for m in newest] == ["m4", "m3"]
    _, older = await api.request("GET", base, params={"before": ids[2], "limit": "10"})
    assert [m["content"] for m in older] == ["m1", "m0"]
    _, after = await api.request("GET", base, params={"after": ids[2]})
    assert sorted(m["content"] for m in after) == ["m3", "m4"]
    status, _ = await api.request("DELETE", f"{base}/{ids[0]}")
    assert status == 204
    status, err = await api.request("GET", f"{base}/{ids[0]}")
    assert (status, err["code"]) == (404, 10008)
    _, reply = await api.request("POST", base, {"content": "re", "message_reference": {"message_id": ids[1]}})
    assert reply["type"] == 19 and reply["message_reference"]["message_id"] == ids[1]
    status, _ = await api.request("PUT", f"{base}/{ids[1]}/reactions/%F0%9F%91%8D/@me")
    assert status == 204
    _, reacted = await api.request("GET", f"{base}/{ids[1]}")
    assert reacted["reactions"][0]["emoji"]["name"] == "👍" and reacted["reactions"][0]["me"]


async def test_cannot_edit_someone_elses_message(emulator: Emulator, api: RawAPI, carol: User) -> None:
    from emulator.messages import create_message

    msg = create_message(emulator, emulator.general, carol, {"content": "mine"}, [])
    with emulator.expect_violation("message-author"):
        status, err = await api.request("PATCH", f"/channels/{emulator.general.id}/messages/{msg.id}", {"content": "x"})
    assert (status, err["code"]) == (403, 50005)


async def test_threads(emulator: Emulator, api: RawAPI) -> None:
    async with RawGateway(emulator) as gw:
        await gw.identify()
        _, starter = await api.request("POST", f"/channels/{emulator.general.id}/messages", {"content": "start"})
        status, thread = await api.request(
            "POST", f"/channels/{emulator.general.id}/messages/{starter['id']}/threads", {"name": "from msg"}
        )
        assert status == 201 and thread["id"] == starter["id"] and thread["type"] == 11
        created = await gw.wait_event("THREAD_CREATE")
        assert created["d"]["id"] == thread["id"] and created["d"]["newly_created"]
        status, err = await api.request(
            "POST", f"/channels/{emulator.general.id}/messages/{starter['id']}/threads", {"name": "again"}
        )
        assert (status, err["code"]) == (400, 160004)
        with emulator.expect_violation("thread-name"):
            status, _ = await api.request(
                "POST", f"/channels/{emulator.general.id}/threads", {"name": "n" * 101, "type": 11}
            )
        assert status == 400
        status, private = await api.request(
            "POST", f"/channels/{emulator.general.id}/threads", {"name": "p", "type": 12}
        )
        assert status == 201 and private["thread_metadata"]["archived"] is False
        _, msg = await api.request("POST", f"/channels/{private['id']}/messages", {"content": "in thread"})
        assert msg["channel_id"] == private["id"]
        _, patched = await api.request("PATCH", f"/channels/{private['id']}", {"archived": True, "locked": True})
        assert patched["thread_metadata"]["archived"] and patched["thread_metadata"]["locked"]
        update = await gw.wait_event("THREAD_UPDATE")
        assert update["d"]["id"] == private["id"]
        # the bot moderates (MANAGE_THREADS): its post unarchives the locked thread
        status, _ = await api.request("POST", f"/channels/{private['id']}/messages", {"content": "mod post"})
        assert status == 200 and not emulator.world.channels[int(private["id"])].archived
        unarchived = await gw.wait_event("THREAD_UPDATE")
        assert unarchived["d"]["thread_metadata"]["archived"] is False
        # without MANAGE_THREADS a locked thread refuses posts
        emulator.general.overwrites[emulator.bot.id] = Overwrite(emulator.bot.id, 1, deny=P.MANAGE_THREADS)
        with emulator.expect_violation("thread-locked"):
            status, err = await api.request("POST", f"/channels/{private['id']}/messages", {"content": "no"})
        assert (status, err["code"]) == (403, 160005)
        _, archived = await api.request("GET", f"/channels/{emulator.general.id}/threads/archived/public")
        assert archived["threads"] == []


async def test_attachments_multipart_and_served(emulator: Emulator, api: RawAPI) -> None:
    status, msg = await api.request(
        "POST",
        f"/channels/{emulator.general.id}/messages",
        {"content": "files", "attachments": [{"id": 0, "description": "first"}, {"id": 1}]},
        files=[("a.txt", b"alpha"), ("b.png", b"\x89PNG\r\n\x1a\nrest")],
    )
    assert status == 200
    a, b = msg["attachments"]
    assert (a["filename"], a["size"], a["description"]) == ("a.txt", 5, "first")
    assert b["content_type"] == "image/png"
    async with api.session.get(b["url"]) as resp:
        assert resp.status == 200 and await resp.read() == b"\x89PNG\r\n\x1a\nrest"
    # editing keeps only the attachments listed
    _, edited = await api.request(
        "PATCH", f"/channels/{emulator.general.id}/messages/{msg['id']}", {"attachments": [{"id": b["id"]}]}
    )
    assert [x["filename"] for x in edited["attachments"]] == ["b.png"]


async def test_unsupported_route(emulator: Emulator, api: RawAPI) -> None:
    with emulator.expect_violation("unsupported-route") as caught:
        status, _ = await api.request("GET", f"/guilds/{emulator.guild.id}/bans")
    assert status == 404 and "/bans" in caught[0].detail


async def test_rate_limit_headers(emulator: Emulator, api: RawAPI) -> None:
    emulator.rate_limit("GET /users/@me", count=1, retry_after=0.25)
    async with api.session.get(
        emulator.api_url + "/users/@me", headers={"Authorization": f"Bot {emulator.token}"}
    ) as r:
        assert r.status == 429
        body = await r.json()
        assert body["retry_after"] == 0.25 and body["global"] is False
        assert r.headers["X-RateLimit-Remaining"] == "0"
        assert float(r.headers["X-RateLimit-Reset-After"]) == 0.25
        assert r.headers["Via"]
    status, _ = await api.request("GET", "/users/@me")
    assert status == 200


async def test_invalid_json_and_emulator_errors(
    emulator: Emulator, api: RawAPI, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    url = emulator.api_url + f"/channels/{emulator.general.id}/messages"
    headers = {"Authorization": f"Bot {emulator.token}", "Content-Type": "application/json"}
    async with api.session.post(url, data="{not json", headers=headers) as r:
        assert r.status == 400 and (await r.json())["code"] == 50109

    def broken(*args: object) -> None:
        raise RuntimeError("emulator bug")

    monkeypatch.setattr(emulator.world, "message_payload", broken)
    status, err = await api.request("POST", f"/channels/{emulator.general.id}/messages", {"content": "hi"})
    assert status == 400 and "emulator bug" in err["message"]
    assert any(r.name == "emulator" and r.levelname == "ERROR" for r in caplog.records)
