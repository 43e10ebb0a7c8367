"""Nine requests Discord refuses that the emulator used to accept (issue #37): each refused through the real route
with Discord's ``400 / 50035 Invalid Form Body`` naming the field, and its nearest well-formed neighbour accepted.

Messages go through ``POST /channels/{id}/messages``; modals through the interaction callback (type 9).
"""

from __future__ import annotations

from typing import Any

import pytest

from emulator import RULES, Emulator, User
from emulator.interactions import dispatch_interaction

from .raw import RawAPI, RawGateway

JSON = dict[str, Any]
V2 = 1 << 15
LONG_URL = "https://x.test/" + "a" * (2048 - len("https://x.test/"))  # 2048 characters: the most a media url takes


def text(content: str, **kw: Any) -> JSON:
    return {"type": 10, "content": content, **kw}


def button(**kw: Any) -> JSON:
    return {"type": 2, "style": 1, "label": "b", "custom_id": "b", **kw}


def card(*components: JSON) -> JSON:
    return {"flags": V2, "components": list(components), "allowed_mentions": {"parse": []}}


def gallery(url: str = "https://x.test/a.png", description: str | None = "a board") -> JSON:
    return {"type": 12, "items": [{"media": {"url": url}, "description": description}]}


def thumbnail_section(description: str | None) -> JSON:
    return {"type": 9, "components": [text("t")],
            "accessory": {"type": 11, "media": {"url": "https://x.test/t.png"}, "description": description}}


#: rule, refused message, the field Discord names, the accepted neighbour
MESSAGE_CASES: list[tuple[str, JSON, tuple[str | int, ...], JSON]] = [
    ("container-components", card({"type": 17, "components": []}), ("components", 0, "components"),
     card({"type": 17, "components": [text("inside")]})),
    ("component-id", card(text("a", id=2**31)), ("components", 0, "id"), card(text("a", id=2**31 - 1))),
    ("media-url", card(gallery(LONG_URL + "a")), ("components", 0, "items", 0, "media", "url"),
     card(gallery(LONG_URL))),
    ("media-url", card(thumbnail_section(None) | {"accessory": {"type": 11, "media": {"url": LONG_URL + "a"}}}),
     ("components", 0, "accessory", "media", "url"), card(thumbnail_section(None))),
    ("media-description", card(gallery(description="")), ("components", 0, "items", 0, "description"),
     card(gallery(description=None))),
    ("media-description", card(thumbnail_section("")), ("components", 0, "accessory", "description"),
     card(thumbnail_section("a red pyramid"))),
    ("button-sku-id", {"components": [{"type": 1, "components": [button(sku_id="1234")]}]},
     ("components", 0, "components", 0, "sku_id"), {"components": [{"type": 1, "components": [button()]}]}),
]


@pytest.mark.parametrize(("rule", "refused", "field", "accepted"), MESSAGE_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(MESSAGE_CASES)])
async def test_a_message_discord_refuses_is_refused(
    emulator: Emulator, api: RawAPI, rule: str, refused: JSON, field: tuple[str | int, ...], accepted: JSON
) -> None:
    assert rule in RULES
    url = f"/channels/{emulator.general.id}/messages"
    with emulator.expect_violation(rule) as caught:
        status, err = await api.request("POST", url, refused)
    assert status == 400 and err["code"] == 50035 and err["message"] == "Invalid Form Body"
    node = err["errors"]
    for key in field:
        node = node[str(key)]
    assert node["_errors"][0]["code"] and {v.rule for v in caught} == {rule}
    assert emulator.world.channel_messages(emulator.general.id) == []
    status, msg = await api.request("POST", url, accepted)
    assert status == 200, msg
    assert [v for v in emulator.violations if not v.expected] == []


TEXT_INPUT: JSON = {"type": 4, "custom_id": "t", "style": 1}
SELECT: JSON = {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}, {"label": "b", "value": "b"}]}


def form(component: JSON, **label: Any) -> JSON:
    return {"type": 9, "data": {"title": "Options", "custom_id": "m",
                                "components": [{"type": 18, "label": "Label", "component": component, **label}]}}


MODAL_CASES: list[tuple[str, JSON, tuple[str | int, ...], JSON]] = [
    ("modal-disabled", form(SELECT | {"disabled": True}), ("data", "components", 0, "component", "disabled"),
     form(SELECT | {"disabled": False})),  # discord.py always sends it, false
    ("text-input-style", form(TEXT_INPUT | {"style": 3}), ("data", "components", 0, "component", "style"),
     form(TEXT_INPUT | {"style": 2})),
    ("custom-id-length", form({"type": 4, "style": 1}), ("data", "components", 0, "component", "custom_id"),
     form(TEXT_INPUT)),
    ("modal-label", form(TEXT_INPUT, description=""), ("data", "components", 0, "description"),
     form(TEXT_INPUT, description="d")),
]


async def _command(emulator: Emulator, user: User) -> str:
    inter = await dispatch_interaction(emulator, type=2, user=user, channel=emulator.general,
                                       data={"id": "1", "name": "cmd", "type": 1})
    return f"/interactions/{inter.id}/{inter.token}/callback"


@pytest.mark.parametrize(("rule", "refused", "field", "accepted"), MODAL_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(MODAL_CASES)])
async def test_a_modal_discord_refuses_is_refused(
    emulator: Emulator, gw: RawGateway, api: RawAPI, carol: User, rule: str, refused: JSON,
    field: tuple[str | int, ...], accepted: JSON
) -> None:
    assert rule in RULES
    callback = await _command(emulator, carol)
    with emulator.expect_violation(rule) as caught:
        status, err = await api.request("POST", callback, refused)
    assert status == 400 and err["code"] == 50035
    node = err["errors"]
    for key in field:
        node = node[str(key)]
    assert node["_errors"][0]["code"] and {v.rule for v in caught} == {rule}
    status, _ = await api.request("POST", callback, accepted)  # the refused answer did not use the interaction up
    assert status == 204
    assert [v for v in emulator.violations if not v.expected] == []
