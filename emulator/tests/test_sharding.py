"""Sharding as Discord does it: /gateway/bot's shard count, IDENTIFY's shard (4010, 4011), events routed to the shard
that owns their guild ((guild_id >> 22) % shard_count), DMs to shard 0, READY listing only the shard's guilds."""

from __future__ import annotations

from typing import Any, NamedTuple

import discord
import pytest

from bot.config.api_base import configure_api_base
from emulator import BotNotConnected, Emulator, Guild, Harness, HarnessError, User
from emulator.gateway import Session, shard_of
from emulator.harness import BotFactory

from .raw import RawAPI, RawGateway
from .toybot import ShardedToyBot

TWO_SHARDS = pytest.mark.parametrize("emulator_options", [{"shard_count": 2}])
GUILDS_AND_DMS = 1 | 1 << 1 | 1 << 9 | 1 << 12  # GUILDS, GUILD_MEMBERS, GUILD_MESSAGES, DIRECT_MESSAGES


def sharded(emulator: Emulator, **options: Any) -> BotFactory:
    """A factory of toy bots running ``shard_ids=[...]`` of ``shard_count`` (or asking /gateway/bot)."""

    async def make(api_base_url: str, token: str) -> ShardedToyBot:
        configure_api_base(api_base_url)
        return ShardedToyBot(guild_id=emulator.guild.id, **options)

    return make


def guilds_on(emulator: Emulator, shard_id: int, shard_count: int = 2) -> set[int]:
    return {g.id for g in emulator.world.guilds.values() if shard_of(g.id, shard_count) == shard_id}


def session_on(emulator: Emulator, shard: tuple[int, int]) -> Session:
    (session,) = [s for s in emulator.gateway.live_sessions if s.shard == shard]
    return session


def guild_ids(session: Session, event: str) -> list[str | None]:
    return [d.get("guild_id") for d in session.sent(event)]


@pytest.fixture
async def guild_per_shard(harness: Harness, alice: User) -> tuple[Guild, Guild]:
    """A guild on shard 0 and one on shard 1 (of 2), alice a member of both (the emulator's own guild is on one of
    them too)."""
    g0 = await harness.add_guild("shard zero", members=[alice], shard=(0, 2))
    g1 = await harness.add_guild("shard one", members=[alice], shard=(1, 2))
    return g0, g1


@pytest.fixture
async def two_processes(
    emulator: Emulator, harness: Harness, guild_per_shard: tuple[Guild, Guild]
) -> tuple[ShardedToyBot, ShardedToyBot]:
    """Two bots, like two processes of a sharded bot: shard 0 of 2 and shard 1 of 2."""
    zero = await harness.start_extra_bot(sharded(emulator, shard_count=2, shard_ids=[0]))
    one = await harness.start_extra_bot(sharded(emulator, shard_count=2, shard_ids=[1]))
    assert isinstance(zero, ShardedToyBot) and isinstance(one, ShardedToyBot)
    return zero, one


class TwoShards(NamedTuple):
    """A guild on each shard (``g0``, ``g1``) and a bot process on each (``zero``, ``one``)."""

    g0: Guild
    g1: Guild
    zero: ShardedToyBot
    one: ShardedToyBot


@pytest.fixture
def shards(guild_per_shard: tuple[Guild, Guild], two_processes: tuple[ShardedToyBot, ShardedToyBot]) -> TwoShards:
    return TwoShards(*guild_per_shard, *two_processes)


# --- the routing formula and guild ids on chosen shards ----------------------------------------------------------


def test_guild_ids_land_on_the_chosen_shard(emulator: Emulator) -> None:
    for count in (1, 2, 3, 7):
        for shard_id in range(count):
            guild = emulator.world.add_guild(f"g{shard_id}/{count}", shard=(shard_id, count))
            assert (guild.id >> 22) % count == shard_id
    ids = sorted(emulator.world.guilds)
    assert len(set(ids)) == len(ids)
    assert emulator.world.ids.next() > max(ids), "later snowflakes stay above the guilds' ids"


async def test_add_guild_refuses_a_shard_that_does_not_exist(harness: Harness) -> None:
    with pytest.raises(HarnessError, match="no shard 2 of 2"):
        await harness.add_guild("nowhere", shard=(2, 2))
    with pytest.raises(HarnessError, match="no shard 1 of 1"):
        await harness.add_guild("nowhere", shard=1)  # the emulator's shard_count: 1 by default


def test_shard_of_follows_discords_formula() -> None:
    assert shard_of(81384788765712384, 17) == 7  # the example other libraries document
    assert shard_of(None, 5) == 0  # no guild (DMs): shard 0
    assert shard_of(123 << 22, 1) == 0


# --- GET /gateway/bot ----------------------------------------------------------------------------------------------


async def test_gateway_bot_reports_one_shard_by_default(api: RawAPI) -> None:
    status, body = await api.request("GET", "/gateway/bot")
    assert status == 200 and body["shards"] == 1
    assert body["session_start_limit"] == {
        "total": 1000,
        "remaining": 1000,
        "reset_after": 14400000,
        "max_concurrency": 1,
    }


@pytest.mark.parametrize("emulator_options", [{"shard_count": 3}])
async def test_gateway_bot_reports_the_shard_count_and_counts_identifies(
    emulator: Emulator, api: RawAPI, emulator_options: dict[str, Any]
) -> None:
    status, body = await api.request("GET", "/gateway/bot")
    assert status == 200
    assert body["url"] == emulator.gateway_url and body["shards"] == 3
    async with RawGateway(emulator) as gw:
        await gw.identify(shard=[0, 3])
    _, body = await api.request("GET", "/gateway/bot")
    assert body["session_start_limit"]["remaining"] == 999


def test_shard_options_are_checked() -> None:
    with pytest.raises(ValueError, match="shard_count"):
        Emulator(shard_count=0)
    with pytest.raises(ValueError, match="shard_guild_limit"):
        Emulator(shard_guild_limit=0)


# --- IDENTIFY, READY, RESUME (raw protocol) ----------------------------------------------------------------------


@TWO_SHARDS
async def test_ready_lists_only_the_shards_guilds_and_carries_the_shard(
    emulator: Emulator, emulator_options: dict[str, Any], harness: Harness, guild_per_shard: tuple[Guild, Guild]
) -> None:
    for shard_id in (0, 1):
        async with RawGateway(emulator) as gw:
            ready = await gw.identify(shard=[shard_id, 2])
            assert ready["d"]["shard"] == [shard_id, 2]
            listed = {int(g["id"]) for g in ready["d"]["guilds"]}
            assert listed == guilds_on(emulator, shard_id) and listed
            created = [int((await gw.wait_event("GUILD_CREATE"))["d"]["id"]) for _ in listed]
            assert set(created) == listed
    async with RawGateway(emulator) as gw:  # no shard: shard [0, 1], every guild; READY echoes no shard
        ready = await gw.identify()
        assert "shard" not in ready["d"]
        assert {int(g["id"]) for g in ready["d"]["guilds"]} == set(emulator.world.guilds)


@pytest.mark.parametrize("shard", [[2, 2], [-1, 2], [0, 0], [1], [0, 1, 2], "0,1", [True, 2], [0.0, 1], None])
async def test_invalid_shard_closes_4010(emulator: Emulator, shard: object) -> None:
    async with RawGateway(emulator) as gw:
        assert await gw.close_code_after_identify(shard=shard) == 4010
    assert not emulator.gateway.sessions


@pytest.mark.parametrize("emulator_options", [{"shard_count": 2, "shard_guild_limit": 1}])
async def test_too_many_guilds_for_one_session_closes_4011(
    emulator: Emulator, emulator_options: dict[str, Any]
) -> None:
    other = 1 - shard_of(emulator.guild.id, 2)
    emulator.world.add_guild("the other shard's", shard=(other, 2))
    async with RawGateway(emulator) as gw:
        assert await gw.close_code_after_identify() == 4011  # two guilds, one allowed: sharding required
    async with RawGateway(emulator) as gw:
        assert await gw.close_code_after_identify(shard=[0, 1]) == 4011  # one shard of one is no sharding
    for shard_id in (0, 1):
        async with RawGateway(emulator) as gw:
            ready = await gw.identify(shard=[shard_id, 2])
            assert len(ready["d"]["guilds"]) == 1


async def test_no_limit_by_default(emulator: Emulator) -> None:
    for i in range(5):
        emulator.world.add_guild(f"guild {i}")
    async with RawGateway(emulator) as gw:
        ready = await gw.identify()
        assert len(ready["d"]["guilds"]) == 6


@TWO_SHARDS
async def test_events_reach_only_the_shard_that_owns_their_guild(
    emulator: Emulator,
    emulator_options: dict[str, Any],
    harness: Harness,
    alice: User,
    guild_per_shard: tuple[Guild, Guild],
) -> None:
    g0, g1 = guild_per_shard
    async with (
        RawGateway(emulator, intents=GUILDS_AND_DMS) as zero,
        RawGateway(emulator, intents=GUILDS_AND_DMS) as one,
        RawGateway(emulator, intents=GUILDS_AND_DMS) as unsharded,
    ):
        await zero.identify(shard=[0, 2])
        await one.identify(shard=[1, 2])
        await unsharded.identify()
        s0, s1 = session_on(emulator, (0, 2)), session_on(emulator, (1, 2))
        (s_all,) = [s for s in emulator.gateway.live_sessions if s.shard is None]
        for guild in (g0, g1):
            channel = await harness.add_channel("news", guild=guild)
            await harness.add_role("Players", 0, members=[alice], guild=guild)
            await harness.say(alice, channel, "hello")
            await harness.set_bot_permission(channel, "embed_links", False)
        await harness.say(alice, harness.dm_channel(alice), "psst")
        late = await harness.add_guild("late", members=[alice], shard=(1, 2))

        for session, guild in ((s0, g0), (s1, g1)):
            gid = str(guild.id)
            for event in ("CHANNEL_CREATE", "GUILD_ROLE_CREATE", "GUILD_MEMBER_UPDATE", "CHANNEL_UPDATE"):
                assert guild_ids(session, event) == [gid], (session.shard, event)
            assert guild_ids(session, "MESSAGE_CREATE") == [gid] + ([None] if session is s0 else [])
        assert [d["content"] for d in s0.sent("MESSAGE_CREATE")] == ["", "psst"]  # DMs: shard 0 only
        assert [int(d["id"]) for d in s1.sent("GUILD_CREATE")][-1] == late.id
        assert late.id not in [int(d["id"]) for d in s0.sent("GUILD_CREATE")]
        # without a shard, a session is shard [0, 1]: everything
        assert guild_ids(s_all, "MESSAGE_CREATE") == [str(g0.id), str(g1.id), None]
        assert late.id in [int(d["id"]) for d in s_all.sent("GUILD_CREATE")]


@TWO_SHARDS
async def test_resume_keeps_the_shard(
    emulator: Emulator, emulator_options: dict[str, Any], harness: Harness, guild_per_shard: tuple[Guild, Guild]
) -> None:
    g0, g1 = guild_per_shard
    async with RawGateway(emulator) as gw:
        ready = await gw.identify(shard=[1, 2])
        session_id = ready["d"]["session_id"]
        await emulator.gateway.drop_connections()
        while await gw.recv() is not None:  # the GUILD_CREATEs, up to the close
            pass
        seq = max(e["s"] for e in gw.events)
        assert seq == 1 + len(ready["d"]["guilds"])
    await harness.add_channel("missed-zero", guild=g0)
    await harness.add_channel("missed-one", guild=g1)
    async with RawGateway(emulator) as gw2:
        assert (await gw2.recv() or {}).get("op") == 10
        await gw2.send(6, {"token": emulator.token, "session_id": session_id, "seq": seq})
        missed = await gw2.wait_event("CHANNEL_CREATE")
        assert missed["d"]["name"] == "missed-one"
        await gw2.wait_event("RESUMED")
        assert "CHANNEL_CREATE" not in [e["t"] for e in gw2.events]  # shard 0's missed-zero was never its
        session = emulator.gateway.sessions[session_id]
        assert session.shard == (1, 2) and session.resumed == 1
        await harness.add_channel("after-zero", guild=g0)
        await harness.add_channel("after-one", guild=g1)
        created = await gw2.wait_event("CHANNEL_CREATE")
        assert created["d"]["name"] == "after-one"
        assert [d["name"] for d in session.sent("CHANNEL_CREATE")] == ["missed-one", "after-one"]


# --- discord.py clients ------------------------------------------------------------------------------------------


@TWO_SHARDS
async def test_auto_sharded_client_takes_the_count_from_gateway_bot(
    emulator: Emulator, emulator_options: dict[str, Any], harness: Harness, guild_per_shard: tuple[Guild, Guild]
) -> None:
    client = await harness.start_extra_bot(sharded(emulator))  # no shard_count: asks GET /gateway/bot
    assert isinstance(client, ShardedToyBot)
    assert client.shard_count == 2 and sorted(client.shards) == [0, 1]
    assert emulator.requests_to("GET /gateway/bot")
    assert sorted(s.shard for s in emulator.gateway.live_sessions if s.shard) == [(0, 2), (1, 2)]
    assert {g.id for g in client.guilds} == set(emulator.world.guilds)
    for guild in client.guilds:
        assert guild.shard_id == shard_of(guild.id, 2)


@TWO_SHARDS
async def test_each_process_gets_only_its_guilds_and_their_messages(
    emulator: Emulator, emulator_options: dict[str, Any], harness: Harness, alice: User, shards: TwoShards
) -> None:
    g0, g1, zero, one = shards
    assert {g.id for g in zero.guilds} == guilds_on(emulator, 0)
    assert {g.id for g in one.guilds} == guilds_on(emulator, 1)
    assert g0.id in guilds_on(emulator, 0) and g1.id in guilds_on(emulator, 1)
    await harness.say(alice, harness.channel("general", guild=g0), "to shard zero")
    await harness.say(alice, harness.channel("general", guild=g1), "to shard one")
    await harness.say(alice, harness.dm_channel(alice), "a DM")
    assert [(m.guild.id if m.guild else None) for m in zero.seen_messages] == [g0.id, None]
    assert [(m.guild.id if m.guild else None) for m in one.seen_messages] == [g1.id]
    assert isinstance(zero.seen_messages[1].channel, discord.DMChannel)


@TWO_SHARDS
async def test_an_interaction_reaches_only_the_shard_of_its_guild(
    emulator: Emulator, emulator_options: dict[str, Any], harness: Harness, alice: User, shards: TwoShards
) -> None:
    g0, g1, zero, one = shards
    res = await harness.slash(alice, harness.channel("general", guild=g1), "toy echo", text="from shard one")
    assert res.content == "from shard one"
    assert one.seen_interactions == [res.interaction.id] and zero.seen_interactions == []
    board = await harness.slash(alice, harness.channel("general", guild=g1), "toy board")
    clicked = await harness.click(alice, board.message, label="+1")  # type: ignore[arg-type]
    assert clicked.content == "count: 1"
    assert one.seen_interactions[-1] == clicked.interaction.id and zero.seen_interactions == []
    res0 = await harness.slash(alice, harness.channel("general", guild=g0), "toy echo", text="from shard zero")
    assert res0.content == "from shard zero"
    assert zero.seen_interactions == [res0.interaction.id]
    dm = await harness.slash(alice, harness.dm_channel(alice), "toy echo", text="in a DM")
    assert dm.content == "in a DM"
    assert zero.seen_interactions[-1] == dm.interaction.id and dm.interaction.id not in one.seen_interactions


@TWO_SHARDS
async def test_an_interaction_for_a_shard_with_no_bot_fails(
    emulator: Emulator, emulator_options: dict[str, Any], harness: Harness, alice: User, shards: TwoShards
) -> None:
    g0, g1, zero, one = shards
    await harness.stop_extra_bot(one)
    assert [s.shard for s in emulator.gateway.live_sessions] == [(0, 2)]
    with pytest.raises(BotNotConnected, match="shard 1 of 2"):
        await harness.slash(alice, harness.channel("general", guild=g1), "toy echo", text="anyone?")
    res = await harness.slash(alice, harness.channel("general", guild=g0), "toy echo", text="shard zero lives")
    assert res.content == "shard zero lives"
    await harness.stop_extra_bot(zero)
    with pytest.raises(BotNotConnected):
        await harness.slash(alice, harness.dm_channel(alice), "toy echo", text="anyone?")


@TWO_SHARDS
async def test_dms_need_shard_zero(
    emulator: Emulator, emulator_options: dict[str, Any], harness: Harness, alice: User
) -> None:
    await harness.start_extra_bot(sharded(emulator, shard_count=2, shard_ids=[1]))
    with pytest.raises(BotNotConnected, match="DMs"):
        await harness.slash(alice, harness.dm_channel(alice), "toy echo", text="hello?")


@TWO_SHARDS
async def test_two_processes_resume_on_their_shards(
    emulator: Emulator, emulator_options: dict[str, Any], harness: Harness, alice: User, shards: TwoShards
) -> None:
    _, g1, zero, one = shards
    sessions = {s.shard: s.id for s in emulator.gateway.live_sessions}
    await emulator.gateway.drop_connections()
    res = await harness.slash(alice, harness.channel("general", guild=g1), "toy echo", text="after the drop")
    assert res.content == "after the drop"
    assert one.seen_interactions == [res.interaction.id] and zero.seen_interactions == []
    assert {s.shard: s.id for s in emulator.gateway.connected_sessions} == sessions
    assert all(s.resumed == 1 and s.identified == 1 for s in emulator.gateway.live_sessions)
    channel = await harness.add_channel("fresh", guild=g1)
    await harness.sync_gateway()  # waits for both processes' websockets
    assert one.get_channel(channel.id) is not None and zero.get_channel(channel.id) is None


async def _refused(harness: Harness, factory: BotFactory) -> int:
    with pytest.raises(HarnessError, match="stopped during startup") as caught:
        await harness.start_extra_bot(factory)
    cause = caught.value.__cause__
    assert isinstance(cause, discord.ConnectionClosed), cause
    return int(cause.code)


async def test_discord_py_with_an_invalid_shard_is_refused_4010(emulator: Emulator, harness: Harness) -> None:
    assert await _refused(harness, sharded(emulator, shard_count=2, shard_ids=[2])) == 4010
    assert not emulator.gateway.live_sessions and harness.bots == []


@pytest.mark.parametrize("emulator_options", [{"shard_guild_limit": 1}])
async def test_discord_py_must_shard_past_the_limit_4011(
    emulator: Emulator, emulator_options: dict[str, Any], harness: Harness
) -> None:
    other = 1 - shard_of(emulator.guild.id, 2)
    await harness.add_guild("second", shard=(other, 2))

    async def plain(api_base_url: str, token: str) -> discord.Client:
        configure_api_base(api_base_url)
        return discord.Client(intents=discord.Intents.default())

    assert await _refused(harness, plain) == 4011
    both = sharded(emulator, shard_count=2, shard_ids=[0, 1])
    client = await harness.start_extra_bot(both)
    assert isinstance(client, ShardedToyBot) and len(client.guilds) == 2


async def test_one_bot_without_sharding_still_gets_everything(
    emulator: Emulator, harness: Harness, alice: User
) -> None:
    """The default (shard_count 1, no limit): the harness's usual bot sees every guild and DM."""
    second = await harness.add_guild("second", members=[alice], shard=(1, 2))
    client = await harness.start_extra_bot(sharded(emulator, shard_count=1, shard_ids=[0]))
    assert isinstance(client, ShardedToyBot)
    assert {g.id for g in client.guilds} == {emulator.guild.id, second.id}
    await harness.say(alice, harness.channel("general", guild=second), "hi")
    await harness.say(alice, harness.dm_channel(alice), "hi there")
    assert len(client.seen_messages) == 2
