"""The gateway websocket: HELLO, IDENTIFY/READY/GUILD_CREATE, heartbeats, RESUME, dispatch with sequence numbers.

discord.py 2.7 connects to ``<gateway>?v=10&encoding=json&compress=zlib-stream`` (``zstd-stream`` when a zstd module
is installed). zlib-stream is honoured (one shared deflate context per connection, each message ending in a
Z_SYNC_FLUSH marker); for any other requested compression the emulator sends plain text frames, which the client
also accepts.

Sessions outlive connections: a connection that drops without a clean close (client code 4000, server-side drop,
RECONNECT) keeps its session, events dispatched meanwhile are buffered, and RESUME replays them.

Sharding, as Discord routes it: IDENTIFY may carry ``shard: [shard_id, shard_count]`` (``0 <= shard_id <
shard_count``, else close 4010); a guild's events go only to the sessions whose shard owns it, ``(guild_id >> 22) %
shard_count == shard_id``, each session using its own ``shard_count``; events without a guild (DMs) go to shard 0
only. A session that sent no ``shard`` is shard [0, 1]: it receives everything. With ``Emulator(shard_guild_limit=N)``
a session that would handle more than N guilds is closed with 4011 (sharding required).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging
import secrets
import zlib
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .logins import LoginLimits
    from .model import World

_log = logging.getLogger(__name__)

JSON = dict[str, Any]

# opcodes
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE_UPDATE, VOICE_STATE = 0, 1, 2, 3, 4
RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 6, 7, 8, 9, 10, 11

# intents
GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_PRESENCES = 1 << 8
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15

# close codes the emulator may send
UNKNOWN_OPCODE, DECODE_ERROR, NOT_AUTHENTICATED, AUTHENTICATION_FAILED, ALREADY_AUTHENTICATED = (
    4001,
    4002,
    4003,
    4004,
    4005,
)
INVALID_SHARD, SHARDING_REQUIRED = 4010, 4011

#: Events whose payload is the guild itself: its ``id`` is the guild id that routes them.
GUILD_OBJECT_EVENTS = frozenset({"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"})

EVENT_INTENTS: dict[str, int] = {
    "GUILD_CREATE": GUILDS,
    "CHANNEL_CREATE": GUILDS,
    "CHANNEL_UPDATE": GUILDS,
    "CHANNEL_DELETE": GUILDS,
    "THREAD_CREATE": GUILDS,
    "THREAD_UPDATE": GUILDS,
    "THREAD_DELETE": GUILDS,
    "THREAD_MEMBERS_UPDATE": GUILDS,
    "GUILD_ROLE_CREATE": GUILDS,
    "GUILD_ROLE_UPDATE": GUILDS,
    "GUILD_ROLE_DELETE": GUILDS,
    "GUILD_MEMBER_ADD": GUILD_MEMBERS,
    "GUILD_MEMBER_UPDATE": GUILD_MEMBERS,
    "GUILD_MEMBER_REMOVE": GUILD_MEMBERS,
}


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard that receives a guild's events (Discord's formula); events without a guild go to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


def event_guild_id(event: str, data: JSON) -> int | None:
    """The guild an event belongs to, as Discord routes it: its ``guild_id`` (the guild's own ``id`` for
    GUILD_CREATE/UPDATE/DELETE); None (DMs and other guild-less events) routes to shard 0."""
    raw = data.get("id") if event in GUILD_OBJECT_EVENTS else data.get("guild_id")
    return int(raw) if raw is not None else None


def parse_shard(value: Any) -> tuple[int, int] | None:
    """IDENTIFY's ``shard`` as (shard_id, shard_count), or None when it is not two integers with
    ``0 <= shard_id < shard_count``."""
    if not isinstance(value, list) or len(value) != 2:
        return None
    shard_id, shard_count = value
    if any(isinstance(v, bool) or not isinstance(v, int) for v in value):
        return None
    if not 0 <= shard_id < shard_count:
        return None
    return shard_id, shard_count


@dataclass
class Session:
    id: str
    intents: int
    #: (shard_id, shard_count) from IDENTIFY; None if it sent none, which routes like (0, 1): every event
    shard: tuple[int, int] | None = None
    seq: int = 0
    buffer: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=2000))
    connection: Connection | None = None
    alive: bool = True
    identified: int = 0
    resumed: int = 0
    replayed: int = 0

    def wants(self, event: str, *, dm: bool = False) -> bool:
        if event.startswith("MESSAGE_"):
            return bool(self.intents & (DIRECT_MESSAGES if dm else GUILD_MESSAGES))
        need = EVENT_INTENTS.get(event, 0)
        return not need or bool(self.intents & need)

    def owns(self, guild_id: int | None) -> bool:
        """Whether this session's shard receives the events of ``guild_id`` (None: DMs, shard 0's)."""
        shard_id, shard_count = self.shard or (0, 1)
        return shard_of(guild_id, shard_count) == shard_id

    def sent(self, event: str) -> list[JSON]:
        """The payloads of the ``event`` dispatches still in the replay buffer (the latest 2000 events), for tests
        that check which session received what."""
        out: list[JSON] = []
        for _, text in self.buffer:
            payload = json.loads(text)
            if payload["t"] == event:
                out.append(payload["d"])
        return out


class Connection:
    def __init__(self, ws: web.WebSocketResponse, compress: str | None) -> None:
        self.ws = ws
        self.compress = compress
        self._deflate = zlib.compressobj() if compress == "zlib-stream" else None
        self.session: Session | None = None
        self.heartbeats = 0
        self.last_heartbeat_seq: int | None = None
        self.closed_by_server = False
        self._lock = asyncio.Lock()
        #: Heartbeat acknowledgements on their way (``Gateway._ack_later``).
        self.acks: set[asyncio.Task[None]] = set()

    async def send_raw(self, text: str) -> None:
        async with self._lock:
            if self.ws.closed:
                return
            if self._deflate is not None:
                data = self._deflate.compress(text.encode()) + self._deflate.flush(zlib.Z_SYNC_FLUSH)
                await self.ws.send_bytes(data)
            else:
                await self.ws.send_str(text)

    async def send(self, op: int, d: Any, *, t: str | None = None, s: int | None = None) -> None:
        await self.send_raw(json.dumps({"op": op, "d": d, "s": s, "t": t}))

    async def close(self, code: int, message: str = "") -> None:
        self.closed_by_server = True
        if self.session is not None and self.session.connection is self:
            self.session.connection = None  # events from now on are buffered for a RESUME
        await self.ws.close(code=code, message=message.encode())


class GatewayHost(Protocol):
    """What the gateway reads of the emulator that owns it (``server.Emulator``). Declared here, below the
    server, so the gateway does not import the server that builds it."""

    world: World
    token: str
    heartbeat_interval: float
    heartbeat_ack_delay: float
    shard_guild_limit: int | None
    #: Discord's login limits on IDENTIFY (``logins.py``).
    logins: LoginLimits

    @property
    def gateway_url(self) -> str: ...

    def now(self) -> dt.datetime: ...

    def notify(self) -> None: ...


class Gateway:
    def __init__(self, emulator: GatewayHost) -> None:
        self.emu = emulator
        self.sessions: dict[str, Session] = {}
        self.connections: set[Connection] = set()
        self.compressions_requested: list[str | None] = []
        self.identifies = 0  # successful IDENTIFYs
        self._ready_waiters: list[asyncio.Future[Session]] = []

    # --- the websocket endpoint ---------------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        compress = request.query.get("compress")
        self.compressions_requested.append(compress)
        conn = Connection(ws, compress)
        self.connections.add(conn)
        try:
            interval_ms = int(self.emu.heartbeat_interval * 1000)
            await conn.send(HELLO, {"heartbeat_interval": interval_ms, "_trace": ["emulator"]})
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    try:
                        payload = json.loads(msg.data)
                    except ValueError:
                        await conn.close(DECODE_ERROR, "Error while decoding payload.")
                        break
                    await self._on_message(conn, payload)
                elif msg.type in (WSMsgType.ERROR, WSMsgType.CLOSE):
                    break
        finally:
            self.connections.discard(conn)
            for ack in list(conn.acks):  # nobody left to acknowledge
                ack.cancel()
            session = conn.session
            if session is not None and session.connection is conn:
                session.connection = None
                # A clean close by the client (1000/1001) ends the session; anything else may be resumed.
                if not conn.closed_by_server and ws.close_code in (1000, 1001):
                    session.alive = False
            self.emu.notify()
        return ws

    async def _ack_later(self, conn: Connection) -> None:
        """Acknowledge a heartbeat after ``Emulator.heartbeat_ack_delay``, the round trip Discord never lacks.
        discord.py's keep-alive thread notes when it sent a heartbeat only once the send is done; an
        acknowledgement that arrives before that thread runs again (at once, from this machine) is
        measured from the previous heartbeat: ``client.latency`` is then the whole interval, and
        ``bot.log`` says "Can't keep up, shard ID None websocket is 41.3s behind" at every beat."""
        await asyncio.sleep(self.emu.heartbeat_ack_delay)
        await conn.send(HEARTBEAT_ACK, None)

    async def _on_message(self, conn: Connection, payload: JSON) -> None:
        op, d = payload.get("op"), payload.get("d")
        if op == HEARTBEAT:
            conn.heartbeats += 1
            conn.last_heartbeat_seq = d
            if self.emu.heartbeat_ack_delay > 0:  # after a round trip's time, as Discord (see _ack_later)
                task = asyncio.get_running_loop().create_task(self._ack_later(conn))
                conn.acks.add(task)
                task.add_done_callback(conn.acks.discard)
            else:
                await conn.send(HEARTBEAT_ACK, None)
        elif op == IDENTIFY:
            await self._identify(conn, d or {})
        elif op == RESUME:
            await self._resume(conn, d or {})
        elif op == REQUEST_MEMBERS:
            await self._request_members(conn, d or {})
        elif op in (PRESENCE_UPDATE, VOICE_STATE):
            pass
        else:
            await conn.close(UNKNOWN_OPCODE, "Unknown opcode.")

    async def _identify(self, conn: Connection, d: JSON) -> None:
        if conn.session is not None:
            await conn.close(ALREADY_AUTHENTICATED, "Already authenticated.")
            return
        if d.get("token") != self.emu.token:
            await conn.close(AUTHENTICATION_FAILED, "Authentication failed.")
            return
        shard = parse_shard(d["shard"]) if "shard" in d else None
        if "shard" in d and shard is None:
            await conn.close(INVALID_SHARD, "Invalid shard.")
            return
        session = Session(secrets.token_hex(16), intents=int(d.get("intents") or 0), shard=shard)
        world = self.emu.world
        guilds = [g for g in world.guilds.values() if world.bot.id in g.member_ids and session.owns(g.id)]
        limit = self.emu.shard_guild_limit
        if limit is not None and len(guilds) > limit:
            await conn.close(SHARDING_REQUIRED, "Sharding required.")
            return
        refused = self.emu.logins.admit(shard, asyncio.get_running_loop().time(), self.emu.now())
        if refused == "concurrency":  # Discord: "the Gateway will respond with an Invalid Session (opcode 9)"
            await conn.send(INVALID_SESSION, False)
            return
        if refused == "starts":  # the day's session starts are spent: Discord resets the token
            await self.reset_token()
            await conn.close(AUTHENTICATION_FAILED, "Authentication failed.")
            return
        session.identified += 1
        self.identifies += 1
        self.sessions[session.id] = session
        conn.session = session
        session.connection = conn
        ready: JSON = {
            "v": 10,
            "user": world.bot.payload(),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.emu.gateway_url,
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "application": {"id": str(world.application_id), "flags": 0},
            "_trace": ["emulator"],
        }
        if shard is not None:
            ready["shard"] = list(shard)
        await self.send_event(session, "READY", ready)
        for g in guilds:
            all_members = bool(session.intents & GUILD_PRESENCES)
            await self.send_event(session, "GUILD_CREATE", world.guild_payload(g, all_members=all_members))
        for fut in self._ready_waiters:
            if not fut.done():
                fut.set_result(session)
        self._ready_waiters.clear()

    async def _resume(self, conn: Connection, d: JSON) -> None:
        session = self.sessions.get(str(d.get("session_id")))
        if session is None or not session.alive or d.get("token") != self.emu.token:
            await conn.send(INVALID_SESSION, False)
            return
        if session.connection is not None and session.connection is not conn:
            await session.connection.close(4000, "Session resumed elsewhere.")
        conn.session = session
        session.connection = conn
        session.resumed += 1
        last = d.get("seq") or 0
        for seq, text in list(session.buffer):
            if seq > last:
                session.replayed += 1
                await conn.send_raw(text)
        await self.send_event(session, "RESUMED", {"_trace": ["emulator"]})

    async def _request_members(self, conn: Connection, d: JSON) -> None:
        session = conn.session
        if session is None:
            await conn.close(NOT_AUTHENTICATED, "Not authenticated.")
            return
        world = self.emu.world
        guild = world.guilds.get(int(d.get("guild_id") or 0))
        if guild is None:
            return
        ids = d.get("user_ids")
        members = [world.users[u] for u in guild.member_ids if ids is None or str(u) in map(str, ids)]
        query = d.get("query") or ""
        members = [u for u in members if u.username.startswith(query)]
        if d.get("limit"):
            members = members[: int(d["limit"])]
        chunk: JSON = {
            "guild_id": str(guild.id),
            "members": [world.member_payload(guild, u) for u in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if d.get("nonce") is not None:
            chunk["nonce"] = d["nonce"]
        await self.send_event(session, "GUILD_MEMBERS_CHUNK", chunk)

    # --- dispatch -----------------------------------------------------------------------------------------------

    async def send_event(self, session: Session, event: str, data: JSON) -> None:
        session.seq += 1
        text = json.dumps({"op": DISPATCH, "d": data, "s": session.seq, "t": event})
        session.buffer.append((session.seq, text))
        conn = session.connection
        if conn is not None:
            await conn.send_raw(text)

    async def dispatch(self, event: str, data: JSON, *, dm: bool = False, privileged_content: bool = False) -> int:
        """Send an event to every live bot session whose shard owns its guild (``event_guild_id``; DMs: shard 0),
        buffered for sessions that are between connections.

        ``privileged_content``: the message's content/embeds/attachments/components reach only sessions with the
        MESSAGE_CONTENT intent. Returns the number of sessions the event went to."""
        sent = 0
        for session in self.sessions_for(event_guild_id(event, data)):
            if session.wants(event, dm=dm):
                payload = data
                if privileged_content and not session.intents & MESSAGE_CONTENT:
                    payload = {**data, "content": "", "embeds": [], "attachments": [], "components": []}
                await self.send_event(session, event, payload)
                sent += 1
        return sent

    # --- controls for tests -------------------------------------------------------------------------------------

    @property
    def live_sessions(self) -> list[Session]:
        return [s for s in self.sessions.values() if s.alive]

    @property
    def connected_sessions(self) -> list[Session]:
        return [s for s in self.sessions.values() if s.alive and s.connection is not None]

    def sessions_for(self, guild_id: int | None) -> list[Session]:
        """The live sessions whose shard receives ``guild_id``'s events (None: DMs, shard 0)."""
        return [s for s in self.sessions.values() if s.alive and s.owns(guild_id)]

    def wait_identify(self) -> asyncio.Future[Session]:
        fut: asyncio.Future[Session] = asyncio.get_running_loop().create_future()
        self._ready_waiters.append(fut)
        return fut

    async def drop_connections(self, code: int = 4000) -> None:
        """Close every bot connection as a network blip would: sessions stay resumable."""
        for conn in list(self.connections):
            await conn.close(code, "Emulator dropped the connection.")

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: the client closes and RESUMEs."""
        for conn in list(self.connections):
            await conn.send(RECONNECT, None)

    async def invalidate_sessions(self, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION: with ``resumable=False`` the client must IDENTIFY again."""
        for conn in list(self.connections):
            if conn.session is not None and not resumable:
                conn.session.alive = False
            await conn.send(INVALID_SESSION, resumable)

    async def reset_token(self) -> None:
        """What Discord does when a bot's session starts for the day are spent: the token is reset (the old one
        is refused from now on, by REST and the gateway) and every active session is terminated (4004)."""
        self.emu.token = "reset." + secrets.token_hex(12)
        for session in self.sessions.values():
            session.alive = False
        for conn in list(self.connections):
            if conn.session is not None:
                await conn.close(AUTHENTICATION_FAILED, "Authentication failed.")
        self.emu.notify()

    async def close(self) -> None:
        for conn in list(self.connections):
            await conn.close(1001, "Emulator shutting down.")
