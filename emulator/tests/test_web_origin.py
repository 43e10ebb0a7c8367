"""The web client answers its own page only: another web page the visitor opens cannot drive it.

A cross-site page can send a ``text/plain`` POST without asking (a "simple" request), name any user in it, and a
page on a name it rebinds to 127.0.0.1 (DNS rebinding) reads the answers, since to the browser that is its own
origin; only the ``Host`` it sends gives it away. Each of these is refused before any route runs, for every route
(listed from the app, so a new route is covered too), and nothing reaches the emulator."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import aiohttp
import pytest

from emulator import Emulator, Harness, User
from emulator.web import WebClient

FOREIGN_HOSTS = ("evil.example", "evil.example:{port}", "127.0.0.1.evil.example:{port}", "127.0.0.1:{other}",
                 "127.0.0.1", "10.0.0.7:{port}", "[::1]:{other}", "")
FOREIGN_ORIGINS = ("http://evil.example", "null", "http://127.0.0.1:{other}", "https://127.0.0.1:{port}",
                   "http://127.0.0.1.evil.example:{port}", "http://evil.example:{port}", "file://")


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


def fill(template: str, web: WebClient) -> str:
    return template.format(port=web.port, other=web.port + 1 if web.port < 65535 else web.port - 1)


def said(emulator: Emulator, text: str) -> list[str]:
    """Messages with ``text`` in #general, as the emulator stores them (no request of the page in between)."""
    return [m.content for m in emulator.world.channel_messages(emulator.general.id) if text in m.content]


def routes(web: WebClient) -> list[tuple[str, str]]:
    """Every route the page's server answers, with a path that reaches it (``{x}`` filled in)."""
    found = []
    for route in web.app.router.routes():
        info = route.resource.get_info() if route.resource is not None else {}
        path = info.get("path") or info.get("formatter", "")
        found.append((route.method, path.replace("{name}", "app.js").replace("{channel_id}", "1")))
    assert {m for m, _ in found} >= {"GET", "POST"}
    return found


async def test_a_cross_site_text_plain_post_is_refused_and_reaches_nothing(
    emulator: Emulator, bot: Harness, alice: User, web: WebClient, http: aiohttp.ClientSession
) -> None:
    body = json.dumps({"user": "alice", "channel_id": str(emulator.general.id), "content": "forged hello"})
    cross_site = {"Content-Type": "text/plain;charset=UTF-8", "Origin": "http://evil.example"}
    async with http.post(f"{web.url}client/messages?user=alice", data=body, headers=cross_site) as resp:
        assert resp.status == 403, await resp.text()
    # Even from the page's own origin, or with no Origin at all, a state change is JSON or nothing.
    for headers in ({"Content-Type": "text/plain", "Origin": web.url.rstrip("/")}, {"Content-Type": "text/plain"},
                    {"Content-Type": "application/x-www-form-urlencoded"}, {"Content-Type": "multipart/form-data"},
                    {}):
        async with http.post(f"{web.url}client/messages?user=alice", data=body, headers=headers) as resp:
            assert resp.status == 415, (headers, await resp.text())
            assert "application/json" in (await resp.json())["message"]
    assert said(emulator, "forged") == []
    # The page's own request goes through.
    async with http.post(f"{web.url}client/messages?user=alice", data=body.replace("forged", "real"),
                         headers={"Content-Type": "application/json", "Origin": web.url.rstrip("/")}) as resp:
        assert resp.status == 200, await resp.text()
    assert said(emulator, "hello") == ["real hello"]


async def test_a_foreign_host_is_refused_on_every_route_reads_included(
    emulator: Emulator, bot: Harness, alice: User, web: WebClient, http: aiohttp.ClientSession
) -> None:
    for method, path in routes(web):
        for template in FOREIGN_HOSTS:
            host = fill(template, web)
            headers = {"Host": host, "Content-Type": "application/json"}
            async with http.request(method, f"{web.url.rstrip('/')}{path}?user=alice", headers=headers,
                                    data=json.dumps({"channel_id": str(emulator.general.id), "content": "rebound"}),
                                    skip_auto_headers=("Host",)) as resp:
                assert resp.status == 403, (method, path, host, resp.status)
                text = await resp.text()
                assert "alice" not in text and "general" not in text, (path, host, text)
    assert said(emulator, "rebound") == []
    # The address the page is served on, and the same port named "localhost", are its own.
    for host in (f"127.0.0.1:{web.port}", f"localhost:{web.port}"):
        async with http.get(f"{web.url}client/state?user=alice", headers={"Host": host}) as resp:
            assert resp.status == 200, host


async def test_a_foreign_origin_is_refused_on_every_route(
    emulator: Emulator, bot: Harness, alice: User, web: WebClient, http: aiohttp.ClientSession
) -> None:
    for method, path in routes(web):
        for template in FOREIGN_ORIGINS:
            origin = fill(template, web)
            async with http.request(method, f"{web.url.rstrip('/')}{path}?user=alice",
                                    headers={"Origin": origin, "Content-Type": "application/json"},
                                    data=json.dumps({"channel_id": str(emulator.general.id),
                                                     "content": "cross-site"})) as resp:
                assert resp.status == 403, (method, path, origin, resp.status)
    assert said(emulator, "cross-site") == []
    for origin in (f"http://127.0.0.1:{web.port}", f"http://localhost:{web.port}"):
        async with http.get(f"{web.url}client/state?user=alice", headers={"Origin": origin}) as resp:
            assert resp.status == 200, origin


async def test_a_request_acts_as_the_user_its_tab_is_for_not_one_its_body_names(
    emulator: Emulator, bot: Harness, alice: User, bob: User, web: WebClient, http: aiohttp.ClientSession
) -> None:
    body = {"user": "bob", "channel_id": str(emulator.general.id), "content": "who am I"}
    async with http.post(f"{web.url}client/messages?user=alice", json=body) as resp:
        assert resp.status == 200, await resp.text()
    [message] = [m for m in emulator.world.channel_messages(emulator.general.id) if m.content == "who am I"]
    assert message.author.id == alice.id


async def test_the_page_may_not_be_framed_nor_run_script_it_did_not_serve(web: WebClient,
                                                                          http: aiohttp.ClientSession) -> None:
    async with http.get(web.url) as resp:
        policy = resp.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
