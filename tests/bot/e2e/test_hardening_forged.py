"""Requests a stale, modified or buggy client can send (#26): every one is a player's
mistake, answered kindly in the player's language, logged below ERROR, and changes
nothing; none reaches "Something went wrong"."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.store import GuildSettings
from emulator.harness import Harness, InteractionResult
from emulator.interactions import APPLICATION_COMMAND, MESSAGE_COMPONENT, dispatch_interaction, find_command
from emulator.messages import create_message
from emulator.model import Channel, User
from tests.bot.e2e.driver import latest_game_id, session_of

JSON = dict[str, Any]
WRONG = ("wrong on my side", "if your move is not there")


async def forge(harness: Harness, user: User, channel: Channel, path: str, options: list[JSON],
                *, resolved: JSON | None = None, locale: str | None = None) -> InteractionResult:
    """``/path`` with exactly these raw options (types, values, names as given)."""
    top, *subs = path.split()
    command = find_command(harness.emulator, channel, top)
    leaf: list[JSON] = options
    for sub in reversed(subs):
        leaf = [{"name": sub, "type": 1, "options": leaf}]
    data: JSON = {"id": str(command.id), "name": top, "type": 1, "options": leaf}
    if resolved is not None:
        data["resolved"] = resolved
    inter = await dispatch_interaction(harness.emulator, type=APPLICATION_COMMAND, user=user, channel=channel,
                                       data=data, locale=locale)
    return await harness._finish(inter, settle=True, check=True, what=f"forged /{path}")


def kind_refusal(res: InteractionResult, *fragments: str) -> None:
    """An ephemeral ❌ that names what was wrong, never the internal-error answer."""
    text = res.text
    assert res.ephemeral and "❌" in text, text
    assert not any(w in text for w in WRONG), text
    for fragment in fragments:
        assert fragment in text, (fragment, text)


def no_errors_logged(caplog: pytest.LogCaptureFixture) -> None:
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


@pytest.fixture(autouse=True)
def _capture_all(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)


@pytest.fixture
async def ana(harness: Harness) -> User:
    """A member (with a moderator's permissions, as ``add_user`` gives), the bot started."""
    user = await harness.add_user("ana")
    await harness.start_bot()
    return user


async def solo_pyramido(harness: Harness, user: User) -> tuple[Channel, int]:
    """A solo Pyramido game of ``user``'s (it starts at once): its thread and number."""
    general = harness.emulator.general
    await harness.slash(user, general, "pyramid new", game="pyramido", mode="solo")
    return harness.threads(general)[0], await latest_game_id(harness)


async def click_forged(harness: Harness, user: User, channel: Channel, component: JSON,
                       data: JSON) -> InteractionResult:
    """A click on ``component`` of an old message of the bot's, sent as ``data`` (what a
    modified client may put there)."""
    emulator = harness.emulator
    message = create_message(emulator, channel, emulator.world.bot, {
        "content": "an old message", "components": [{"type": 1, "components": [component]}]}, [])
    inter = await dispatch_interaction(emulator, type=MESSAGE_COMPONENT, user=user, channel=channel, data=data,
                                       message=message)
    return await harness._finish(inter, settle=True, check=True, what=str(data["custom_id"]))


async def test_play_without_move_with_a_numeric_move_or_a_huge_game(
    emulator: Any, harness: Harness, ana: User, caplog: pytest.LogCaptureFixture
) -> None:
    thread, game_id = await solo_pyramido(harness, ana)
    kind_refusal(await forge(harness, ana, thread, "pyramid play", []), "move")
    kind_refusal(await forge(harness, ana, thread, "pyramid play", [{"name": "move", "type": 4, "value": 5}]),
                 "move")
    kind_refusal(await forge(harness, ana, thread, "pyramid play", [{"name": "move", "type": 3, "value": 5}]),
                 "move")
    huge = [{"name": "move", "type": 3, "value": "end"}, {"name": "game", "type": 4, "value": 2**63}]
    kind_refusal(await forge(harness, ana, thread, "pyramid play", huge), "game")
    for command in ("pyramid status", "pyramid hand", "pyramid history", "pyramid resign", "pyramid replay"):
        kind_refusal(await forge(harness, ana, thread, command, [{"name": "game", "type": 4, "value": 2**63}]),
                     "game")
    assert (await session_of(harness, game_id)).version == 0
    no_errors_logged(caplog)


async def test_values_outside_the_choices_are_refused_by_name(
    emulator: Any, harness: Harness, ana: User, caplog: pytest.LogCaptureFixture
) -> None:
    general = emulator.general
    chess = [{"name": "game", "type": 3, "value": "chess"}]
    for command in ("pyramid new", "pyramid stats", "pyramid leaderboard", "pyramid rules"):
        kind_refusal(await forge(harness, ana, general, command, chess), "chess")
    kind_refusal(await forge(harness, ana, general, "pyramid settings", [{"name": "language", "type": 3,
                                                                          "value": "xx"}]), "xx")
    kind_refusal(await forge(harness, ana, general, "pyramid-admin settings",
                             [{"name": "language", "type": 3, "value": "xx"}]), "xx")
    kind_refusal(await forge(harness, ana, general, "pyramid daily", [{"name": "show", "type": 3,
                                                                       "value": "yesterday"}]), "yesterday")
    assert await harness.bot.services.store.all_games() == []
    assert await harness.bot.services.store.guild_settings(emulator.guild.id) == GuildSettings(
        guild_id=emulator.guild.id)
    no_errors_logged(caplog)


async def test_refusals_are_in_the_players_language(
    emulator: Any, harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    ana = await harness.add_user("ana", locale="de")
    await harness.start_bot()
    res = await forge(harness, ana, emulator.general, "pyramid new", [{"name": "game", "type": 3, "value": "chess"}],
                      locale="de")
    kind_refusal(res, "chess", "Es wurde nichts geändert")
    res = await forge(harness, ana, emulator.general, "pyramid play", [], locale="de")
    kind_refusal(res, "Es wurde nichts geändert")
    no_errors_logged(caplog)


async def test_wrong_types_unknown_and_missing_options(
    emulator: Any, harness: Harness, ana: User, caplog: pytest.LogCaptureFixture
) -> None:
    general = emulator.general
    kind_refusal(await forge(harness, ana, general, "pyramid away", [{"name": "days", "type": 3, "value": "three"}]),
                 "days")
    kind_refusal(await forge(harness, ana, general, "pyramid replay", [{"name": "move", "type": 3,
                                                                        "value": "three"}]), "move")
    kind_refusal(await forge(harness, ana, general, "pyramid status", [{"name": "colour", "type": 3,
                                                                        "value": "red"}]), "colour")
    kind_refusal(await forge(harness, ana, general, "pyramid rules", []), "game")
    kind_refusal(await forge(harness, ana, general, "pyramid status", [{"name": "text", "type": 5,
                                                                        "value": "yes"}]), "text")
    kind_refusal(await forge(harness, ana, general, "pyramid-admin settings",
                             [{"name": "reminder_hours", "type": 10, "value": "NaN"}]), "reminder_hours")
    kind_refusal(await forge(harness, ana, general, "pyramid-admin settings",
                             [{"name": "max_open_games", "type": 4, "value": 10**30}]), "max_open_games")
    kind_refusal(await forge(harness, ana, general, "pyramid nonsense", []))
    kind_refusal(await forge(harness, ana, general, "pyramid status",
                             [{"name": "game", "type": 4, "value": 1}, {"name": "game", "type": 4, "value": 2}]),
                 "game")
    assert await harness.bot.services.store.guild_settings(emulator.guild.id) == GuildSettings(
        guild_id=emulator.guild.id)
    no_errors_logged(caplog)


async def test_on_timeout_outside_its_choices_gets_its_own_sentence(
    emulator: Any, harness: Harness, ana: User, caplog: pytest.LogCaptureFixture
) -> None:
    res = await forge(harness, ana, emulator.general, "pyramid-admin settings",
                      [{"name": "on_timeout", "type": 3, "value": "explode"}])
    kind_refusal(res, "on_timeout", "explode")
    assert "reminder" not in res.text.lower()
    no_errors_logged(caplog)


async def test_unresolved_users_and_other_servers_channels(
    emulator: Any, harness: Harness, ana: User, caplog: pytest.LogCaptureFixture
) -> None:
    general = emulator.general
    kind_refusal(await forge(harness, ana, general, "pyramid stats",
                             [{"name": "player", "type": 6, "value": "424242424242"}]), "player")
    kind_refusal(await forge(harness, ana, general, "pyramid stats",
                             [{"name": "player", "type": 6, "value": "not-a-snowflake"}]), "player")
    other = await harness.add_guild("elsewhere", members=[ana])
    elsewhere = harness.channel("general", guild=other)
    option = [{"name": "channel", "type": 7, "value": str(elsewhere.id)}]
    forged_resolved = {"channels": {str(elsewhere.id): {"id": str(elsewhere.id), "name": "general", "type": 0,
                                                          "permissions": "0"}}}
    kind_refusal(await forge(harness, ana, general, "pyramid-admin daily", option, resolved=forged_resolved),
                 "channel")
    kind_refusal(await forge(harness, ana, general, "pyramid-admin daily", option), "channel")
    kind_refusal(await forge(harness, ana, general, "pyramid-admin daily",
                             [{"name": "channel", "type": 7, "value": "1"}]), "channel")
    no_errors_logged(caplog)


async def test_a_page_beyond_the_chooser_is_answered_without_an_empty_menu(
    emulator: Any, harness: Harness, ana: User, caplog: pytest.LogCaptureFixture
) -> None:
    res = await harness.slash(ana, emulator.general, "pyramid new", game="pyrinoes", target=10)
    await harness.select(ana, res.message, None, ["normal"])
    await harness.click(ana, res.message, label="Start")
    game_id = await latest_game_id(harness)
    thread = harness.threads(emulator.general)[0]
    session = await session_of(harness, game_id)
    assert session.to_act == 0
    for page in ("1", "2", "7", "999"):
        custom_id = f"pb:page:{game_id}:{session.version}:{page}|build"
        button = {"type": 2, "style": 1, "label": "More", "custom_id": custom_id}
        answer = await click_forged(harness, ana, thread, button, {"custom_id": custom_id, "component_type": 2})
        assert not any(w in answer.text for w in WRONG), answer.text
        if page != "1":
            assert "❌" in answer.text, answer.text
    assert not emulator.violations, emulator.violations
    assert (await session_of(harness, game_id)).version == session.version
    no_errors_logged(caplog)


async def test_component_arguments_out_of_range(
    emulator: Any, harness: Harness, ana: User, caplog: pytest.LogCaptureFixture
) -> None:
    thread, game_id = await solo_pyramido(harness, ana)
    for custom_id, values in ((f"pb:sel:{game_id}:0:place", ["x" * 5000]), (f"pb:sel:{game_id}:0:place", []),
                              (f"pb:sel:{game_id}:0:place", [1, 2]), (f"pb:page:{game_id}:0:-1|place", None),
                              (f"pb:page:{game_id}:0:{'9' * 40}|place", None),
                              (f"pb:replay:{game_id}:999999999", None), (f"pb:addai:{game_id}:0", ["godlike"]),
                              (f"pb:pvok:{game_id}:0:{'z' * 80}", None), (f"pb:move:{game_id}:0:", None)):
        component = {"type": 2, "style": 1, "label": "x", "custom_id": custom_id}
        data: JSON = {"custom_id": custom_id, "component_type": 2}
        if values is not None:
            component = {"type": 3, "custom_id": custom_id, "options": [{"label": "a", "value": "a"}]}
            data = {"custom_id": custom_id, "component_type": 3, "values": values}
        answer = await click_forged(harness, ana, thread, component, data)
        assert not any(w in answer.text for w in WRONG), (custom_id, answer.text)
    assert (await session_of(harness, game_id)).version == 0
    no_errors_logged(caplog)


# --- storage faults: their own message, for every command --------------------------------------------------


def storage_refusal(res: InteractionResult, what: str) -> None:
    text = res.text
    assert "❌" in text or "⏳" in text, text
    assert not any(w in text for w in WRONG), text
    assert what in text.lower(), text
    assert "nothing was changed" in text.lower() and "try again" in text.lower(), text


async def test_a_held_write_lock_is_told_as_such(
    emulator: Any, harness: Harness, ana: User, database: str, caplog: pytest.LogCaptureFixture
) -> None:
    holder = sqlite3.connect(Path(database), timeout=0, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:  # each write waits out SQLite's busy timeout (5 s) before it gives up
        res = await harness.slash(ana, emulator.general, "pyramid settings", preview=True, settle=False)
        await harness.settle(timeout=60)
        storage_refusal(res, "busy")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert not (await harness.bot.services.players.prefs(ana.id)).preview
    no_errors_logged(caplog)


async def test_a_read_only_database_is_told_as_such(
    emulator: Any, harness: Harness, ana: User, caplog: pytest.LogCaptureFixture
) -> None:
    conn = harness.bot.services.db.writer.conn  # the bot's writer, made read-only under it
    conn.execute("PRAGMA query_only = ON")
    try:
        res = await harness.slash(ana, emulator.general, "pyramid-admin settings", max_open_games=5)
        storage_refusal(res, "read-only")
        res = await harness.slash(ana, emulator.general, "pyramid new", game="pyramido", mode="solo")
        storage_refusal(res, "read-only")
    finally:
        conn.execute("PRAGMA query_only = OFF")
    assert await harness.bot.services.store.all_games() == []
    assert await harness.bot.services.store.guild_settings(emulator.guild.id) == GuildSettings(
        guild_id=emulator.guild.id)
    assert [r for r in caplog.records if r.levelno >= logging.ERROR and r.exc_info] == []


async def test_an_interaction_that_expired_before_its_answer_is_no_error(
    emulator: Any, harness: Harness, ana: User, caplog: pytest.LogCaptureFixture
) -> None:
    """A stalled process answers after Discord gave up (404, 10062): nobody can be told,
    and it is logged as a WARNING, not as a bug."""
    emulator.interaction_deadline = 0.0
    with emulator.expect_violation("interaction-deadline"):
        top = find_command(emulator, emulator.general, "pyramid")
        for options in ([{"name": "status", "type": 1, "options": [{"name": "game", "type": 4, "value": 2**63}]}],
                        [{"name": "status", "type": 1, "options": [{"name": "game", "type": 4, "value": 77}]}]):
            data = {"id": str(top.id), "name": "pyramid", "type": 1, "options": options}
            inter = await dispatch_interaction(emulator, type=APPLICATION_COMMAND, user=ana,
                                               channel=emulator.general, data=data)
            await harness._finish(inter, settle=True, check=False, what="late")
    no_errors_logged(caplog)
    assert any("expired" in r.getMessage() for r in caplog.records if r.levelno == logging.WARNING)
