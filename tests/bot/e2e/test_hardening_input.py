"""Hostile input through the real bot: option values out of range, oversize move
text, and a burst of ``/pyramid new`` from one user."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.admin.server_settings import SettingsRefused, change_settings
from bot.store import GameRecord, GameStore, GuildSettings
from emulator.harness import Harness, InteractionResult
from emulator.interactions import APPLICATION_COMMAND, HarnessError, dispatch_interaction, find_command
from emulator.model import Channel, User
from tests.bot.e2e.driver import latest_game_id

NUMBER_BOUNDS = {
    "pyramid new": {"turn_limit": (1, 1000), "target": (10, 1000), "rounds": (1, 10)},
    "pyramid-admin settings": {"reminder_hours": (1, 720), "timeout_hours": (1, 2160), "max_open_games": (1, 25)},
}
#: Number options offered as a choice of values (the options model's ``Literal``).
NUMBER_CHOICES = {"pyramid new": {"size": [4, 5]}}


async def open_games_of(store: GameStore, user_id: int) -> list[GameRecord]:
    """The lobbies and running games ``user_id`` opened (what the cap counts)."""
    return [g for g in await store.all_games() if g.created_by == user_id and g.status in ("lobby", "active")]


async def forged_slash(harness: Harness, user: User, channel: Channel, path: str,
                       options: dict[str, Any]) -> InteractionResult:
    """``/command subcommand`` with option values Discord's client would never send
    (a forged interaction skips the min/max and max_length Discord checks)."""
    top, name = path.split()
    command = find_command(harness.emulator, channel, top)
    types = {bool: 5, int: 4, float: 10, str: 3}
    leaf = [{"name": k, "type": types[type(v)], "value": v} for k, v in options.items()]
    data = {"id": str(command.id), "name": top, "type": 1, "options": [{"name": name, "type": 1, "options": leaf}]}
    inter = await dispatch_interaction(harness.emulator, type=APPLICATION_COMMAND, user=user, channel=channel,
                                       data=data)
    return await harness._finish(inter, settle=True, check=True, what=f"forged /{path}")


def subcommand(emulator: Any, path: str) -> dict[str, Any]:
    """The registered spec of ``/command subcommand``, as Discord holds it."""
    top, name = path.split()
    command = next(c for c in emulator.world.commands.values() if c.name == top)
    return next(o for o in command.raw["options"] if o["name"] == name)


async def test_every_number_option_carries_discords_min_and_max(emulator: Any, harness: Harness) -> None:
    await harness.start_bot()
    for path, bounds in NUMBER_BOUNDS.items():
        options = {o["name"]: o for o in subcommand(emulator, path)["options"]}
        for option, (low, high) in bounds.items():
            assert (options[option].get("min_value"), options[option].get("max_value")) == (low, high), option
    for path, choices in NUMBER_CHOICES.items():
        options = {o["name"]: o for o in subcommand(emulator, path)["options"]}
        for option, values in choices.items():
            assert [c["value"] for c in options[option].get("choices", [])] == values, option
    move = {o["name"]: o for o in subcommand(emulator, "pyramid play")["options"]}["move"]
    assert move.get("max_length") == 100


async def test_out_of_range_settings_are_refused_by_discord_and_change_nothing(
    emulator: Any, harness: Harness
) -> None:
    admin = await harness.add_user("admin")
    await harness.start_bot()
    for option, value in (("reminder_hours", 0.5), ("reminder_hours", 721.0), ("timeout_hours", 1e308),
                          ("timeout_hours", 0.5), ("max_open_games", 0), ("max_open_games", 26)):
        with pytest.raises(HarnessError, match="must be within"):
            await harness.slash(admin, emulator.general, "pyramid-admin settings", **{option: value})
    stored = await harness.bot.services.store.guild_settings(emulator.guild.id)
    assert stored == GuildSettings(guild_id=emulator.guild.id)
    shown = await harness.slash(admin, emulator.general, "pyramid-admin settings", reminder_hours=12.0,
                                timeout_hours=48.0, max_open_games=5)
    assert "Saved" in shown.text and "12 h" in shown.text and "48 h" in shown.text and "5 open games" in shown.text
    clash = await harness.slash(admin, emulator.general, "pyramid-admin settings", timeout_hours=6.0)
    assert "must come before" in clash.text
    assert (await harness.bot.services.store.guild_settings(emulator.guild.id)).timeout_hours == 48.0


async def test_forged_out_of_range_values_are_refused_by_the_bot(emulator: Any, harness: Harness) -> None:
    admin = await harness.add_user("admin")
    await harness.start_bot()
    general = emulator.general
    for options in ({"game": "pyrinoes", "target": 1}, {"game": "flaming-pyramids", "turn_limit": 10**12},
                    {"game": "flaming-pyramids", "turn_limit": 1500}, {"game": "pyramido", "mode": "competitive",
                                                                        "rounds": 15},
                    {"game": "pyramido", "mode": "solo", "size": 6}):
        res = await forged_slash(harness, admin, general, "pyramid new", options)
        assert res.ephemeral and "❌" in res.text and "wrong on my side" not in res.text, (options, res.text)
    assert await harness.bot.services.store.all_games() == []
    for options in ({"reminder_hours": -5.0}, {"timeout_hours": 1e308}, {"max_open_games": 10**6},
                    {"reminder_hours": 0.01}):
        res = await forged_slash(harness, admin, general, "pyramid-admin settings", options)
        assert "❌" in res.text and "Nothing was changed" in res.text, (options, res.text)
    assert await harness.bot.services.store.guild_settings(emulator.guild.id) == GuildSettings(
        guild_id=emulator.guild.id)
    await harness.slash(admin, general, "pyramid new", game="pyramido", mode="solo")
    thread = harness.threads(general)[0]
    game_id = await latest_game_id(harness)
    huge = await forged_slash(harness, admin, thread, "pyramid play", {"move": "place R 1:" + "9" * 5000 + ",0"})
    assert "too long" in huge.text and "wrong on my side" not in huge.text
    assert (await harness.bot.services.sessions.load(game_id)).version == 0


async def test_the_bots_own_guard_refuses_what_discord_would_not(emulator: Any, harness: Harness) -> None:
    """A forged interaction skips Discord's min/max: the settings service and the
    store check the values again."""
    await harness.start_bot()
    services = harness.bot.services
    current = GuildSettings(guild_id=emulator.guild.id)
    for changes in ({"timeout_hours": 1e308}, {"timeout_hours": float("inf")}, {"reminder_hours": -5.0},
                    {"reminder_hours": float("nan")}, {"reminder_hours": 0.01}, {"max_open_games": 10**6},
                    {"reminder_hours": 100.0}):
        with pytest.raises(SettingsRefused) as refused:
            change_settings(current, changes, services.settings)
        assert len(str(refused.value)) < 300 and "Traceback" not in str(refused.value)
    bad = GuildSettings.model_construct(guild_id=emulator.guild.id, use_threads=True, reminder_hours=-5.0,
                                        timeout_hours=1e308, timeout_action="ai", max_open_games=3)
    with pytest.raises(ValueError, match="reminder_hours"):
        await services.store.save_guild_settings(bad)
    assert await services.store.guild_settings(emulator.guild.id) == current


async def test_oversize_move_text_never_reaches_the_engine(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    await harness.slash(ana, emulator.general, "pyramid new", game="pyramido", mode="solo")
    thread = harness.threads(emulator.general)[0]
    game_id = await latest_game_id(harness)
    huge = "place R 1:" + "9" * 5000 + ",0"
    assert await harness.autocomplete(ana, thread, "pyramid play", "move", huge) == []
    with pytest.raises(HarnessError, match="length must be within"):
        await harness.slash(ana, thread, "pyramid play", move=huge)
    big_but_short = await harness.slash(ana, thread, "pyramid play", move="place R 1:" + "9" * 80 + ",0")
    assert "❌" in big_but_short.text and "wrong on my side" not in big_but_short.text
    session = await harness.bot.services.sessions.load(game_id)
    assert session.version == 0


# --- 8. a per-user cap on open lobbies and games ------------------------------------------------------------


async def test_a_burst_of_new_games_stops_at_the_servers_cap(emulator: Any, harness: Harness) -> None:
    alice = await harness.add_user("alice")
    bob = await harness.add_user("bob")
    await harness.start_bot()
    burst = [harness.slash(alice, emulator.general, "pyramid new", game="flaming-pyramids", settle=False)
             for _ in range(8)]
    results = await asyncio.gather(*burst)
    await harness.settle()
    store = harness.bot.services.store
    opened = await open_games_of(store, alice.id)
    assert len(opened) == 3
    refusals = [r for r in results if "open games" in r.text]
    assert len(refusals) == 5 and all(r.ephemeral for r in refusals)
    assert "3" in refusals[0].text
    # Someone else is not limited by alice's games; solo games count too.
    assert "started" in (await harness.slash(bob, emulator.general, "pyramid new", game="continuous-pyramid")).text
    assert "open games" in (await harness.slash(alice, emulator.general, "pyramid new",
                                                game="continuous-pyramid")).text
    # Closing a lobby frees a place; an admin can raise the cap.
    lobby_message = next(r.message for r in results if r.message is not None and not r.ephemeral)
    await harness.click(alice, lobby_message, label="Cancel")
    assert not (await harness.slash(alice, emulator.general, "pyramid new", game="pyrinoes")).ephemeral
    await harness.slash(bob, emulator.general, "pyramid-admin settings", max_open_games=4)
    assert not (await harness.slash(alice, emulator.general, "pyramid new", game="pyrinoes")).ephemeral
    assert "open games" in (await harness.slash(alice, emulator.general, "pyramid new", game="pyrinoes")).text
    assert len(await open_games_of(store, alice.id)) == 4
    assert len(harness.threads(emulator.general)) == 1  # bob's solo game only


async def test_challenge_entries_count_towards_the_cap(emulator: Any, harness: Harness) -> None:
    alice = await harness.add_user("alice")
    bob = await harness.add_user("bob")
    await harness.start_bot()
    await harness.slash(bob, emulator.general, "pyramid-admin settings", max_open_games=1)
    challenge = (await harness.slash(alice, emulator.general, "pyramid new", game="continuous-pyramid",
                                     challenge=True)).message
    assert challenge is not None
    await harness.slash(bob, emulator.general, "pyramid new", game="flaming-pyramids")
    refused = await harness.click(bob, challenge, label="▶ Play this deal")
    assert refused.ephemeral and "open games" in refused.text
    entered = await harness.click(alice, challenge, label="▶ Play this deal")
    assert "❌" not in entered.text
    games = [g for g in await harness.bot.services.store.all_games() if g.challenge_id is not None]
    assert [g.created_by for g in games] == [alice.id]
