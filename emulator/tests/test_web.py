"""The emulator's web client (``emulator/web``) over plain HTTP, with the toy bot: it shows each user only what
Discord shows them, and sends only what Discord's client can send, through the emulator's own checks."""

from __future__ import annotations

import asyncio
import base64
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from emulator import Emulator, Harness, User
from emulator.messages import create_message
from emulator.web import WebClient

from .toybot import png_bytes


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


class Tab:
    """One browser tab's requests, as one user."""

    def __init__(self, web: WebClient, http: aiohttp.ClientSession, user: User) -> None:
        self.web, self.http, self.user = web, http, user

    async def get(self, path: str) -> tuple[int, Any]:
        async with self.http.get(self.web.url.rstrip("/") + path, params={"user": self.user.username}) as resp:
            return resp.status, await resp.json()

    async def post(self, path: str, body: dict[str, Any]) -> tuple[int, Any]:
        async with self.http.post(self.web.url.rstrip("/") + path, params={"user": self.user.username},
                                  json=body) as resp:
            return resp.status, await resp.json()

    async def command(self, emulator: Emulator, channel_id: int, name: str, path: list[str], options: dict[str, Any],
                      **extra: Any) -> tuple[int, Any]:
        command = next(c for c in emulator.world.commands.values() if c.name == name)
        return await self.post("/client/interactions", {
            "type": 4 if "focused" in extra else 2, "channel_id": str(channel_id), "command_id": str(command.id),
            "path": path, "options": options, **extra})

    async def messages(self, channel_id: int) -> list[dict[str, Any]]:
        status, found = await self.get(f"/client/channels/{channel_id}/messages")
        assert status == 200, found
        return list(found)


async def test_only_loopback() -> None:
    emu = Emulator()
    with pytest.raises(ValueError, match="loopback"):
        WebClient(emu, host="0.0.0.0")


async def test_the_page_and_the_sidebar(
    emulator: Emulator, bot: Harness, alice: User, web: WebClient, http: aiohttp.ClientSession
) -> None:
    async with http.get(web.url) as resp:
        assert resp.status == 200 and "/static/app.js" in await resp.text()
    for name in ("app.js", "app.css"):
        async with http.get(f"{web.url}static/{name}") as resp:
            assert resp.status == 200
    async with http.get(f"{web.url}static/../server.py") as resp:
        assert resp.status == 404
    tab = Tab(web, http, alice)
    status, state = await tab.get("/client/state")
    assert status == 200
    assert state["me"]["username"] == "alice"
    assert [c["name"] for c in state["guilds"][0]["channels"]] == ["general"]
    assert state["dms"][0]["recipients"][0]["username"] == emulator.bot.username  # named after the other side
    status, commands = await tab.get(f"/client/channels/{emulator.general.id}/commands")
    assert {c["name"] for c in commands} >= {"toy", "ping"}
    status, _ = await Tab(web, http, User(1, "nobody")).get("/client/state")
    assert status == 404


async def test_a_command_with_typed_options_and_what_the_client_refuses(
    emulator: Emulator, bot: Harness, alice: User, web: WebClient, http: aiohttp.ClientSession
) -> None:
    tab = Tab(web, http, alice)
    general = emulator.general.id
    status, answer = await tab.command(emulator, general, "toy", ["echo"], {"text": "hello", "times": "3"})
    assert status == 200 and answer["answered"] and answer["response_type"] == 4
    (shown,) = await tab.messages(general)
    assert shown["content"] == "hello hello hello"
    assert shown["interaction_metadata"]["user"]["username"] == "alice"

    before = len(emulator.world.interactions)
    refused = [
        ({"text": "hi", "times": "three"}, ["echo"], "whole number"),
        ({"text": "hi", "colour": "red"}, ["echo"], "no option"),
        ({}, ["echo"], "missing required"),
        ({"kind": "chess"}, ["game", "new"], "must be one of"),
    ]
    for options, path, why in refused:
        status, answer = await tab.command(emulator, general, "toy", path, options)
        assert status == 400 and why in answer["message"], answer
    assert len(emulator.world.interactions) == before, "nothing a Discord client would refuse reached the bot"

    status, answer = await tab.command(emulator, general, "toy", ["pick"], {"fruit": "ap"}, focused="fruit")
    assert status == 200 and [c["value"] for c in answer["choices"]] == ["apple", "apricot"]


async def test_ephemeral_replies_buttons_and_selects(
    emulator: Emulator, bot: Harness, alice: User, bob: User, web: WebClient, http: aiohttp.ClientSession
) -> None:
    ana_tab, bob_tab = Tab(web, http, alice), Tab(web, http, bob)
    general = emulator.general.id
    await ana_tab.command(emulator, general, "toy", ["secret"], {})
    (secret,) = await ana_tab.messages(general)
    assert secret["flags"] & 64
    assert await bob_tab.messages(general) == [], "another user's ephemeral reply never reaches their page"
    reveal = next(b for row in secret["components"] for b in row["components"] if b.get("label") == "Reveal")
    status, answer = await bob_tab.post("/client/interactions", {"type": 3, "message_id": secret["id"],
                                                                 "custom_id": reveal["custom_id"]})
    assert status == 400 and "only for someone else" in answer["message"]
    status, answer = await ana_tab.post("/client/interactions", {"type": 3, "message_id": secret["id"],
                                                                 "custom_id": reveal["custom_id"]})
    assert status == 200 and answer["answered"]
    assert (await ana_tab.messages(general))[0]["content"] == "revealed to alice"

    await ana_tab.command(emulator, general, "toy", ["board"], {})
    counter = [m for m in await ana_tab.messages(general) if m["content"].startswith("count")][-1]
    status, answer = await bob_tab.post("/client/interactions", {"type": 3, "message_id": counter["id"],
                                                                 "custom_id": "toy:fruit", "values": ["durian"]})
    assert status == 400 and "not an option" in answer["message"]
    status, answer = await bob_tab.post("/client/interactions", {"type": 3, "message_id": counter["id"],
                                                                 "custom_id": "toy:fruit", "values": ["apple"]})
    assert status == 200 and answer["answered"]
    assert "you chose apple" in [m["content"] for m in await bob_tab.messages(general)]


async def test_modals_are_submitted_by_their_user_with_their_required_inputs(
    emulator: Emulator, bot: Harness, alice: User, bob: User, web: WebClient, http: aiohttp.ClientSession
) -> None:
    ana_tab, bob_tab = Tab(web, http, alice), Tab(web, http, bob)
    status, opened = await ana_tab.command(emulator, emulator.general.id, "toy", ["feedback"], {})
    assert opened["response_type"] == 9 and opened["modal"]["title"] == "Feedback"
    submit = {"type": 5, "interaction_id": opened["interaction_id"]}
    status, answer = await bob_tab.post("/client/interactions", {**submit, "values": {"comment": "x"}})
    assert status == 400 and "only the person" in answer["message"]
    status, answer = await ana_tab.post("/client/interactions", {**submit, "values": {"mood": "happy"}})
    assert status == 400 and "required" in answer["message"]
    status, answer = await ana_tab.post("/client/interactions",
                                        {**submit, "values": {"comment": "nice game", "mood": "happy"}})
    assert status == 200 and answer["answered"]
    assert "thanks: nice game (happy)" in [m["content"] for m in await ana_tab.messages(emulator.general.id)]


async def test_a_modals_file_upload_sends_its_files_as_discord_does(
    emulator: Emulator, bot: Harness, alice: User, web: WebClient, http: aiohttp.ClientSession
) -> None:
    """A file chosen in a modal's upload goes through the emulator's checks (how many, how large) and reaches
    the bot as Discord sends it: the component's ``values`` name attachments in ``resolved``, whose URL serves
    the bytes."""
    tab = Tab(web, http, alice)
    png = png_bytes(30, 20)
    picked = {"filename": "shot.png", "content_type": "image/png", "data": base64.b64encode(png).decode()}

    async def opened() -> dict[str, Any]:
        status, answer = await tab.command(emulator, emulator.general.id, "toy", ["upload"], {})
        assert status == 200 and answer["response_type"] == 9, answer
        return {"type": 5, "interaction_id": answer["interaction_id"]}

    submit = await opened()
    status, answer = await tab.post("/client/interactions", {**submit, "values": {}})
    assert status == 400 and "required" in answer["message"], answer
    status, answer = await tab.post("/client/interactions", {**submit, "values": {"shot": [picked] * 3}})
    assert status == 400 and "1..2" in answer["message"], answer
    status, answer = await tab.post("/client/interactions", {**submit, "values": {"shot": [
        {**picked, "data": "not base64!"}]}})
    assert status == 400 and "base64" in answer["message"], answer
    emulator.attachment_size_limit = len(png) - 1  # a file over the limit is refused before the bot sees it
    status, answer = await tab.post("/client/interactions", {**submit, "values": {"shot": [picked]}})
    assert status == 400 and "too large" in answer["message"], answer
    emulator.attachment_size_limit = 10 * 1024 * 1024

    status, answer = await tab.post("/client/interactions", {**submit, "values": {"shot": [picked]}})
    assert status == 200 and answer["answered"], answer
    said = [m["content"] for m in await tab.messages(emulator.general.id)]
    assert f"uploaded: shot.png (image/png, {len(png)} bytes, read {len(png)})" in said, said


async def test_no_bot_is_this_interaction_failed_and_messages_go_live(
    emulator: Emulator, harness: Harness, web: WebClient, http: aiohttp.ClientSession
) -> None:
    alice = await harness.add_user("alice")
    tab = Tab(web, http, alice)
    general = str(emulator.general.id)
    connected, events = asyncio.Event(), asyncio.Queue[str]()

    async def listen() -> None:
        async with http.get(f"{web.url}client/events", params={"user": "alice"}) as resp:
            async for line in resp.content:
                connected.set()
                if line.startswith(b"event: change"):
                    await events.put("change")

    listener = asyncio.create_task(listen())
    try:
        await asyncio.wait_for(connected.wait(), 10)
        status, _ = await tab.post("/client/messages", {"channel_id": general, "content": "hi <@1>"})
        assert status == 200
        assert await asyncio.wait_for(events.get(), 10) == "change"
        assert [m["content"] for m in await tab.messages(emulator.general.id)] == ["hi <@1>"]
        status, _ = await tab.post("/client/messages", {"channel_id": general, "content": " "})
        assert status == 400

        # A button left by a bot that is not running: Discord delivers the click nowhere.
        button = {"type": 2, "style": 1, "label": "Go", "custom_id": "go"}
        old = create_message(emulator, emulator.general, emulator.bot,
                             {"content": "old", "components": [{"type": 1, "components": [button]}]}, [])
        status, answer = await tab.post("/client/interactions",
                                        {"type": 3, "message_id": str(old.id), "custom_id": "go"})
        assert status == 200 and answer["failed"] == "This interaction failed"
    finally:
        listener.cancel()
