"""The bot's policy ``allowed-mentions-missing``: every message request it makes says whom the message may ping.

Discord accepts a message without ``allowed_mentions`` and then parses its mentions with the default allowances, so
this is a violation the emulator records (the request still succeeds), on every route that creates or edits a
message: channel posts and edits, interaction responses (4 and 7), follow-ups, and edits of both through the
interaction's webhook. A deferred response (5) carries no message yet, a modal (9) none at all.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from emulator import Emulator, User
from emulator.interactions import dispatch_interaction
from emulator.messages import create_message
from emulator.model import Interaction

from .raw import RawAPI, RawGateway

JSON = dict[str, Any]
NONE: JSON = {"parse": []}


@pytest.fixture(autouse=True)
def policy_on(emulator: Emulator) -> None:
    emulator.require_allowed_mentions = True  # the directory's conftest switches it off for raw-body tests


async def _command(emulator: Emulator, user: User) -> Interaction:
    data = {"id": "1", "name": "cmd", "type": 1}
    return await dispatch_interaction(emulator, type=2, user=user, channel=emulator.general, data=data)


def _hook(emulator: Emulator, inter: Interaction, suffix: str = "") -> str:
    return f"/webhooks/{emulator.world.application_id}/{inter.token}{suffix}"


async def _post(api: RawAPI, emulator: Emulator, body: JSON) -> JSON:
    status, out = await api.request("POST", f"/channels/{emulator.general.id}/messages", body)
    assert status == 200, out
    return out  # type: ignore[no-any-return]


Route = Callable[[Emulator, RawAPI, User, "JSON | None"], Awaitable[int]]


def _with(body: JSON, mentions: JSON | None) -> JSON:
    return body if mentions is None else {**body, "allowed_mentions": mentions}


async def channel_post(emulator: Emulator, api: RawAPI, carol: User, mentions: JSON | None) -> int:
    status, _ = await api.request(
        "POST", f"/channels/{emulator.general.id}/messages", _with({"content": f"<@{carol.id}>"}, mentions)
    )
    return status


async def channel_edit(emulator: Emulator, api: RawAPI, carol: User, mentions: JSON | None) -> int:
    msg = await _post(api, emulator, {"content": "card", "allowed_mentions": NONE})
    status, _ = await api.request(
        "PATCH", f"/channels/{emulator.general.id}/messages/{msg['id']}", _with({"components": []}, mentions)
    )
    return status


async def response(emulator: Emulator, api: RawAPI, carol: User, mentions: JSON | None) -> int:
    inter = await _command(emulator, carol)
    status, _ = await api.request(
        "POST", f"/interactions/{inter.id}/{inter.token}/callback", {"type": 4, "data": _with({"content": "hi"},
                                                                                                 mentions)}
    )
    return status


async def update(emulator: Emulator, api: RawAPI, carol: User, mentions: JSON | None) -> int:
    msg = await _post(api, emulator, {"content": "card", "allowed_mentions": NONE})
    inter = await dispatch_interaction(
        emulator, type=3, user=carol, channel=emulator.general, data={"custom_id": "x", "component_type": 2},
        message=emulator.world.messages[int(msg["id"])],
    )
    status, _ = await api.request(
        "POST", f"/interactions/{inter.id}/{inter.token}/callback", {"type": 7, "data": _with({"content": "new"},
                                                                                                 mentions)}
    )
    return status


async def original_edit(emulator: Emulator, api: RawAPI, carol: User, mentions: JSON | None) -> int:
    inter = await _command(emulator, carol)
    await api.request("POST", f"/interactions/{inter.id}/{inter.token}/callback", {"type": 5})
    status, _ = await api.request(
        "PATCH", _hook(emulator, inter, "/messages/@original"), _with({"content": "done"}, mentions)
    )
    return status


async def followup(emulator: Emulator, api: RawAPI, carol: User, mentions: JSON | None) -> int:
    inter = await _command(emulator, carol)
    await api.request(
        "POST", f"/interactions/{inter.id}/{inter.token}/callback", {"type": 4, "data": {"content": "hi",
                                                                                         "allowed_mentions": NONE}}
    )
    status, _ = await api.request("POST", _hook(emulator, inter), _with({"content": "more"}, mentions))
    return status


async def followup_edit(emulator: Emulator, api: RawAPI, carol: User, mentions: JSON | None) -> int:
    inter = await _command(emulator, carol)
    await api.request(
        "POST", f"/interactions/{inter.id}/{inter.token}/callback", {"type": 4, "data": {"content": "hi",
                                                                                         "allowed_mentions": NONE}}
    )
    _, fu = await api.request("POST", _hook(emulator, inter), {"content": "more", "allowed_mentions": NONE})
    status, _ = await api.request(
        "PATCH", _hook(emulator, inter, f"/messages/{fu['id']}"), _with({"content": "more!"}, mentions)
    )
    return status


ROUTES: list[Route] = [channel_post, channel_edit, response, update, original_edit, followup, followup_edit]


@pytest.mark.parametrize("route", ROUTES, ids=lambda r: r.__name__)
async def test_a_message_request_without_allowed_mentions_is_a_violation(
    emulator: Emulator, gw: RawGateway, api: RawAPI, carol: User, route: Route
) -> None:
    with emulator.expect_violation("allowed-mentions-missing") as caught:
        status = await route(emulator, api, carol, None)
    assert status in (200, 204)  # Discord accepts it: the harm is in whom it pings
    assert len(caught) == 1


@pytest.mark.parametrize("route", ROUTES, ids=lambda r: r.__name__)
async def test_a_message_request_with_allowed_mentions_passes(
    emulator: Emulator, gw: RawGateway, api: RawAPI, carol: User, route: Route
) -> None:
    assert await route(emulator, api, carol, NONE) in (200, 204)
    assert emulator.violations == []


async def test_deferring_a_tests_own_messages_and_the_switch_need_none(
    emulator: Emulator, gw: RawGateway, api: RawAPI, carol: User
) -> None:
    inter = await _command(emulator, carol)
    status, _ = await api.request("POST", f"/interactions/{inter.id}/{inter.token}/callback", {"type": 5})
    assert status == 204 and emulator.violations == []
    create_message(emulator, emulator.general, emulator.bot, {"content": "put there by a test"}, [])  # no request
    assert emulator.violations == []
    emulator.require_allowed_mentions = False
    assert await channel_post(emulator, api, carol, None) == 200
    assert emulator.violations == []
