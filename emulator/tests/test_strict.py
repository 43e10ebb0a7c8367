"""The strict emulator through raw HTTP: each documented rejection answers Discord's error (status, JSON code, the
field path in ``errors``) and records the named rule; the same request made correctly goes through."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from emulator import RULES, Emulator, User
from emulator import permissions as P
from emulator.interactions import dispatch_interaction
from emulator.model import MEMBER_OVERWRITE, ROLE_OVERWRITE, Channel, Interaction, Overwrite
from emulator.ratelimits import RateLimits

from .raw import RawAPI, RawGateway

#: Many requests on one channel in a row from a raw client that does not wait for buckets: this test is about
#: bodies, not rate limits, so it runs without Discord's (explicitly).
UNLIMITED = pytest.mark.parametrize("emulator_options", [{"rate_limits": RateLimits.off()}])

JSON = dict[str, Any]


def button(cid: str | None = "b", **kw: Any) -> JSON:
    b: JSON = {"type": 2, "style": 1, "label": "b", **kw}
    if cid is not None:
        b["custom_id"] = cid
    return b


def row(*components: JSON) -> JSON:
    return {"type": 1, "components": list(components)}


def deny_bot(emu: Emulator, channel: Channel, *names: str) -> None:
    """A member overwrite denying the bot ``names`` on ``channel`` (its parent for a thread)."""
    target = emu.world.overwrite_target(channel)
    target.overwrites[emu.bot.id] = Overwrite(emu.bot.id, MEMBER_OVERWRITE, deny=P.value_of(list(names)))


def node(err: JSON, path: tuple[str, ...]) -> JSON:
    n: JSON = err["errors"]
    for key in path:
        n = n[key]
    return n


# --- message bodies: 400 / 50035 with the field path ----------------------------------------------------------------

BODY_CASES: list[tuple[str, JSON, tuple[str, ...]]] = [
    ("message-flags", {"content": "x", "flags": 64}, ("flags",)),  # EPHEMERAL is for interaction responses
    ("message-flags", {"content": "x", "flags": 1 << 7}, ("flags",)),  # LOADING is Discord's to set
    (
        "allowed-mentions",
        {"content": "x", "allowed_mentions": {"parse": ["users"], "users": ["1"]}},
        ("allowed_mentions", "parse"),
    ),
    (
        "allowed-mentions",
        {"content": "x", "allowed_mentions": {"parse": ["nobody"]}},
        ("allowed_mentions", "parse", "0"),
    ),
    (
        "allowed-mentions",
        {"content": "x", "allowed_mentions": {"users": [str(i) for i in range(101)]}},
        ("allowed_mentions", "users"),
    ),
    ("nonce-length", {"content": "x", "nonce": "n" * 26}, ("nonce",)),
    ("embed-color", {"embeds": [{"title": "t", "color": 0x1000000}]}, ("embeds", "0", "color")),
    ("embed-color", {"embeds": [{"title": "t", "color": -1}]}, ("embeds", "0", "color")),
    ("embed-url", {"embeds": [{"title": "t", "url": "ftp://example.com"}]}, ("embeds", "0", "url")),
    ("embed-url", {"embeds": [{"image": {"url": "https://e.com/" + "x" * 2040}}]}, ("embeds", "0", "image", "url")),
    ("embed-url", {"embeds": [{"title": "t", "thumbnail": {}}]}, ("embeds", "0", "thumbnail", "url")),
    ("embed-timestamp", {"embeds": [{"title": "t", "timestamp": "yesterday"}]}, ("embeds", "0", "timestamp")),
    (
        "embed-field-name",
        {"embeds": [{"fields": [{"name": "   ", "value": "v"}]}]},
        ("embeds", "0", "fields", "0", "name"),
    ),
    ("embed-footer", {"embeds": [{"title": "t", "footer": {"text": " "}}]}, ("embeds", "0", "footer", "text")),
    ("button-style", {"components": [row(button(style=7))]}, ("components", "0", "components", "0", "style")),
    (
        "button-style",
        {"components": [row(button(None, style=6, sku_id="1"))]},
        ("components", "0", "components", "0", "label"),
    ),
    (
        "button-url",
        {"components": [row(button(None, style=5, url="javascript:alert(1)"))]},
        ("components", "0", "components", "0", "url"),
    ),
    (
        "button-url",
        {"components": [row(button(None, style=5, url="https://e.com/" + "x" * 500))]},
        ("components", "0", "components", "0", "url"),
    ),
    (
        "button-custom-id",
        {"components": [row(button(url="https://e.com"))]},
        ("components", "0", "components", "0", "url"),
    ),
    (
        "component-emoji",
        {"components": [row(button(emoji={"name": "smile"}))]},
        ("components", "0", "components", "0", "emoji"),
    ),
    (
        "component-emoji",
        {"components": [row(button(emoji={"id": "x1", "name": "pyr"}))]},
        ("components", "0", "components", "0", "emoji"),
    ),
    (
        "select-defaults",
        {
            "components": [
                row(
                    {
                        "type": 3,
                        "custom_id": "s",
                        "options": [
                            {"label": "a", "value": "a", "default": True},
                            {"label": "b", "value": "b", "default": True},
                        ],
                    }
                )
            ]
        },
        ("components", "0", "components", "0", "options"),
    ),
    (
        "select-defaults",
        {"components": [row({"type": 5, "custom_id": "u", "default_values": [{"id": "1", "type": "user"}] * 2})]},
        ("components", "0", "components", "0", "default_values"),
    ),
    (
        "attachment-description",
        {"content": "x", "attachments": [{"id": 0, "description": "d" * 1025}]},
        ("attachments", "0", "description"),
    ),
    ("attachment-reference", {"content": "x", "attachments": [{"filename": "a.png"}]}, ("attachments", "0", "id")),
    ("attachment-reference", {"content": "x", "attachments": [{"id": 3}]}, ("attachments", "0", "id")),
    ("message-reference", {"content": "x", "message_reference": {"message_id": "123"}}, ("message_reference",)),
    ("message-stickers", {"content": "x", "sticker_ids": ["1", "2", "3", "4"]}, ("sticker_ids",)),
    (
        "select-option-unique",
        {
            "components": [
                row(
                    {
                        "type": 3,
                        "custom_id": "s",
                        "options": [{"label": "a", "value": "v"}, {"label": "b", "value": "v"}],
                    }
                )
            ]
        },
        ("components", "0", "components", "0", "options", "1", "value"),
    ),
]


def test_every_case_names_a_documented_rule() -> None:
    for rule, _, _ in BODY_CASES:
        assert rule in RULES


def test_every_rule_is_exercised_by_a_test() -> None:
    """Each rule id in ``RULES`` appears (quoted) in this directory's tests: a new rule needs its rejection test."""
    here = Path(__file__).parent
    text = "".join(p.read_text() for p in here.glob("test_*.py"))
    untested = [rule for rule in RULES if f'"{rule}"' not in text.replace(f'"{rule}": ', "")]
    assert untested == []


@pytest.mark.parametrize(("rule", "body", "path"), BODY_CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(BODY_CASES)])
async def test_message_body_rules(
    emulator: Emulator, api: RawAPI, rule: str, body: JSON, path: tuple[str, ...]
) -> None:
    with emulator.expect_violation(rule) as caught:
        status, err = await api.request("POST", f"/channels/{emulator.general.id}/messages", body)
    assert (status, err["code"], err["message"]) == (400, 50035, "Invalid Form Body"), err
    assert node(err, path)["_errors"][0]["code"]
    assert caught[0].route == "POST /channels/{channel_id}/messages"
    assert emulator.world.channel_messages(emulator.general.id) == []


@UNLIMITED
async def test_valid_variants_of_those_bodies_pass(emulator: Emulator, emulator_options: object, api: RawAPI) -> None:
    url = f"/channels/{emulator.general.id}/messages"
    ok_bodies: list[JSON] = [
        {"content": "x", "flags": (1 << 2) | (1 << 12)},  # SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS
        {"content": "x", "allowed_mentions": {"parse": ["users", "roles"], "users": []}},  # a falsy list is fine
        {"content": "x", "allowed_mentions": {"parse": ["everyone"], "users": ["1234", "5678"]}},
        {"content": "x", "nonce": "n" * 25},
        {"content": "x", "nonce": 12345678901234567890},
        {"embeds": [{"title": "t", "color": 0xFFFFFF, "url": "https://e.com", "timestamp": "2026-01-01T00:00:00Z"}]},
        {"components": [row(button(emoji={"name": "🔥"}), button("c", emoji={"name": "1️⃣"}))]},
        {"components": [row(button(None, style=5, url="https://e.com/docs"))]},
    ]
    for body in ok_bodies:
        status, msg = await api.request("POST", url, body)
        assert status == 200, (body, msg)
    assert emulator.violations == []


async def test_files_must_be_referenced_correctly(emulator: Emulator, api: RawAPI) -> None:
    url = f"/channels/{emulator.general.id}/messages"
    with emulator.expect_violation("attachment-reference"):
        status, err = await api.request("POST", url, {"attachments": [{"id": 1}]}, files=[("a.txt", b"a")])
    assert status == 400 and node(err, ("attachments", "0", "id"))
    # a file the attachments array does not list is not attached (the array lists every file to append)
    status, msg = await api.request(
        "POST", url, {"content": "two", "attachments": [{"id": 1}]}, files=[("a.txt", b"a"), ("b.txt", b"b")]
    )
    assert status == 200 and [a["filename"] for a in msg["attachments"]] == ["b.txt"]


async def test_request_body_size_limit(emulator: Emulator, api: RawAPI) -> None:
    emulator.request_size_limit = 2000
    with emulator.expect_violation("request-size"):
        status, err = await api.request(
            "POST", f"/channels/{emulator.general.id}/messages", {}, files=[("a.bin", b"x" * 3000)]
        )
    assert (status, err["code"]) == (413, 40005)


async def test_reply_needs_a_message_of_the_same_channel(emulator: Emulator, api: RawAPI) -> None:
    other = emulator.world.add_channel(emulator.guild, "other")
    _, elsewhere = await api.request("POST", f"/channels/{other.id}/messages", {"content": "there"})
    url = f"/channels/{emulator.general.id}/messages"
    with emulator.expect_violation("message-reference"):
        status, err = await api.request(
            "POST", url, {"content": "re", "message_reference": {"message_id": elsewhere["id"]}}
        )
    assert (
        status == 400
        and err["errors"]["message_reference"]["_errors"][0]["code"] == "MESSAGE_REFERENCE_UNKNOWN_MESSAGE"
    )
    ref = {"message_id": elsewhere["id"], "fail_if_not_exists": False}
    status, plain = await api.request("POST", url, {"content": "plain", "message_reference": ref})
    assert status == 200 and plain["type"] == 0 and "message_reference" not in plain


# --- permissions: 50001 / 50013 ---------------------------------------------------------------------------------------


async def test_missing_access_without_view_channel(emulator: Emulator, api: RawAPI) -> None:
    deny_bot(emulator, emulator.general, "view_channel")
    base = f"/channels/{emulator.general.id}"
    for method, path, body in [
        ("POST", "/messages", {"content": "x"}),
        ("GET", "/messages", None),
        ("GET", "", None),
        ("POST", "/typing", None),
        ("POST", "/threads", {"name": "t", "type": 11}),
    ]:
        with emulator.expect_violation("missing-access"):
            status, err = await api.request(method, base + path, body)
        assert (status, err["code"], err["message"]) == (403, 50001, "Missing Access"), (method, path)


@pytest.mark.parametrize(
    ("denied", "body", "files"),
    [
        ("send_messages", {"content": "x"}, None),
        ("attach_files", {"content": "x"}, [("a.txt", b"a")]),
        ("send_tts_messages", {"content": "x", "tts": True}, None),
    ],
)
async def test_missing_permissions(
    emulator: Emulator, api: RawAPI, denied: str, body: JSON, files: list[tuple[str, bytes]] | None
) -> None:
    deny_bot(emulator, emulator.general, denied)
    with emulator.expect_violation("missing-permissions") as caught:
        status, err = await api.request("POST", f"/channels/{emulator.general.id}/messages", body, files=files)
    assert (status, err["code"], err["message"]) == (403, 50013, "Missing Permissions")
    assert denied.upper() in caught[0].detail
    bot = emulator.bot.id
    emulator.general.overwrites[bot] = Overwrite(bot, MEMBER_OVERWRITE, allow=P.bit(denied))  # granted: fine
    assert (await api.request("POST", f"/channels/{emulator.general.id}/messages", body, files=files))[0] == 200


async def test_threads_need_send_messages_in_threads_not_send_messages(emulator: Emulator, api: RawAPI) -> None:
    _, thread = await api.request("POST", f"/channels/{emulator.general.id}/threads", {"name": "t", "type": 11})
    deny_bot(emulator, emulator.general, "send_messages")
    status, _ = await api.request("POST", f"/channels/{thread['id']}/messages", {"content": "in the thread"})
    assert status == 200
    deny_bot(emulator, emulator.general, "send_messages_in_threads")
    with emulator.expect_violation("missing-permissions") as caught:
        status, err = await api.request("POST", f"/channels/{thread['id']}/messages", {"content": "no"})
    assert (status, err["code"]) == (403, 50013) and "SEND_MESSAGES_IN_THREADS" in caught[0].detail


async def test_embeds_without_embed_links_are_dropped(emulator: Emulator, api: RawAPI) -> None:
    deny_bot(emulator, emulator.general, "embed_links")
    url = f"/channels/{emulator.general.id}/messages"
    with emulator.expect_violation("embed-links"):
        status, msg = await api.request("POST", url, {"content": "look", "embeds": [{"title": "board"}]})
    assert status == 200 and msg["content"] == "look" and msg["embeds"] == []
    with emulator.expect_violation("embed-links"), emulator.expect_violation("empty-message"):
        status, err = await api.request("POST", url, {"embeds": [{"title": "only an embed"}]})
    assert (status, err["code"]) == (400, 50006)


async def test_replies_need_read_message_history(emulator: Emulator, api: RawAPI) -> None:
    url = f"/channels/{emulator.general.id}/messages"
    _, first = await api.request("POST", url, {"content": "first"})
    deny_bot(emulator, emulator.general, "read_message_history")
    with emulator.expect_violation("reply-without-history"):
        status, err = await api.request(
            "POST", url, {"content": "re", "message_reference": {"message_id": first["id"]}}
        )
    assert (status, err["code"]) == (403, 160002)
    status, listed = await api.request("GET", url)
    assert status == 200 and listed == []  # documented: no messages without READ_MESSAGE_HISTORY
    with emulator.expect_violation("missing-permissions"):
        status, err = await api.request("GET", f"{url}/{first['id']}")
    assert (status, err["code"]) == (403, 50013)


async def test_starting_threads_needs_create_public_threads(emulator: Emulator, api: RawAPI) -> None:
    url = f"/channels/{emulator.general.id}"
    _, msg = await api.request("POST", url + "/messages", {"content": "start"})
    deny_bot(emulator, emulator.general, "create_public_threads")
    for path, body in ((f"/messages/{msg['id']}/threads", {"name": "t"}), ("/threads", {"name": "t", "type": 11})):
        with emulator.expect_violation("missing-permissions"):
            status, err = await api.request("POST", url + path, body)
        assert (status, err["code"]) == (403, 50013)
    status, _ = await api.request("POST", url + "/threads", {"name": "private", "type": 12})
    assert status == 201  # CREATE_PRIVATE_THREADS is another permission


async def test_custom_emojis_need_use_external_emojis(
    emulator: Emulator, api: RawAPI, gw: RawGateway, carol: User
) -> None:
    body = {"components": [row(button(emoji={"id": "123456789", "name": "pyramid"}))]}
    url = f"/channels/{emulator.general.id}/messages"
    assert (await api.request("POST", url, body))[0] == 200  # @everyone has USE_EXTERNAL_EMOJIS by default
    deny_bot(emulator, emulator.general, "use_external_emojis")
    with emulator.expect_violation("component-emoji"):
        status, err = await api.request("POST", url, body)
    assert status == 400 and node(err, ("components", "0", "components", "0", "emoji", "id"))
    # webhooks (interaction responses) are subject to it too, since 2022
    inter = await dispatch_interaction(
        emulator, type=2, user=carol, channel=emulator.general, data={"id": "1", "name": "c", "type": 1}
    )
    with emulator.expect_violation("component-emoji"):
        status, err = await api.request("POST", cb(inter), {"type": 4, "data": body})
    assert status == 400 and node(err, ("data", "components", "0", "components", "0", "emoji", "id"))


async def test_deleting_someone_elses_message_needs_manage_messages(
    emulator: Emulator, api: RawAPI, carol: User
) -> None:
    from emulator.messages import create_message

    msg = create_message(emulator, emulator.general, carol, {"content": "mine"}, [])
    url = f"/channels/{emulator.general.id}/messages/{msg.id}"
    with emulator.expect_violation("missing-permissions"):  # the invite does not ask for MANAGE_MESSAGES
        status, err = await api.request("DELETE", url)
    assert (status, err["code"]) == (403, 50013)
    role = emulator.guild.bot_role(emulator.bot.id)
    assert role is not None
    role.permissions |= P.MANAGE_MESSAGES
    assert (await api.request("DELETE", url))[0] == 204


def cb(inter: Interaction) -> str:
    return f"/interactions/{inter.id}/{inter.token}/callback"


async def test_interaction_responses_ignore_the_bots_channel_permissions(
    emulator: Emulator, api: RawAPI, gw: RawGateway, carol: User
) -> None:
    deny_bot(emulator, emulator.general, "view_channel", "send_messages", "attach_files", "embed_links")
    inter = await dispatch_interaction(
        emulator, type=2, user=carol, channel=emulator.general, data={"id": "1", "name": "c", "type": 1}
    )
    event = await gw.wait_event("INTERACTION_CREATE")
    assert int(event["d"]["app_permissions"]) & P.VIEW_CHANNEL == 0  # what the bot may do here, as computed
    body = {"type": 4, "data": {"content": "answered", "embeds": [{"title": "e"}], "attachments": [{"id": 0}]}}
    status, _ = await api.request("POST", cb(inter), body, files=[("a.txt", b"a")])
    assert status == 204
    msg = emulator.world.messages[inter.original_message_id or 0]
    assert msg.embeds and msg.attachments
    status, _ = await api.request(
        "POST", f"/webhooks/{emulator.world.application_id}/{inter.token}", {"content": "more"}
    )
    assert status == 200
    assert emulator.violations == []


# --- the computation --------------------------------------------------------------------------------------------------


def test_permissions_are_computed_in_the_documented_order(emulator: Emulator, carol: User) -> None:
    world, guild, general = emulator.world, emulator.guild, emulator.general
    helpers = world.add_role(guild, "helpers", 0)
    admins = world.add_role(guild, "admins", P.ADMINISTRATOR)
    guild.member_roles[carol.id] = [helpers.id]
    assert world.has(carol, general, P.SEND_MESSAGES)  # from @everyone
    general.overwrites[guild.id] = Overwrite(guild.id, ROLE_OVERWRITE, deny=P.SEND_MESSAGES)
    assert not world.has(carol, general, P.SEND_MESSAGES)
    assert not world.has(carol, general, P.ATTACH_FILES)  # implicitly denied without SEND_MESSAGES
    general.overwrites[helpers.id] = Overwrite(helpers.id, ROLE_OVERWRITE, allow=P.SEND_MESSAGES, deny=P.ADD_REACTIONS)
    assert world.has(carol, general, P.SEND_MESSAGES) and not world.has(carol, general, P.ADD_REACTIONS)
    general.overwrites[carol.id] = Overwrite(carol.id, MEMBER_OVERWRITE, allow=P.ADD_REACTIONS, deny=P.SEND_MESSAGES)
    assert world.has(carol, general, P.ADD_REACTIONS) and not world.has(carol, general, P.SEND_MESSAGES)
    general.overwrites[carol.id] = Overwrite(carol.id, MEMBER_OVERWRITE, deny=P.VIEW_CHANNEL)
    assert world.permissions(carol, general) & P.ALL_CHANNEL == 0  # no view, nothing in the channel
    assert not world.can_access(carol, general)
    guild.member_roles[carol.id].append(admins.id)
    assert world.permissions(carol, general) == P.ALL  # ADMINISTRATOR bypasses every overwrite
    assert world.permissions(world.owner, general) == P.ALL  # so does owning the guild


async def test_actions_on_the_wrong_channel_type(emulator: Emulator, api: RawAPI, carol: User) -> None:
    dm = emulator.world.dm_channel(carol)
    assert dm is not None
    for method, path, body in [
        ("POST", f"/channels/{dm.id}/threads", {"name": "t", "type": 11}),
        ("PUT", f"/channels/{emulator.general.id}/thread-members/@me", None),
        ("PATCH", f"/channels/{dm.id}", {"name": "x"}),
    ]:
        with emulator.expect_violation("channel-type"):
            status, err = await api.request(method, path, body)
        assert (status, err["code"]) == (400, 50024), (method, path)


@UNLIMITED
async def test_history_query_bulk_delete_and_reaction_rules(
    emulator: Emulator, emulator_options: object, api: RawAPI
) -> None:
    base = f"/channels/{emulator.general.id}/messages"
    ids = [(await api.request("POST", base, {"content": f"m{i}"}))[1]["id"] for i in range(3)]
    for params, key in [
        ({"limit": "101"}, "limit"),
        ({"limit": "0"}, "limit"),
        ({"before": ids[1], "after": ids[0]}, "after"),
    ]:
        with emulator.expect_violation("history-query"):
            status, err = await api.request("GET", base, params=params)
        assert status == 400 and key in err["errors"], params
    role = emulator.guild.bot_role(emulator.bot.id)
    assert role is not None
    role.permissions |= P.MANAGE_MESSAGES
    for body in ({"messages": ids[:1]}, {"messages": [ids[0], ids[0]]}):
        with emulator.expect_violation("bulk-delete"):
            status, err = await api.request("POST", base + "/bulk-delete", body)
        assert status == 400 and "messages" in err["errors"]
    assert (await api.request("POST", base + "/bulk-delete", {"messages": ids[:2]}))[0] == 204
    for emoji in ("thumbsup", "pyramid%3A123"):
        with emulator.expect_violation("reaction-emoji"):
            status, err = await api.request("PUT", f"{base}/{ids[2]}/reactions/{emoji}/@me")
        assert (status, err["code"]) == (404, 10014)
    assert (await api.request("PUT", f"{base}/{ids[2]}/reactions/%F0%9F%94%A5/@me"))[0] == 204
