"""Interaction callbacks, follow-ups and @original via raw HTTP (no discord.py), against a raw gateway session."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from emulator import Emulator, Harness, User
from emulator.interactions import dispatch_interaction
from emulator.model import Interaction

from .raw import RawAPI, RawGateway

JSON = dict[str, Any]


async def command(emulator: Emulator, user: User, name: str = "cmd") -> Interaction:
    data = {"id": "1", "name": name, "type": 1}
    return await dispatch_interaction(emulator, type=2, user=user, channel=emulator.general, data=data)


def cb(inter: Interaction) -> str:
    return f"/interactions/{inter.id}/{inter.token}/callback"


def hook(emulator: Emulator, inter: Interaction, suffix: str = "") -> str:
    return f"/webhooks/{emulator.world.application_id}/{inter.token}{suffix}"


async def test_interaction_payload_shape(emulator: Emulator, gw: RawGateway, carol: User) -> None:
    inter = await command(emulator, carol)
    event = await gw.wait_event("INTERACTION_CREATE")
    d = event["d"]
    assert d["id"] == str(inter.id) and d["token"] == inter.token and d["type"] == 2 and d["version"] == 1
    assert d["application_id"] == str(emulator.world.application_id)
    assert d["guild_id"] == str(emulator.guild.id) and d["channel_id"] == str(emulator.general.id)
    assert d["channel"]["id"] == str(emulator.general.id) and "permissions" in d["channel"]
    assert d["member"]["user"]["id"] == str(carol.id) and "permissions" in d["member"]
    for key in ("app_permissions", "locale", "guild_locale", "entitlements", "attachment_size_limit", "context"):
        assert key in d


async def test_reply_original_and_followups(emulator: Emulator, gw: RawGateway, api: RawAPI, carol: User) -> None:
    inter = await command(emulator, carol)
    status, body = await api.request(
        "POST", cb(inter), {"type": 4, "data": {"content": "hi"}}, params={"with_response": "1"}
    )
    assert status == 200
    assert body["interaction"]["id"] == str(inter.id)
    mid = body["interaction"]["response_message_id"]
    assert body["resource"]["type"] == 4 and body["resource"]["message"]["content"] == "hi"
    status, original = await api.request("GET", hook(emulator, inter, "/messages/@original"))
    assert status == 200 and original["id"] == mid
    assert original["interaction_metadata"]["user"]["id"] == str(carol.id)
    status, edited = await api.request("PATCH", hook(emulator, inter, "/messages/@original"), {"content": "hello"})
    assert status == 200 and edited["content"] == "hello"
    status, fu = await api.request("POST", hook(emulator, inter), {"content": "more"}, params={"wait": "1"})
    assert status == 200 and fu["content"] == "more"
    status, fu2 = await api.request("PATCH", hook(emulator, inter, f"/messages/{fu['id']}"), {"content": "more!"})
    assert status == 200 and fu2["content"] == "more!"
    status, _ = await api.request("DELETE", hook(emulator, inter, f"/messages/{fu['id']}"))
    assert status == 204
    assert [m.content for m in emulator.world.channel_messages(emulator.general.id)] == ["hello"]
    # a message of another interaction is not reachable through this token
    other = await command(emulator, carol)
    await api.request("POST", cb(other), {"type": 4, "data": {"content": "other"}})
    with emulator.expect_violation("webhook-message-not-owned"):
        status, _ = await api.request("GET", hook(emulator, inter, f"/messages/{other.original_message_id}"))
    assert status == 404


async def test_response_type_must_fit(emulator: Emulator, gw: RawGateway, api: RawAPI, carol: User) -> None:
    inter = await command(emulator, carol)
    with emulator.expect_violation("interaction-response-type"):
        status, err = await api.request("POST", cb(inter), {"type": 7, "data": {"content": "x"}})
    assert status == 400 and "type" in err["errors"]
    with emulator.expect_violation("interaction-response-type"):
        status, _ = await api.request("POST", cb(inter), {"type": 8, "data": {"choices": []}})
    assert not inter.responded
    status, _ = await api.request("POST", cb(inter), {"type": 4, "data": {"content": "ok"}})
    assert status == 204


async def test_at_most_one_initial_response(emulator: Emulator, gw: RawGateway, api: RawAPI, carol: User) -> None:
    inter = await command(emulator, carol)
    assert (await api.request("POST", cb(inter), {"type": 5}))[0] == 204
    with emulator.expect_violation("interaction-acknowledged"):
        status, err = await api.request("POST", cb(inter), {"type": 4, "data": {"content": "again"}})
    assert (status, err["code"], err["message"]) == (400, 40060, "Interaction has already been acknowledged.")


async def test_followup_and_edit_before_response(emulator: Emulator, gw: RawGateway, api: RawAPI, carol: User) -> None:
    inter = await command(emulator, carol)
    with emulator.expect_violation("followup-before-response"):
        status, err = await api.request("POST", hook(emulator, inter), {"content": "early"})
    assert (status, err["code"]) == (404, 10015)
    with emulator.expect_violation("followup-before-response"):
        status, _ = await api.request("PATCH", hook(emulator, inter, "/messages/@original"), {"content": "early"})
    assert status == 404


async def test_deadline(emulator: Emulator, gw: RawGateway, api: RawAPI, carol: User) -> None:
    emulator.interaction_deadline = 0.05
    inter = await command(emulator, carol)
    await asyncio.sleep(0.1)
    with emulator.expect_violation("interaction-deadline") as caught:
        status, err = await api.request("POST", cb(inter), {"type": 4, "data": {"content": "late"}})
    assert (status, err["code"], err["message"]) == (404, 10062, "Unknown interaction")
    assert "after dispatch" in caught[0].detail
    assert emulator.world.channel_messages(emulator.general.id) == []


async def test_token_expiry(emulator: Emulator, gw: RawGateway, api: RawAPI, carol: User) -> None:
    emulator.token_lifetime = 0.05
    inter = await command(emulator, carol)
    await api.request("POST", cb(inter), {"type": 5})
    await asyncio.sleep(0.1)
    with emulator.expect_violation("interaction-token-expired"):
        status, err = await api.request("POST", hook(emulator, inter), {"content": "too late"})
    assert (status, err["code"]) == (401, 50027)


async def test_deferred_response_is_completed_by_editing_original(
    emulator: Emulator, gw: RawGateway, api: RawAPI, carol: User
) -> None:
    inter = await command(emulator, carol)
    _, body = await api.request("POST", cb(inter), {"type": 5, "data": {"flags": 64}}, params={"with_response": "1"})
    assert body["interaction"]["response_message_loading"] is True
    assert body["interaction"]["response_message_ephemeral"] is True
    assert "message" not in body["resource"]  # documented: only for callback types 4 and 7
    loading = emulator.world.messages[inter.original_message_id or 0]
    assert loading.loading and loading.ephemeral
    # strict: a follow-up does not complete the "thinking" message (Discord's deprecated path)
    with emulator.expect_violation("deferred-followup") as caught:
        status, err = await api.request("POST", hook(emulator, inter), {"content": "result"})
    assert status == 400 and "@original" in err["message"] and "still thinking" in caught[0].detail
    assert loading.loading and inter.followup_ids == []
    _, done = await api.request("PATCH", hook(emulator, inter, "/messages/@original"), {"content": "result"})
    assert done["id"] == str(loading.id) and not loading.loading and loading.ephemeral
    _, second = await api.request("POST", hook(emulator, inter), {"content": "extra"})
    assert second["id"] != str(loading.id)
    assert inter.followup_ids == [int(second["id"])]


@pytest.mark.parametrize("emulator_options", [{"strict": False}])
async def test_lenient_mode_lets_the_first_followup_edit_the_loading_message(
    emulator_options: dict[str, Any], emulator: Emulator, gw: RawGateway, api: RawAPI, carol: User
) -> None:
    assert not emulator.strict
    inter = await command(emulator, carol)
    await api.request("POST", cb(inter), {"type": 5, "data": {"flags": 64}})
    loading = emulator.world.messages[inter.original_message_id or 0]
    _, first = await api.request("POST", hook(emulator, inter), {"content": "result", "flags": 0})
    assert first["id"] == str(loading.id) and not loading.loading and loading.ephemeral
    _, second = await api.request("POST", hook(emulator, inter), {"content": "extra"})
    assert second["id"] != str(loading.id)
    assert inter.followup_ids == [int(second["id"])]
    assert emulator.violations == []


async def test_ephemeral_reply_not_fetchable_through_the_channel(
    emulator: Emulator, gw: RawGateway, api: RawAPI, carol: User
) -> None:
    inter = await command(emulator, carol)
    await api.request("POST", cb(inter), {"type": 4, "data": {"content": "psst", "flags": 64}})
    msg = emulator.world.messages[inter.original_message_id or 0]
    assert msg.ephemeral and msg.visible_to == carol.id
    status, _ = await api.request("GET", f"/channels/{emulator.general.id}/messages/{msg.id}")
    assert status == 404
    status, listed = await api.request("GET", f"/channels/{emulator.general.id}/messages")
    assert listed == []
    status, original = await api.request("GET", hook(emulator, inter, "/messages/@original"))
    assert status == 200 and original["flags"] & 64


async def test_component_update_and_deferred_update(
    emulator: Emulator, gw: RawGateway, api: RawAPI, carol: User
) -> None:
    _, posted = await api.request(
        "POST",
        f"/channels/{emulator.general.id}/messages",
        {
            "content": "board",
            "components": [{"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go"}]}],
        },
    )
    board = emulator.world.messages[int(posted["id"])]
    data = {"custom_id": "go", "component_type": 2}
    click = await dispatch_interaction(emulator, type=3, user=carol, channel=emulator.general, data=data, message=board)
    event = await gw.wait_event("INTERACTION_CREATE")
    assert event["d"]["message"]["id"] == posted["id"] and event["d"]["data"] == data
    status, _ = await api.request("POST", cb(click), {"type": 7, "data": {"content": "board v2"}})
    assert status == 204 and board.content == "board v2"
    click2 = await dispatch_interaction(
        emulator, type=3, user=carol, channel=emulator.general, data=data, message=board
    )
    await api.request("POST", cb(click2), {"type": 6})
    await api.request("PATCH", hook(emulator, click2, "/messages/@original"), {"content": "board v3", "components": []})
    assert board.content == "board v3" and board.components == []
    assert [h["content"] for h in board.history] == ["board", "board v2"]


async def test_autocomplete_and_modal_callbacks(emulator: Emulator, gw: RawGateway, api: RawAPI, carol: User) -> None:
    data = {"id": "1", "name": "cmd", "type": 1, "options": [{"name": "q", "type": 3, "value": "a", "focused": True}]}
    ac = await dispatch_interaction(emulator, type=4, user=carol, channel=emulator.general, data=data)
    choices = [{"name": f"c{i}", "value": f"c{i}"} for i in range(26)]
    with emulator.expect_violation("autocomplete-choices"):
        status, err = await api.request("POST", cb(ac), {"type": 8, "data": {"choices": choices}})
    assert status == 400 and "choices" in err["errors"]["data"]
    assert (await api.request("POST", cb(ac), {"type": 8, "data": {"choices": choices[:25]}}))[0] == 204
    assert ac.choices == choices[:25]
    inter = await command(emulator, carol)
    modal = {
        "title": "t" * 46,
        "custom_id": "m",
        "components": [{"type": 1, "components": [{"type": 4, "custom_id": "x", "style": 1, "label": "X"}]}],
    }
    with emulator.expect_violation("modal-title"):
        status, err = await api.request("POST", cb(inter), {"type": 9, "data": modal})
    assert "title" in err["errors"]["data"]


async def test_callback_with_attachment(emulator: Emulator, gw: RawGateway, api: RawAPI, carol: User) -> None:
    inter = await command(emulator, carol)
    png = b"\x89PNG\r\n\x1a\n" + b"\x00" * 8 + (3).to_bytes(4, "big") + (2).to_bytes(4, "big")
    payload = {"type": 4, "data": {"content": "pic", "attachments": [{"id": 0, "filename": "p.png"}]}}
    status, _ = await api.request("POST", cb(inter), payload, files=[("p.png", png)])
    assert status == 204
    msg = emulator.world.messages[inter.original_message_id or 0]
    (att,) = msg.attachments
    assert att.is_png and att.image_size() == (3, 2) and att.content_type == "image/png"
    assert att.payload()["width"] == 3


# --- strict: flags per callback type, follow-up parameters, autocomplete value types --------------------------------


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"type": 5, "data": {"flags": 64 | 4}}, ("data", "flags")),  # a deferral takes EPHEMERAL only
        ({"type": 5, "data": {"flags": 1 << 15}}, ("data", "flags")),  # components v2 come with the edit
        ({"type": 4, "data": {"content": "x", "flags": 1 << 1}}, ("data", "flags")),  # IS_CROSSPOST
        ({"type": 4, "data": {"content": "x", "flags": 1 << 7}}, ("data", "flags")),  # LOADING
    ],
)
async def test_callback_flags(
    emulator: Emulator, gw: RawGateway, api: RawAPI, carol: User, body: dict[str, Any], path: tuple[str, ...]
) -> None:
    inter = await command(emulator, carol)
    with emulator.expect_violation("message-flags"):
        status, err = await api.request("POST", cb(inter), body)
    assert (status, err["code"]) == (400, 50035)
    assert err["errors"][path[0]][path[1]]["_errors"][0]["code"] == "MESSAGE_FLAGS_INVALID"
    assert not inter.responded
    assert (await api.request("POST", cb(inter), {"type": 4, "data": {"content": "ok", "flags": 64 | 4 | 4096}}))[
        0
    ] == 204


async def test_followup_and_edit_flags_and_parameters(
    emulator: Emulator, gw: RawGateway, api: RawAPI, carol: User
) -> None:
    inter = await command(emulator, carol)
    await api.request("POST", cb(inter), {"type": 4, "data": {"content": "hi"}})
    with emulator.expect_violation("message-flags"):
        status, err = await api.request("POST", hook(emulator, inter), {"content": "x", "flags": 1 << 7})
    assert status == 400 and "flags" in err["errors"]
    with emulator.expect_violation("followup-params"):
        status, err = await api.request("POST", hook(emulator, inter), {"content": "x", "username": "someone else"})
    assert status == 400 and "username" in err["errors"]
    with emulator.expect_violation("followup-params"):
        status, err = await api.request(
            "POST", hook(emulator, inter), {"content": "x"}, params={"thread_id": str(emulator.general.id)}
        )
    assert status == 400 and "thread_id" in err["errors"]
    with emulator.expect_violation("message-flags"):
        status, err = await api.request("PATCH", hook(emulator, inter, "/messages/@original"), {"flags": 64})
    assert status == 400 and "flags" in err["errors"]
    status, _ = await api.request("POST", hook(emulator, inter), {"content": "x", "flags": 64}, params={"wait": "true"})
    assert status == 200


async def test_autocomplete_choice_values_have_the_focused_options_type(
    emulator: Emulator, gw: RawGateway, api: RawAPI, carol: User
) -> None:
    data = {
        "id": "1",
        "name": "cmd",
        "type": 1,
        "options": [{"name": "sub", "type": 1, "options": [{"name": "n", "type": 4, "value": "1", "focused": True}]}],
    }
    ac = await dispatch_interaction(emulator, type=4, user=carol, channel=emulator.general, data=data)
    with emulator.expect_violation("autocomplete-choice"):
        status, err = await api.request(
            "POST", cb(ac), {"type": 8, "data": {"choices": [{"name": "one", "value": "1"}]}}
        )
    assert status == 400 and err["errors"]["data"]["choices"]["0"]["value"]["_errors"][0]["code"]
    with emulator.expect_violation("autocomplete-choice"):
        status, _ = await api.request(
            "POST", cb(ac), {"type": 8, "data": {"choices": [{"name": "half", "value": 0.5}]}}
        )
    assert status == 400
    assert (await api.request("POST", cb(ac), {"type": 8, "data": {"choices": [{"name": "one", "value": 1}]}}))[
        0
    ] == 204


async def test_update_message_with_response_carries_the_message(
    emulator: Emulator, gw: RawGateway, api: RawAPI, carol: User
) -> None:
    inter = await command(emulator, carol)
    _, body = await api.request(
        "POST", cb(inter), {"type": 4, "data": {"content": "x"}}, params={"with_response": "true"}
    )
    assert body["resource"]["type"] == 4 and body["resource"]["message"]["content"] == "x"


async def test_editing_a_response_in_an_archived_thread(
    emulator: Emulator, gw: RawGateway, api: RawAPI, carol: User
) -> None:
    body = {"name": "t", "type": 11, "auto_archive_duration": 60}
    _, thread = await api.request("POST", f"/channels/{emulator.general.id}/threads", body)
    channel = emulator.world.channels[int(thread["id"])]
    data = {"id": "1", "name": "cmd", "type": 1}
    public = await dispatch_interaction(emulator, type=2, user=carol, channel=channel, data=data)
    private = await dispatch_interaction(emulator, type=2, user=carol, channel=channel, data=data)
    await api.request("POST", cb(public), {"type": 4, "data": {"content": "public"}})
    await api.request("POST", cb(private), {"type": 5, "data": {"flags": 64}})
    emulator.token_lifetime = 2 * 3600.0  # the tokens must outlive the thread's hour of inactivity here
    await emulator.advance(minutes=60)
    assert channel.archived
    with emulator.expect_violation("thread-archived"):
        status, err = await api.request("PATCH", hook(emulator, public, "/messages/@original"), {"content": "edited"})
    assert (status, err["code"]) == (400, 50083)
    # an ephemeral message is nobody else's business: completing it is fine
    status, _ = await api.request("PATCH", hook(emulator, private, "/messages/@original"), {"content": "done"})
    assert status == 200 and channel.archived
    # a public follow-up is a new message: it unarchives the thread
    status, _ = await api.request("POST", hook(emulator, public), {"content": "more"})
    assert status == 200 and not channel.archived


async def test_tokens_expire_on_the_emulators_clock(
    emulator: Emulator, gw: RawGateway, api: RawAPI, carol: User
) -> None:
    inter = await command(emulator, carol)
    await api.request("POST", cb(inter), {"type": 4, "data": {"content": "hi"}})
    await emulator.advance(minutes=14)
    assert (await api.request("POST", hook(emulator, inter), {"content": "still valid"}))[0] == 200
    await emulator.advance(minutes=2)
    with emulator.expect_violation("interaction-token-expired"):
        status, err = await api.request("PATCH", hook(emulator, inter, "/messages/@original"), {"content": "late"})
    assert (status, err["code"]) == (401, 50027)


async def test_answer_that_arrived_in_time_is_not_late_while_its_body_is_read(
    emulator: Emulator, gw: RawGateway, harness: Harness, carol: User
) -> None:
    """Discord judges the 3-second rule on arrival: an answer whose request reached it in time counts even when its
    upload is still being read at the deadline. The harness must wait for it, not call the interaction missed
    (a test acting on "missed" would then race the bot's move)."""
    # Margins wide enough for a busy machine: the request arrives at once, well within 1.5 s, and
    # the rest of its body comes only after the deadline has passed.
    emulator.interaction_deadline = 1.5
    inter = await command(emulator, carol)
    loop = asyncio.get_running_loop()
    after_deadline = loop.time() + 2.0

    async def trickle() -> AsyncIterator[bytes]:
        yield b'{"type": 4, '
        await asyncio.sleep(max(0.0, after_deadline - loop.time()))  # the rest of the body after the deadline
        yield b'"data": {"content": "made it"}}'

    async def answer() -> int:
        headers = {"Authorization": f"Bot {emulator.token}", "Content-Type": "application/json"}
        async with (
            aiohttp.ClientSession() as session,
            session.post(emulator.api_url + cb(inter), data=trickle(), headers=headers) as response,
        ):
            return response.status

    sending = asyncio.create_task(answer())
    result = await harness._finish(inter, settle=False, check=True, what="/cmd")
    assert await sending == 204
    assert result.answered and not emulator.violations
    assert [m.content for m in emulator.world.channel_messages(emulator.general.id)] == ["made it"]


# --- components v2 through the webhook routes (webhook.mdx "Execute Webhook" and "Edit Webhook Message") ------------

V2 = 1 << 15
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 8 + (3).to_bytes(4, "big") + (2).to_bytes(4, "big")


def picture_card(alt: str = "a board") -> JSON:
    gallery = {"type": 12, "items": [{"media": {"url": "attachment://p.png"}, "description": alt}]}
    return {"flags": V2, "components": [{"type": 17, "components": [{"type": 10, "content": "card"}, gallery]}],
            "attachments": [{"id": 0, "filename": "p.png", "description": alt}]}


async def test_a_v2_followup_cannot_upload_files_but_its_edit_can(
    emulator: Emulator, gw: RawGateway, api: RawAPI, carol: User
) -> None:
    """Execute Webhook, footnote ***: with IS_COMPONENTS_V2, "Providing content, embeds, files[n] or poll will fail
    with a 400 BAD REQUEST response"; a follow-up "functions the same as Execute Webhook". Edit Webhook Message takes
    files[n] ("Any provided files will be appended"), so the card is posted first and its picture edited in."""
    inter = await command(emulator, carol)
    await api.request("POST", cb(inter), {"type": 5, "data": {"flags": 64}})
    await api.request("PATCH", hook(emulator, inter, "/messages/@original"), {"content": "done"})
    for flags in (V2, V2 | 64):
        with emulator.expect_violation("components-v2-webhook-files"):
            status, err = await api.request("POST", hook(emulator, inter), {**picture_card(), "flags": flags},
                                            files=[("p.png", PNG)])
        assert (status, err["code"]) == (400, 50035) and "files" in err["errors"]
    assert inter.followup_ids == []
    bare = {"flags": V2, "components": [{"type": 17, "components": [{"type": 10, "content": "card"}]}]}
    status, posted = await api.request("POST", hook(emulator, inter), bare)
    assert status == 200
    status, edited = await api.request("PATCH", hook(emulator, inter, f"/messages/{posted['id']}"), picture_card(),
                                       files=[("p.png", PNG)])
    assert status == 200, edited
    [(attachment, alt)] = emulator.world.messages[int(posted["id"])].media()
    assert attachment is not None and alt == "a board"
    # without the flag a follow-up takes files as ever
    status, _ = await api.request("POST", hook(emulator, inter), {"content": "pic"}, files=[("p.png", PNG)])
    assert status == 200


async def test_an_edit_may_turn_a_message_into_a_card_only_by_clearing_its_content(
    emulator: Emulator, gw: RawGateway, api: RawAPI, carol: User
) -> None:
    """Edit Webhook Message, footnote *: IS_COMPONENTS_V2 "can only be set. When the IS_COMPONENTS_V2 flag is set,
    any of the used content, embeds, files[n] or poll values in the initial message must be set to null first,
    otherwise it will fail with a 400 BAD REQUEST response"; once set it stays. The files of the initial message are
    read as dropped too: the new card uploads its own."""
    inter = await command(emulator, carol)
    await api.request("POST", cb(inter), {"type": 4, "data": {"content": "plain", "flags": 64}})
    original = hook(emulator, inter, "/messages/@original")
    text = {"type": 17, "components": [{"type": 10, "content": "a card now"}]}
    with emulator.expect_violation("components-v2-content"):
        status, _ = await api.request("PATCH", original, {"flags": V2, "components": [text]})
    assert status == 400
    status, edited = await api.request("PATCH", original, {"content": None, "flags": V2, "components": [text]})
    assert status == 200 and edited["flags"] & V2 and not edited["content"]
    with emulator.expect_violation("components-v2-content"):
        status, _ = await api.request("PATCH", original, {"content": "plain again", "components": [], "flags": 0})
    assert status == 400
    # the files of the initial message too: a plain message with a picture becomes a card only without it
    other = await command(emulator, carol)
    await api.request("POST", cb(other), {"type": 4, "data": {"content": "pic", "attachments": [
        {"id": 0, "filename": "p.png", "description": "a board"}]}}, files=[("p.png", PNG)])
    with_picture = hook(emulator, other, "/messages/@original")
    as_card = {**picture_card(), "content": None}
    as_card.pop("attachments")
    with emulator.expect_violation("components-v2-content"):
        status, err = await api.request("PATCH", with_picture, as_card)
    assert status == 400 and "attachments" in err["errors"]
    status, edited = await api.request("PATCH", with_picture, {**picture_card(), "content": None},
                                       files=[("p.png", PNG)])
    assert status == 200 and edited["flags"] & V2 and len(edited["attachments"]) == 1
