"""Every documented limit through the real HTTP routes: Discord's error JSON naming the field + a named violation."""

from __future__ import annotations

from typing import Any

import pytest

from emulator import RULES, Emulator
from emulator import limits as L

from .raw import RawAPI

JSON = dict[str, Any]


def button(cid: str, label: str = "b", **kw: Any) -> JSON:
    return {"type": 2, "style": 1, "label": label, "custom_id": cid, **kw}


def row(*components: JSON) -> JSON:
    return {"type": 1, "components": list(components)}


def select(cid: str, n: int, **kw: Any) -> JSON:
    return {"type": 3, "custom_id": cid, "options": [{"label": f"o{i}", "value": f"v{i}"} for i in range(n)], **kw}


CASES: list[tuple[str, JSON, tuple[str, ...]]] = [
    ("content-length", {"content": "x" * 2001}, ("content",)),
    ("embed-count", {"embeds": [{"title": "t"}] * 11}, ("embeds",)),
    ("embed-title", {"embeds": [{"title": "t" * 257}]}, ("embeds", "0", "title")),
    ("embed-description", {"embeds": [{"description": "d" * 4097}]}, ("embeds", "0", "description")),
    ("embed-fields", {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}, ("embeds", "0", "fields")),
    (
        "embed-field-name",
        {"embeds": [{"fields": [{"name": "n" * 257, "value": "v"}]}]},
        ("embeds", "0", "fields", "0", "name"),
    ),
    (
        "embed-field-value",
        {"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]},
        ("embeds", "0", "fields", "0", "value"),
    ),
    ("embed-footer", {"embeds": [{"footer": {"text": "f" * 2049}}]}, ("embeds", "0", "footer", "text")),
    ("embed-author", {"embeds": [{"author": {"name": "a" * 257}}]}, ("embeds", "0", "author", "name")),
    ("embed-total", {"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}, ("embeds",)),
    ("action-rows", {"components": [row(button(f"c{i}")) for i in range(6)]}, ("components",)),
    ("row-buttons", {"components": [row(*[button(f"c{i}") for i in range(6)])]}, ("components", "0", "components")),
    ("row-select", {"components": [row(select("s", 2), button("b"))]}, ("components", "0", "components")),
    ("row-empty", {"components": [row()]}, ("components", "0", "components")),
    ("button-label", {"components": [row(button("c", "l" * 81))]}, ("components", "0", "components", "0", "label")),
    (
        "button-custom-id",
        {"components": [row({"type": 2, "style": 1, "label": "x"})]},
        ("components", "0", "components", "0", "custom_id"),
    ),
    ("custom-id-length", {"components": [row(button("c" * 101))]}, ("components", "0", "components", "0", "custom_id")),
    (
        "custom-id-unique",
        {"components": [row(button("same")), row(button("same"))]},
        ("components", "1", "components", "0", "custom_id"),
    ),
    ("select-options", {"components": [row(select("s", 26))]}, ("components", "0", "components", "0", "options")),
    (
        "select-option-length",
        {"components": [row({"type": 3, "custom_id": "s", "options": [{"label": "l" * 101, "value": "v"}]})]},
        ("components", "0", "components", "0", "options", "0", "label"),
    ),
    (
        "select-values",
        {"components": [row(select("s", 3, max_values=4))]},
        ("components", "0", "components", "0", "max_values"),
    ),
    (
        "select-placeholder",
        {"components": [row(select("s", 2, placeholder="p" * 151))]},
        ("components", "0", "components", "0", "placeholder"),
    ),
    ("component-type", {"components": [button("top-level")]}, ("components", "0", "type")),
    (
        "components-v2-content",
        {"flags": 1 << 15, "content": "hi", "components": [{"type": 10, "content": "x"}]},
        ("content",),
    ),
    ("components-total", {"flags": 1 << 15, "components": [{"type": 10, "content": "x"}] * 41}, ("components",)),
]


def test_every_rule_is_documented() -> None:
    for rule, _, _ in CASES:
        assert rule in RULES


@pytest.mark.parametrize(("rule", "body", "path"), CASES, ids=[c[0] for c in CASES])
async def test_message_limits(emulator: Emulator, rule: str, body: JSON, path: tuple[str, ...]) -> None:
    async with RawAPI(emulator) as api:
        with emulator.expect_violation(rule) as caught:
            status, err = await api.request("POST", f"/channels/{emulator.general.id}/messages", body)
    assert status == 400
    assert err["code"] == 50035 and err["message"] == "Invalid Form Body"
    node = err["errors"]
    for key in path:
        node = node[key]
    assert node["_errors"][0]["code"]
    assert caught[0].route == "POST /channels/{channel_id}/messages"
    assert emulator.world.channel_messages(emulator.general.id) == []


async def test_limits_at_the_boundary_are_fine(emulator: Emulator) -> None:
    body = {
        "content": "x" * 2000,
        "embeds": [{"title": "t" * 256, "description": "d" * 1000, "fields": [{"name": "n", "value": "v"}] * 25}],
        "components": [row(*[button(f"r{r}c{c}", "l" * 80) for c in range(5)]) for r in range(4)]
        + [row(select("s", 25))],
    }
    async with RawAPI(emulator) as api:
        status, msg = await api.request("POST", f"/channels/{emulator.general.id}/messages", body)
    assert status == 200, msg
    assert len(msg["components"]) == 5


async def test_empty_message(emulator: Emulator) -> None:
    async with RawAPI(emulator) as api:
        with emulator.expect_violation("empty-message"):
            status, err = await api.request("POST", f"/channels/{emulator.general.id}/messages", {"content": "  "})
    assert (status, err["code"]) == (400, 50006)


async def test_edit_is_validated_on_the_result(emulator: Emulator) -> None:
    async with RawAPI(emulator) as api:
        _, msg = await api.request("POST", f"/channels/{emulator.general.id}/messages", {"content": "hi"})
        path = f"/channels/{emulator.general.id}/messages/{msg['id']}"
        with emulator.expect_violation("content-length"):
            status, _ = await api.request("PATCH", path, {"content": "y" * 2001})
        assert status == 400
        with emulator.expect_violation("empty-message"):
            status, _ = await api.request("PATCH", path, {"content": ""})
        status, edited = await api.request("PATCH", path, {"embeds": [{"title": "t"}]})
        assert status == 200 and edited["content"] == "hi" and edited["edited_timestamp"]


async def test_attachment_size_limit(emulator: Emulator) -> None:
    emulator.attachment_size_limit = 1000
    async with RawAPI(emulator) as api:
        url = f"/channels/{emulator.general.id}/messages"
        status, msg = await api.request("POST", url, {"content": "ok"}, files=[("a.bin", b"x" * 1000)])
        assert status == 200 and msg["attachments"][0]["size"] == 1000
        with emulator.expect_violation("attachment-size"):
            status, err = await api.request("POST", url, {}, files=[("b.bin", b"x" * 1001)])
        assert (status, err["code"]) == (413, 40005)
        with emulator.expect_violation("attachment-count"):
            status, err = await api.request("POST", url, {}, files=[(f"{i}.txt", b"x") for i in range(11)])
        assert status == 400


def test_modal_rules() -> None:
    text = {"type": 4, "custom_id": "t", "style": 1, "label": "Label"}
    ok = {"title": "T", "custom_id": "m", "components": [row(text)]}
    assert L.check_modal(ok) == []
    rules = {p.rule for p in L.check_modal({**ok, "title": "t" * 46})}
    assert rules == {"modal-title"}
    assert {p.rule for p in L.check_modal({**ok, "components": [row(text)] * 6})} >= {"modal-components"}
    assert {p.rule for p in L.check_modal({**ok, "components": [row({**text, "label": "l" * 46})]})} == {
        "text-input-label"
    }
    assert {p.rule for p in L.check_modal({**ok, "components": [row({**text, "max_length": 4001})]})} == {
        "text-input-length"
    }
    assert {p.rule for p in L.check_modal({**ok, "components": [row({**text, "placeholder": "p" * 101})]})} == {
        "text-input-placeholder"
    }
    assert {p.rule for p in L.check_modal({**ok, "components": [row({**text, "value": "v" * 4001})]})} == {
        "text-input-value"
    }
    label = {"type": 18, "label": "L", "component": {"type": 4, "custom_id": "t", "style": 1}}
    assert L.check_modal({**ok, "components": [label]}) == []


def test_choice_rules() -> None:
    assert L.check_choices([{"name": "a", "value": "a"}] * 25) == []
    assert {p.rule for p in L.check_choices([{"name": "a", "value": "a"}] * 26)} == {"autocomplete-choices"}
    assert {p.rule for p in L.check_choices([{"name": "", "value": "a"}])} == {"autocomplete-choice"}
    assert {p.rule for p in L.check_choices([{"name": "a", "value": "v" * 101}])} == {"autocomplete-choice"}


def test_command_rules() -> None:
    good = {"name": "pyramid", "description": "d", "options": [{"type": 1, "name": "new", "description": "d"}]}
    assert L.check_command(good) == []
    assert L.check_command({**good, "name": "Pyramid"})
    assert L.check_command({**good, "description": "d" * 101})
    req_after_opt = [
        {"type": 3, "name": "a", "description": "d"},
        {"type": 3, "name": "b", "description": "d", "required": True},
    ]
    assert L.check_command({**good, "options": req_after_opt})


async def test_invalid_command_sync_is_refused(emulator: Emulator) -> None:
    async with RawAPI(emulator) as api:
        path = f"/applications/{emulator.world.application_id}/commands"
        with emulator.expect_violation("command-name"):
            status, err = await api.request("PUT", path, [{"name": "Bad Name", "description": "d"}])
        assert status == 400 and err["errors"]["0"]["name"]["_errors"][0]["code"] == "APPLICATION_COMMAND_INVALID_NAME"
