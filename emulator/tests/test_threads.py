"""Threads on the emulator's clock: auto-archiving, unarchiving by a post, archived/locked/deleted threads,
durations and slowmode bounds."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from emulator import Emulator
from emulator import permissions as P
from emulator.model import MEMBER_OVERWRITE, Overwrite

from .raw import RawAPI, RawGateway

JSON = dict[str, Any]


async def new_thread(emu: Emulator, api: RawAPI, **body: Any) -> JSON:
    status, thread = await api.request("POST", f"/channels/{emu.general.id}/threads", {"name": "t", "type": 11, **body})
    assert status == 201 and isinstance(thread, dict), thread
    return thread


async def test_threads_auto_archive_after_inactivity_on_the_emulators_clock(
    emulator: Emulator, api: RawAPI, gw: RawGateway
) -> None:
    thread = await new_thread(emulator, api, auto_archive_duration=60)
    channel = emulator.world.channels[int(thread["id"])]
    await gw.wait_event("THREAD_CREATE")
    assert await emulator.advance(minutes=59) == []
    await api.request("POST", f"/channels/{thread['id']}/messages", {"content": "still here"})  # activity
    assert await emulator.advance(minutes=59) == [] and not channel.archived
    assert await emulator.advance(minutes=1) == [channel]
    assert channel.archived
    update = await gw.wait_event("THREAD_UPDATE")
    metadata = update["d"]["thread_metadata"]
    assert metadata["archived"] is True
    archived_at = dt.datetime.fromisoformat(metadata["archive_timestamp"])
    assert abs(archived_at - emulator.now()) < dt.timedelta(seconds=5)  # 118 minutes after the real time
    assert archived_at - dt.datetime.now(dt.UTC) > dt.timedelta(minutes=117)
    _, active = await api.request("GET", f"/guilds/{emulator.guild.id}/threads/active")
    assert active["threads"] == []
    _, archived = await api.request("GET", f"/channels/{emulator.general.id}/threads/archived/public")
    assert [t["id"] for t in archived["threads"]] == [thread["id"]]


async def test_an_injected_clock_archives_before_the_next_request(api: RawAPI) -> None:
    now = [dt.datetime(2026, 1, 1, tzinfo=dt.UTC)]
    async with Emulator(clock=lambda: now[0]) as emu, RawAPI(emu) as raw:
        _, thread = await raw.request("POST", f"/channels/{emu.general.id}/threads", {"name": "t", "type": 11})
        assert thread["thread_metadata"]["create_timestamp"].startswith("2026-01-01")
        now[0] += dt.timedelta(days=1)  # the default duration is 1440 minutes
        _, fetched = await raw.request("GET", f"/channels/{thread['id']}")
        assert fetched["thread_metadata"]["archived"] is True
    assert emu.violations == []


async def test_requests_look_for_threads_to_archive_once_a_second(api: RawAPI) -> None:
    """Not on every request (that was a quarter of the emulator's time under load): a thread is archived
    by the first request a second or more after the last look, so at most a second late."""
    start = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    now = [start]
    async with Emulator(clock=lambda: now[0]) as emu, RawAPI(emu) as raw:
        _, thread = await raw.request("POST", f"/channels/{emu.general.id}/threads",
                                      {"name": "t", "type": 11, "auto_archive_duration": 60})
        now[0] = start + dt.timedelta(minutes=60) - dt.timedelta(milliseconds=300)
        _, fetched = await raw.request("GET", f"/channels/{thread['id']}")  # a look: not due yet
        assert fetched["thread_metadata"]["archived"] is False
        now[0] += dt.timedelta(milliseconds=600)  # due now, but looked 0.6 s ago
        _, fetched = await raw.request("GET", f"/channels/{thread['id']}")
        assert fetched["thread_metadata"]["archived"] is False
        now[0] += dt.timedelta(milliseconds=400)  # a second after the last look
        _, fetched = await raw.request("GET", f"/channels/{thread['id']}")
        assert fetched["thread_metadata"]["archived"] is True
    assert emu.violations == []


async def test_a_post_unarchives_an_archived_thread(emulator: Emulator, api: RawAPI, gw: RawGateway) -> None:
    thread = await new_thread(emulator, api)
    await emulator.advance(days=1)
    await gw.wait_event("THREAD_UPDATE")
    status, _ = await api.request("POST", f"/channels/{thread['id']}/messages", {"content": "back"})
    assert status == 200 and not emulator.world.channels[int(thread["id"])].archived
    update = await gw.wait_event("THREAD_UPDATE")
    assert update["d"]["thread_metadata"]["archived"] is False
    created = await gw.wait_event("MESSAGE_CREATE")
    assert created["s"] > update["s"]  # the thread is active again before the message arrives


async def test_archived_threads_refuse_everything_but_posts_and_deletes(emulator: Emulator, api: RawAPI) -> None:
    thread = await new_thread(emulator, api)
    base = f"/channels/{thread['id']}"
    _, msg = await api.request("POST", base + "/messages", {"content": "hi"})
    await emulator.advance(days=1)
    for method, path, body in [
        ("PATCH", f"/messages/{msg['id']}", {"content": "edited"}),
        ("PUT", f"/messages/{msg['id']}/reactions/%F0%9F%91%8D/@me", None),
        ("PUT", "/thread-members/@me", None),
        ("PATCH", "", {"name": "renamed"}),
    ]:
        with emulator.expect_violation("thread-archived"):
            status, err = await api.request(method, base + path, body)
        assert (status, err["code"]) == (400, 50083), (method, path)
    assert (await api.request("DELETE", base + f"/messages/{msg['id']}"))[0] == 204
    status, unarchived = await api.request("PATCH", base, {"archived": False, "name": "renamed"})
    assert status == 200 and unarchived["name"] == "renamed" and not unarchived["thread_metadata"]["archived"]


async def test_locked_threads_need_manage_threads(emulator: Emulator, api: RawAPI) -> None:
    thread = await new_thread(emulator, api)
    base = f"/channels/{thread['id']}"
    _, msg = await api.request("POST", base + "/messages", {"content": "hi"})
    assert (await api.request("PATCH", base, {"locked": True}))[0] == 200  # the bot moderates by default
    bot = emulator.bot.id
    emulator.general.overwrites[bot] = Overwrite(bot, MEMBER_OVERWRITE, deny=P.MANAGE_THREADS)
    for method, path, body in [
        ("POST", "/messages", {"content": "x"}),
        ("PATCH", f"/messages/{msg['id']}", {"content": "y"}),
    ]:
        with emulator.expect_violation("thread-locked"):
            status, err = await api.request(method, base + path, body)
        assert (status, err["code"]) == (403, 160005)
    with emulator.expect_violation("missing-permissions"):
        status, err = await api.request("PATCH", base, {"locked": False})
    assert (status, err["code"]) == (403, 50013)
    # archived and locked: only MANAGE_THREADS unarchives
    emulator.world.channels[int(thread["id"])].archived = True
    with emulator.expect_violation("thread-locked"):
        status, err = await api.request("PATCH", base, {"archived": False})
    assert (status, err["code"]) == (403, 160005)


async def test_thread_creator_may_archive_without_manage_threads_but_not_set_slowmode(
    emulator: Emulator, api: RawAPI
) -> None:
    thread = await new_thread(emulator, api)
    bot = emulator.bot.id
    emulator.general.overwrites[bot] = Overwrite(bot, MEMBER_OVERWRITE, deny=P.MANAGE_THREADS)
    with emulator.expect_violation("missing-permissions"):
        status, _ = await api.request("PATCH", f"/channels/{thread['id']}", {"rate_limit_per_user": 5})
    assert status == 403
    status, archived = await api.request("PATCH", f"/channels/{thread['id']}", {"archived": True})
    assert status == 200 and archived["thread_metadata"]["archived"]


@pytest.mark.parametrize(
    ("rule", "body", "key"),
    [
        ("thread-archive-duration", {"auto_archive_duration": 61}, "auto_archive_duration"),
        ("thread-archive-duration", {"auto_archive_duration": "1440"}, "auto_archive_duration"),
        ("slowmode", {"rate_limit_per_user": 21601}, "rate_limit_per_user"),
        ("slowmode", {"rate_limit_per_user": -1}, "rate_limit_per_user"),
        ("thread-name", {"name": ""}, "name"),
    ],
)
async def test_thread_field_bounds(emulator: Emulator, api: RawAPI, rule: str, body: JSON, key: str) -> None:
    with emulator.expect_violation(rule):
        status, err = await api.request(
            "POST", f"/channels/{emulator.general.id}/threads", {"name": "t", "type": 11, **body}
        )
    assert status == 400 and err["code"] == 50035 and key in err["errors"]
    thread = await new_thread(emulator, api)
    with emulator.expect_violation(rule):
        status, err = await api.request("PATCH", f"/channels/{thread['id']}", body)
    assert status == 400 and key in err["errors"]


async def test_slowmode_bounds_on_channels(emulator: Emulator, api: RawAPI) -> None:
    role = emulator.guild.bot_role(emulator.bot.id)
    assert role is not None
    role.permissions |= P.MANAGE_CHANNELS
    with emulator.expect_violation("slowmode"):
        status, err = await api.request("PATCH", f"/channels/{emulator.general.id}", {"rate_limit_per_user": 30000})
    assert status == 400 and "rate_limit_per_user" in err["errors"]
    status, edited = await api.request("PATCH", f"/channels/{emulator.general.id}", {"rate_limit_per_user": 21600})
    assert status == 200 and edited["rate_limit_per_user"] == 21600
    role.permissions &= ~P.MANAGE_CHANNELS
    with emulator.expect_violation("missing-permissions"):
        status, _ = await api.request("PATCH", f"/channels/{emulator.general.id}", {"topic": "x"})
    assert status == 403


async def test_deleted_threads_are_unknown_channels(emulator: Emulator, api: RawAPI, gw: RawGateway) -> None:
    thread = await new_thread(emulator, api)
    assert (await api.request("DELETE", f"/channels/{thread['id']}"))[0] == 200
    deleted = await gw.wait_event("THREAD_DELETE")
    assert deleted["d"]["id"] == thread["id"]
    status, err = await api.request("POST", f"/channels/{thread['id']}/messages", {"content": "anyone?"})
    assert (status, err["code"], err["message"]) == (404, 10003, "Unknown Channel")
    assert emulator.violations == [] and emulator.rejections[-1].code == 10003  # a race, not a broken rule
