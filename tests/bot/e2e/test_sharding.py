"""The bot runs Discord's gateway shards, through an emulator that shards like Discord:
guilds on different shards, each played in, with the hands still arriving by DM (DMs
come on shard 0 only)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.ops.health import discord_connected
from emulator.gateway import shard_of
from emulator.harness import Harness
from tests.bot.e2e.driver import boards, play_out, start_flaming


@pytest.fixture
def emulator_options() -> dict[str, Any]:
    """Discord recommends two shards (``/gateway/bot``)."""
    return {"shard_count": 2}


async def play_on_both_shards(emulator: Any, harness: Harness) -> None:
    """A Flaming Pyramids game to its end in a guild on each shard, with pictures of the hands by DM."""
    alice = await harness.add_user("alice")
    bob = await harness.add_user("bob")
    guilds = [await harness.add_guild(f"on shard {k}", members=[alice, bob], shard=k) for k in (0, 1)]
    await harness.start_bot()
    client = harness.bot.client
    assert client.shard_count == 2 and sorted(client.shards) == [0, 1]
    assert discord_connected(client), "healthy only with both shards up"
    for shard, guild in enumerate(guilds):
        assert shard_of(guild.id, 2) == shard
        before = {user.id: len(harness.dm(user)) for user in (alice, bob)}
        channel = harness.channel("general", guild=guild)
        thread, game_id = await start_flaming(emulator, harness, [alice, bob], channel=channel, turn_limit=8)
        final = await play_out(harness, game_id, {0: alice, 1: bob}, thread)
        assert final.result is not None, f"the game on shard {shard} did not finish"
        assert "Game over" in boards(harness, thread)[-1].text
        for user in (alice, bob):
            hands = [m for m in harness.dm(user)[before[user.id]:] if m.png_attachments()]
            assert hands, f"{user.name} got no hand by DM for the game on shard {shard}"


async def test_without_settings_the_bot_runs_every_shard_discord_recommends(
    emulator: Any, harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PYRAMID_SHARD_COUNT", raising=False)
    monkeypatch.delenv("PYRAMID_SHARD_IDS", raising=False)
    await play_on_both_shards(emulator, harness)
    assert harness.bot.services.settings.shard_count is None, "the count came from /gateway/bot"
    assert harness.bot.client.shard_ids is None
    sessions = emulator.gateway.connected_sessions
    assert sorted(s.shard for s in sessions) == [(0, 2), (1, 2)]


async def test_the_shard_settings_are_passed_to_discord(
    emulator: Any, harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYRAMID_SHARD_COUNT", "2")
    monkeypatch.setenv("PYRAMID_SHARD_IDS", "0-1")
    await play_on_both_shards(emulator, harness)
    settings = harness.bot.services.settings
    assert (settings.shard_count, settings.shard_ids) == (2, (0, 1))
    assert harness.bot.client.shard_ids == [0, 1]
    assert sorted(s.shard for s in emulator.gateway.connected_sessions) == [(0, 2), (1, 2)]
