"""Gateway: HELLO/IDENTIFY/READY/GUILD_CREATE, compression, heartbeats, RESUME, RECONNECT, INVALID_SESSION."""

from __future__ import annotations

import asyncio

import discord
import pytest

from bot.config.api_base import configure_api_base
from emulator import BotNotConnected, Emulator, Harness, User

from .raw import RawGateway
from .toybot import ToyBot


async def _until(predicate: object, timeout: float = 3.0) -> None:
    async with asyncio.timeout(timeout):
        while not predicate():  # type: ignore[operator]
            await asyncio.sleep(0.01)


async def test_identify_ready_guild_create_with_sequence_numbers(emulator: Emulator) -> None:
    async with RawGateway(emulator) as gw:
        ready = await gw.identify()
        assert ready["s"] == 1
        assert ready["d"]["user"]["id"] == str(emulator.bot.id)
        assert ready["d"]["guilds"] == [{"id": str(emulator.guild.id), "unavailable": True}]
        assert ready["d"]["resume_gateway_url"] == emulator.gateway_url
        guild = await gw.wait_event("GUILD_CREATE")
        assert guild["s"] == 2
        assert [c["name"] for c in guild["d"]["channels"]] == ["general"]
        await gw.send(1, 2)
        ack = await gw.recv()
        assert ack is not None and ack["op"] == 11
        assert emulator.gateway.connections and next(iter(emulator.gateway.connections)).heartbeats == 1


async def test_zlib_stream_compression(emulator: Emulator) -> None:
    async with RawGateway(emulator, compress=True) as gw:
        await gw.identify()
        await gw.wait_event("GUILD_CREATE")
        assert gw.binary_frames >= 3  # HELLO, READY, GUILD_CREATE all deflated on one shared stream


async def test_discord_py_asks_for_compression_and_gets_it(emulator: Emulator, bot: Harness) -> None:
    assert emulator.gateway.compressions_requested == ["zlib-stream"]
    (conn,) = emulator.gateway.connections
    assert conn.compress == "zlib-stream"


async def test_bad_token_closes_4004(emulator: Emulator) -> None:
    async with RawGateway(emulator, token="nope") as gw:
        hello = await gw.recv()
        assert hello is not None and hello["op"] == 10
        await gw.send(2, {"token": "nope", "intents": 0, "properties": {}})
        assert await gw.recv() is None
        assert gw.ws is not None and gw.ws.close_code == 4004


async def test_unknown_opcode_closes_4001(emulator: Emulator) -> None:
    async with RawGateway(emulator) as gw:
        await gw.identify()
        await gw.send(42, None)
        while await gw.recv() is not None:
            pass
        assert gw.ws is not None and gw.ws.close_code == 4001


async def test_resume_replays_events_missed_while_disconnected(emulator: Emulator) -> None:
    async with RawGateway(emulator) as gw:
        ready = await gw.identify()
        await gw.wait_event("GUILD_CREATE")
        session_id = ready["d"]["session_id"]
        await emulator.gateway.drop_connections()
        assert await gw.recv() is None
        await emulator.gateway.dispatch("CHANNEL_UPDATE", {"id": "1", "missed": True})
    async with RawGateway(emulator) as gw2:
        assert (await gw2.recv() or {}).get("op") == 10
        await gw2.send(6, {"token": emulator.token, "session_id": session_id, "seq": 2})
        missed = await gw2.wait_event("CHANNEL_UPDATE")
        assert missed["s"] == 3 and missed["d"]["missed"]
        resumed = await gw2.wait_event("RESUMED")
        assert resumed["s"] == 4
    assert emulator.gateway.sessions[session_id].replayed == 1


async def test_clean_close_ends_the_session(emulator: Emulator) -> None:
    async with RawGateway(emulator) as gw:
        ready = await gw.identify()
        session_id = ready["d"]["session_id"]
    await _until(lambda: not emulator.gateway.sessions[session_id].alive)  # the client closed with 1000
    async with RawGateway(emulator) as gw2:
        assert (await gw2.recv() or {}).get("op") == 10
        await gw2.send(6, {"token": emulator.token, "session_id": session_id, "seq": 2})
        invalid = await gw2.recv()
        assert invalid is not None and invalid["op"] == 9 and invalid["d"] is False


async def test_client_resumes_after_dropped_connection_and_gets_buffered_events(
    emulator: Emulator, alice: User, bot: Harness
) -> None:
    (session,) = emulator.gateway.connected_sessions
    await emulator.gateway.drop_connections()
    assert session.connection is None and session.alive
    # dispatched while the bot is disconnected: buffered, replayed on RESUME
    res = await bot.slash(alice, emulator.general, "toy echo", text="missed me?")
    assert res.content == "missed me?"
    assert session.resumed == 1 and session.replayed >= 1
    assert emulator.gateway.connected_sessions == [session]
    assert session.identified == 1


async def test_reconnect_opcode_leads_to_resume(emulator: Emulator, alice: User, bot: Harness) -> None:
    (session,) = emulator.gateway.connected_sessions
    await emulator.gateway.request_reconnect()
    await _until(lambda: session.resumed == 1 and session.connection is not None)
    res = await bot.slash(alice, emulator.general, "toy echo", text="still here")
    assert res.content == "still here"


async def test_invalid_session_leads_to_new_identify(emulator: Emulator, alice: User, bot: Harness) -> None:
    (old,) = emulator.gateway.connected_sessions
    await emulator.gateway.invalidate_sessions(resumable=False)
    await _until(
        lambda: len(emulator.gateway.connected_sessions) == 1 and emulator.gateway.connected_sessions[0] is not old
    )
    assert not old.alive
    res = await bot.slash(alice, emulator.general, "toy echo", text="new session")
    assert res.content == "new session"


async def test_heartbeats_are_acknowledged(emulator: Emulator, harness: Harness) -> None:
    emulator.heartbeat_interval = 0.05
    emulator.heartbeat_ack_delay = 0.01  # a round trip well inside the interval
    await harness.start_bot()
    (conn,) = emulator.gateway.connections
    await _until(lambda: conn.heartbeats >= 3)
    client = harness.bot
    assert isinstance(client, discord.Client)
    assert client.latency < 1.0
    assert conn.session is not None and conn.last_heartbeat_seq == conn.session.seq


async def test_wrong_token_is_a_login_failure(emulator: Emulator) -> None:
    configure_api_base(emulator.base_url)
    client = ToyBot(guild_id=emulator.guild.id)
    try:
        with pytest.raises(discord.LoginFailure):
            await client.login("not-the-token")
    finally:
        await client.close()
        configure_api_base(None)


async def test_no_bot_no_interactions(emulator: Emulator, harness: Harness, alice: User) -> None:
    await harness.start_bot()
    await harness.stop_bot()
    assert not emulator.gateway.live_sessions
    with pytest.raises(BotNotConnected):
        await harness.slash(alice, emulator.general, "toy echo", text="x")
