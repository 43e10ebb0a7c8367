"""Components v2 and modal components as the components reference describes them: each rule refused through the
real message route (or, for modals, the validator the callback route uses), and a well-formed card accepted."""

from __future__ import annotations

from typing import Any

import pytest

from emulator import RULES, Emulator
from emulator import limits as L

from .raw import RawAPI

JSON = dict[str, Any]
V2 = 1 << 15


def text(content: str, **kw: Any) -> JSON:
    return {"type": 10, "content": content, **kw}


def button(cid: str, label: str = "b") -> JSON:
    return {"type": 2, "style": 1, "label": label, "custom_id": cid}


def row(*components: JSON) -> JSON:
    return {"type": 1, "components": list(components)}


def gallery(*urls: str, description: str | None = "a board") -> JSON:
    return {"type": 12, "items": [{"media": {"url": u}, "description": description} for u in urls]}


def container(*components: JSON, **kw: Any) -> JSON:
    return {"type": 17, "components": list(components), **kw}


def card(*components: JSON) -> JSON:
    return {"flags": V2, "components": list(components)}


CASES: list[tuple[str, JSON, tuple[str, ...]]] = [
    ("text-display-total", card(text("x" * 2000), container(text("y" * 2001))), ("components",)),
    (
        "section-accessory",
        card({"type": 9, "components": [text("no accessory")]}),
        ("components", "0", "accessory"),
    ),
    ("media-gallery-items", card({"type": 12, "items": []}), ("components", "0", "items")),
    ("component-type", card(container(container(text("inside")))), ("components", "0", "components", "0", "type")),
    ("components-v2-content", {"flags": V2, "content": "hi", "components": [text("x")]}, ("content",)),
    ("components-v2-content", {"flags": V2, "sticker_ids": ["1"], "components": [text("x")]}, ("sticker_ids",)),
    ("components-v2-flag", {"components": [text("needs the flag")]}, ("components", "0", "type")),
    ("component-id", card(text("a", id=7), text("b", id=7)), ("components", "1", "id")),
    ("component-id", card(text("a", id="seven")), ("components", "0", "id")),
    ("text-display-content", card(text("")), ("components", "0", "content")),
    (
        "section-components",
        card({"type": 9, "components": [text("1"), text("2"), text("3"), text("4")], "accessory": button("s")}),
        ("components", "0", "components"),
    ),
    (
        "section-accessory",
        card({"type": 9, "components": [text("t")], "accessory": text("not an accessory")}),
        ("components", "0", "accessory", "type"),
    ),
    (
        "component-type",
        card({"type": 9, "components": [row(button("r"))], "accessory": button("s")}),
        ("components", "0", "components", "0", "type"),
    ),
    (
        "media-gallery-items",
        card(gallery(*[f"https://x.test/{i}.png" for i in range(11)])),
        ("components", "0", "items"),
    ),
    (
        "media-item",
        card(gallery("https://x.test/a.png", description="d" * 1025)),
        ("components", "0", "items", "0", "description"),
    ),
    ("media-item", card(gallery("ftp://x.test/a.png")), ("components", "0", "items", "0", "media", "url")),
    (
        "media-attachment",
        card(gallery("attachment://missing.png")),
        ("components", "0", "items", "0", "media", "url"),
    ),
    ("file-component", card({"type": 13, "file": {"url": "https://x.test/f.txt"}}), ("components", "0", "file", "url")),
    ("separator-spacing", card(text("a"), {"type": 14, "spacing": 3}), ("components", "1", "spacing")),
    ("container-accent", card(container(text("a"), accent_color=0x1000000)), ("components", "0", "accent_color")),
    ("component-type", card({"type": 11, "media": {"url": "https://x.test/t.png"}}), ("components", "0", "type")),
    ("component-type", card(button("top")), ("components", "0", "type")),
    ("component-type", card(container({"type": 18, "label": "l"})), ("components", "0", "components", "0", "type")),
    ("components-total", card(container(*[text(str(i)) for i in range(40)])), ("components",)),
    (
        "row-buttons",
        card(container(row(*[button(f"b{i}") for i in range(6)]))),
        ("components", "0", "components", "0", "components"),
    ),
    (
        "custom-id-unique",
        card(container(row(button("same")), {"type": 9, "components": [text("t")], "accessory": button("same")})),
        ("components", "0", "components", "1", "accessory", "custom_id"),
    ),
]


def test_every_rule_is_documented() -> None:
    for rule, _, _ in CASES:
        assert rule in RULES


@pytest.mark.parametrize(("rule", "body", "path"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
async def test_v2_rules_are_refused(emulator: Emulator, rule: str, body: JSON, path: tuple[str, ...]) -> None:
    async with RawAPI(emulator) as api:
        with emulator.expect_violation(rule):
            status, err = await api.request("POST", f"/channels/{emulator.general.id}/messages", body)
    assert status == 400 and err["code"] == 50035
    node = err["errors"]
    for key in path:
        node = node[key]
    assert node["_errors"][0]["code"]
    assert emulator.world.channel_messages(emulator.general.id) == []


async def test_a_card_at_the_limits_is_accepted_and_its_picture_resolved(emulator: Emulator) -> None:
    body = card(
        container(
            text("t" * 3000),
            {"type": 14, "divider": True, "spacing": 2},
            gallery("attachment://board.png", description="d" * 1024),
            {"type": 9, "components": [text("t" * 1000)], "accessory": button("side")},
            row(*[button(f"b{i}") for i in range(5)]),
            accent_color=0xFFFFFF,
            id=1,
        ),
        {"type": 13, "file": {"url": "attachment://board.png"}},
    )
    png = b"\x89PNG\r\n\x1a\n" + b"\0" * 32
    async with RawAPI(emulator) as api:
        status, msg = await api.request(
            "POST", f"/channels/{emulator.general.id}/messages", body, files=[("board.png", png)]
        )
        assert status == 200, msg
        stored = emulator.world.messages[int(msg["id"])]
        assert stored.text_displays() == ["t" * 3000, "t" * 1000]
        [(attachment, alt)] = stored.media()
        assert attachment is not None and attachment.filename == "board.png" and alt == "d" * 1024
        media = msg["components"][0]["components"][2]["items"][0]["media"]
        assert media["attachment_id"] == str(attachment.id)
        # the flag stays: an edit without it is still validated as components v2
        path = f"/channels/{emulator.general.id}/messages/{msg['id']}"
        with emulator.expect_violation("components-v2-content"):
            status, _ = await api.request("PATCH", path, {"content": "legacy now?", "flags": 0})
        assert status == 400
        status, edited = await api.request("PATCH", path, {"components": [container(text("edited"))]})
        assert status == 200 and edited["flags"] & V2


async def test_text_display_mentions_ping_unless_silent(emulator: Emulator) -> None:
    user = emulator.world.add_user("pinged")
    async with RawAPI(emulator) as api:
        url = f"/channels/{emulator.general.id}/messages"
        _, loud = await api.request("POST", url, card(container(text(f"<@{user.id}> to play"))))
        _, silent = await api.request("POST", url, {**card(text(f"<@{user.id}>")), "flags": V2 | (1 << 12)})
    assert emulator.world.messages[int(loud["id"])].pinged == {user.id}
    assert emulator.world.messages[int(silent["id"])].pinged == frozenset()


# --- modals -----------------------------------------------------------------------------------------------------


def label(component: JSON, text_: str = "Label", **kw: Any) -> JSON:
    return {"type": 18, "label": text_, "component": component, **kw}


def radio(n: int, **kw: Any) -> JSON:
    return {"type": 21, "custom_id": "r", "options": [{"label": f"o{i}", "value": f"v{i}"} for i in range(n)], **kw}


def checkboxes(n: int, **kw: Any) -> JSON:
    return {"type": 22, "custom_id": "c", "options": [{"label": f"o{i}", "value": f"v{i}"} for i in range(n)], **kw}


def modal(*components: JSON) -> JSON:
    return {"title": "Options", "custom_id": "m", "components": list(components)}


TEXT_INPUT = {"type": 4, "custom_id": "t", "style": 1}
STRING_SELECT = {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}, {"label": "b", "value": "b"}]}

MODAL_CASES: list[tuple[str, JSON]] = [
    ("modal-components", modal(*[label({**TEXT_INPUT, "custom_id": f"t{i}"}) for i in range(6)])),
    ("modal-label", modal(label(TEXT_INPUT, "l" * 46))),
    ("modal-label", modal(label(TEXT_INPUT, description="d" * 101))),
    ("modal-label", modal({"type": 18, "label": "no input"})),
    ("component-type", modal(label(button("b")))),
    ("component-type", modal(radio(2))),
    ("component-type", modal(container(text("messages only")))),
    ("modal-select", modal(label({**STRING_SELECT, "min_values": 0}))),
    ("radio-group", modal(label(radio(1)))),
    ("radio-group", modal(label(radio(11)))),
    ("radio-group", modal(label({**radio(2), "options": [{"label": "a", "value": "a", "default": True}] * 2}))),
    ("checkbox-group", modal(label(checkboxes(0)))),
    ("checkbox-group", modal(label(checkboxes(3, max_values=4)))),
    ("checkbox-group", modal(label(checkboxes(3, min_values=0)))),
    ("checkbox", modal(label({"type": 23, "custom_id": "x", "default": "yes"}))),
    ("checkbox", modal(label({"type": 23, "custom_id": "x", "required": True}))),
    ("custom-id-length", modal(label({"type": 23}))),
    ("custom-id-unique", modal(label(TEXT_INPUT), label({**STRING_SELECT, "custom_id": "t"}))),
    ("text-display-total", modal(text("x" * 4001), label(TEXT_INPUT))),
    ("text-input-value", modal(label({**TEXT_INPUT, "value": "v" * 4001}))),
]


@pytest.mark.parametrize(("rule", "data"), MODAL_CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(MODAL_CASES)])
def test_modal_rules_are_refused(rule: str, data: JSON) -> None:
    assert rule in RULES
    assert rule in {p.rule for p in L.check_modal(data)}


def test_a_form_with_every_input_is_accepted() -> None:
    data = modal(
        text("Choose how the game is played."),
        label(STRING_SELECT, "Game", description="d" * 100),
        label({**radio(10), "options": [{"label": "a", "value": "a", "default": True}, {"label": "b", "value": "b"}]}),
        label(checkboxes(3, min_values=0, required=False)),
        label({"type": 23, "custom_id": "x", "default": True}),
    )
    assert L.check_modal(data) == []


# --- localized command names ----------------------------------------------------------------------------------


def test_localized_option_names_must_not_collide() -> None:
    opt = {"type": 3, "description": "d"}
    colliding = {
        "name": "pyramid",
        "description": "d",
        "options": [{**opt, "name": "game"}, {**opt, "name": "seats", "name_localizations": {"de": "game"}}],
    }
    assert {p.rule for p in L.check_command(colliding)} == {"command-localized-names"}
    distinct = {
        **colliding,
        "options": [
            {**opt, "name": "game", "name_localizations": {"de": "spiel"}},
            {**opt, "name": "seats", "name_localizations": {"de": "plaetze"}},
        ],
    }
    assert L.check_command(distinct) == []
    swapped = {  # both renamed into each other's default names: distinct in German, so fine
        **colliding,
        "options": [
            {**opt, "name": "a", "name_localizations": {"de": "b"}},
            {**opt, "name": "b", "name_localizations": {"de": "a"}},
        ],
    }
    assert L.check_command(swapped) == []


async def test_localized_command_names_must_not_collide(emulator: Emulator) -> None:
    commands = [
        {"name": "pyramid", "description": "d", "name_localizations": {"de": "pyramide"}},
        {"name": "pyramide", "description": "d"},
    ]
    async with RawAPI(emulator) as api:
        with emulator.expect_violation("command-localized-names"):
            status, err = await api.request("PUT", f"/applications/{emulator.world.application_id}/commands", commands)
    assert status == 400 and err["code"] == 50035
