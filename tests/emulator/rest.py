"""REST routes used by a discord.py bot: users, application + commands, guilds, channels, messages, threads, DMs.

(Interaction callbacks and the webhook routes for follow-ups live in :mod:`webhooks`.)
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import limits
from .appctx import emulator_of, json_response
from .errors import (
    CANNOT_EDIT_OTHERS_MESSAGE,
    CANNOT_SEND_MESSAGES_TO_USER,
    MISSING_ACCESS,
    UNKNOWN_APPLICATION_COMMAND,
    UNKNOWN_GUILD,
    APIError,
    not_found,
    unknown_channel,
    unknown_message,
    unknown_user,
)
from .messages import announce_create, announce_update, create_message, delete_message, edit_message, read_body
from .model import GUILD_TEXT, PRIVATE_THREAD, PUBLIC_THREAD, Channel, Command, Guild, Message, now

if TYPE_CHECKING:
    from .server import Emulator

JSON = dict[str, Any]


def ok(data: Any, status: int = 200) -> web.Response:
    return json_response(data, status=status)


def no_content() -> web.Response:
    return web.Response(status=204)


def _int(request: web.Request, key: str) -> int:
    try:
        return int(request.match_info[key])
    except ValueError:
        raise APIError(
            400,
            50035,
            "Invalid Form Body",
            errors={key: {"_errors": [{"code": "NUMBER_TYPE_COERCE", "message": "Value is not snowflake."}]}},
        ) from None


def get_channel(emu: Emulator, request: web.Request) -> Channel:
    channel = emu.world.channels.get(_int(request, "channel_id"))
    if channel is None:
        raise unknown_channel()
    return channel


def get_guild(emu: Emulator, request: web.Request) -> Guild:
    guild = emu.world.guilds.get(_int(request, "guild_id"))
    if guild is None or emu.bot.id not in guild.member_ids:
        raise not_found(UNKNOWN_GUILD, "Guild")
    return guild


def channel_message(emu: Emulator, channel: Channel, message_id: int) -> Message:
    msg = emu.world.messages.get(message_id)
    # ephemeral messages cannot be fetched through channel routes, only through the interaction webhook
    if msg is None or msg.channel_id != channel.id or msg.deleted or msg.ephemeral:
        raise unknown_message()
    return msg


# --- users, application, gateway ----------------------------------------------------------------------------------


async def get_me(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    return ok({**emu.bot.payload(), "verified": True, "mfa_enabled": False, "email": None, "locale": "en-US"})


async def get_user(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    user = emu.world.users.get(_int(request, "user_id"))
    if user is None:
        raise unknown_user()
    return ok(user.payload())


async def create_dm(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    body, _ = await read_body(request)
    user = emu.world.users.get(int(body.get("recipient_id") or 0))
    if user is None or user.bot:
        raise unknown_user()
    channel = emu.world.dm_channel(user)
    assert channel is not None
    return ok(emu.world.channel_payload(channel))


async def get_application(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    world = emu.world
    return ok(
        {
            "id": str(world.application_id),
            "name": world.bot.username,
            "icon": None,
            "description": "Emulated application",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": world.owner.payload(),
            "team": None,
            "flags": 0,
            "bot": world.bot.payload(),
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "approximate_guild_count": len(world.guilds),
            "integration_types_config": {"0": {}},
        }
    )


async def get_gateway(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    return ok({"url": emu.gateway_url})


async def get_gateway_bot(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    limit = {"total": 1000, "remaining": 999, "reset_after": 14400000, "max_concurrency": 1}
    return ok({"url": emu.gateway_url, "shards": 1, "session_start_limit": limit})


# --- application commands -----------------------------------------------------------------------------------------


def _command_scope(emu: Emulator, request: web.Request) -> int | None:
    if _int(request, "application_id") != emu.world.application_id:
        raise APIError(403, MISSING_ACCESS, "Missing Access")
    if "guild_id" in request.match_info:
        guild = emu.world.guilds.get(_int(request, "guild_id"))
        if guild is None or emu.bot.id not in guild.member_ids:
            raise APIError(403, MISSING_ACCESS, "Missing Access")
        return guild.id
    return None


def _scope_commands(emu: Emulator, guild_id: int | None) -> list[Command]:
    return [c for c in emu.world.commands.values() if c.guild_id == guild_id]


def _upsert(emu: Emulator, guild_id: int | None, data: JSON) -> tuple[Command, bool]:
    ctype = int(data.get("type", 1))
    name = str(data.get("name"))
    raw = {k: v for k, v in data.items() if k not in ("id", "application_id", "version", "guild_id")}
    for c in _scope_commands(emu, guild_id):
        if c.name == name and c.type == ctype:
            if c.raw != raw:
                c.raw = raw
                c.version = emu.world.ids.next()
            return c, False
    cmd = Command(emu.world.ids.next(), emu.world.application_id, name, ctype, raw, guild_id=guild_id)
    cmd.version = cmd.id
    emu.world.commands[cmd.id] = cmd
    return cmd, True


def _validate_commands(commands: list[JSON]) -> None:
    problems: list[limits.Problem] = []
    for i, c in enumerate(commands):
        problems += limits.check_command(c, (i,))
    chat = [c for c in commands if c.get("type", 1) == 1]
    if len(chat) > 100:
        problems.append(
            limits.Problem("command-definition", (), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
        )
    seen: set[tuple[str, int]] = set()
    for i, c in enumerate(commands):
        key = (str(c.get("name")), int(c.get("type", 1)))
        if key in seen:
            problems.append(
                limits.Problem(
                    "command-definition",
                    (i, "name"),
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    f"Duplicate command {key[0]!r}",
                )
            )
        seen.add(key)
    if problems:
        raise limits.form_error(problems)


async def list_commands(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    scope = _command_scope(emu, request)
    return ok([c.payload() for c in _scope_commands(emu, scope)])


async def bulk_overwrite_commands(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    scope = _command_scope(emu, request)
    body = json.loads(await request.text() or "[]")
    if not isinstance(body, list):
        raise APIError(400, 50035, "Invalid Form Body")
    _validate_commands(body)
    keep = {_upsert(emu, scope, data)[0].id for data in body}
    for c in _scope_commands(emu, scope):
        if c.id not in keep:
            del emu.world.commands[c.id]
    emu.notify()
    return ok([emu.world.commands[i].payload() for i in sorted(keep)])


async def create_command(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    scope = _command_scope(emu, request)
    body, _ = await read_body(request)
    _validate_commands([body])
    cmd, created = _upsert(emu, scope, body)
    emu.notify()
    return ok(cmd.payload(), status=201 if created else 200)


def _command(emu: Emulator, request: web.Request, scope: int | None) -> Command:
    cmd = emu.world.commands.get(_int(request, "command_id"))
    if cmd is None or cmd.guild_id != scope:
        raise not_found(UNKNOWN_APPLICATION_COMMAND, "application command")
    return cmd


async def get_command(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    return ok(_command(emu, request, _command_scope(emu, request)).payload())


async def edit_command(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    scope = _command_scope(emu, request)
    cmd = _command(emu, request, scope)
    body, _ = await read_body(request)
    raw = {**cmd.raw, **body}
    _validate_commands([{**raw, "name": raw.get("name", cmd.name)}])
    cmd.raw = raw
    cmd.name = str(raw.get("name", cmd.name))
    cmd.version = emu.world.ids.next()
    return ok(cmd.payload())


async def delete_command(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    cmd = _command(emu, request, _command_scope(emu, request))
    del emu.world.commands[cmd.id]
    return no_content()


# --- guilds -------------------------------------------------------------------------------------------------------


async def get_guild_route(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    guild = get_guild(emu, request)
    data = emu.world.guild_payload(guild, all_members=False)
    for key in ("members", "channels", "threads", "presences", "voice_states", "joined_at", "large", "member_count"):
        data.pop(key, None)
    return ok(data)


async def get_guild_channels(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    guild = get_guild(emu, request)
    return ok([emu.world.channel_payload(emu.world.channels[c]) for c in guild.channel_ids])


async def get_member(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    guild = get_guild(emu, request)
    uid = _int(request, "user_id")
    if uid not in guild.member_ids:
        raise not_found(10007, "Member")
    return ok(emu.world.member_payload(guild, emu.world.users[uid]))


async def list_members(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    guild = get_guild(emu, request)
    limit = min(int(request.query.get("limit", 1)), 1000)
    after = int(request.query.get("after", 0))
    ids = sorted(u for u in guild.member_ids if u > after)[:limit]
    return ok([emu.world.member_payload(guild, emu.world.users[u]) for u in ids])


async def active_threads(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    guild = get_guild(emu, request)
    threads = [c for c in emu.world.channels.values() if c.guild_id == guild.id and c.is_thread and not c.archived]
    return ok(
        {
            "threads": [emu.world.channel_payload(t) for t in threads],
            "members": [emu.world.thread_member_payload(t, emu.bot.id) for t in threads if emu.bot.id in t.member_ids],
        }
    )


# --- channels -----------------------------------------------------------------------------------------------------


async def get_channel_route(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    return ok(emu.world.channel_payload(get_channel(emu, request)))


async def edit_channel(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    channel = get_channel(emu, request)
    body, _ = await read_body(request)
    if "name" in body:
        if channel.is_thread:
            _check_thread_name(body["name"])
        channel.name = str(body["name"])
    if "topic" in body and not channel.is_thread:
        channel.topic = body["topic"]
    if channel.is_thread:
        for key in ("archived", "locked", "invitable"):
            if key in body and body[key] is not None:
                setattr(channel, key, bool(body[key]))
        if "archived" in body:
            channel.archive_timestamp = now()
        if body.get("auto_archive_duration"):
            channel.auto_archive_duration = int(body["auto_archive_duration"])
    emu.notify()
    payload = emu.world.channel_payload(channel)
    if channel.guild_id is not None:
        await emu.gateway.dispatch("THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", payload)
    return ok(payload)


async def delete_channel(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    channel = get_channel(emu, request)
    payload = emu.world.channel_payload(channel)
    if channel.is_dm:
        return ok(payload)
    del emu.world.channels[channel.id]
    guild = emu.world.guilds[channel.guild_id or 0]
    if channel.id in guild.channel_ids:
        guild.channel_ids.remove(channel.id)
    emu.notify()
    if channel.is_thread:
        data = {
            "id": str(channel.id),
            "guild_id": str(channel.guild_id),
            "parent_id": str(channel.parent_id),
            "type": channel.type,
        }
        await emu.gateway.dispatch("THREAD_DELETE", data)
    else:
        await emu.gateway.dispatch("CHANNEL_DELETE", payload)
    return ok(payload)


async def trigger_typing(request: web.Request) -> web.Response:
    get_channel(emulator_of(request), request)
    return no_content()


# --- messages -----------------------------------------------------------------------------------------------------


async def list_messages(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    channel = get_channel(emu, request)
    limit = max(1, min(int(request.query.get("limit", 50)), 100))
    msgs = [m for m in emu.world.channel_messages(channel.id) if not m.ephemeral]
    if "before" in request.query:
        msgs = [m for m in msgs if m.id < int(request.query["before"])]
        msgs = msgs[-limit:]
    elif "after" in request.query:
        msgs = [m for m in msgs if m.id > int(request.query["after"])][:limit]
    elif "around" in request.query:
        around = int(request.query["around"])
        older = [m for m in msgs if m.id <= around][-(limit // 2 + 1) :]
        newer = [m for m in msgs if m.id > around][: limit - len(older)]
        msgs = older + newer
    else:
        msgs = msgs[-limit:]
    return ok([emu.world.message_payload(m) for m in reversed(msgs)])


async def get_message(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    channel = get_channel(emu, request)
    return ok(emu.world.message_payload(channel_message(emu, channel, _int(request, "message_id"))))


def _check_dm_open(emu: Emulator, channel: Channel) -> None:
    if channel.is_dm:
        recipient = emu.world.users[channel.recipient_ids[0]]
        if not recipient.dms_open:
            raise APIError(403, CANNOT_SEND_MESSAGES_TO_USER, "Cannot send messages to this user")


async def post_message(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    channel = get_channel(emu, request)
    body, files = await read_body(request)
    _check_dm_open(emu, channel)
    ref = body.get("message_reference")
    msg_type = 0
    if ref and ref.get("message_id"):
        msg_type = 19
        target = emu.world.messages.get(int(ref["message_id"]))
        if target is None and ref.get("fail_if_not_exists", True):
            raise APIError(
                400,
                50035,
                "Invalid Form Body",
                errors={
                    "message_reference": {
                        "_errors": [{"code": "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "message": "Unknown message"}]
                    }
                },
            )
        ref = {"type": 0, "message_id": str(ref["message_id"]), "channel_id": str(channel.id)}
        if channel.guild_id:
            ref["guild_id"] = str(channel.guild_id)
        body["message_reference"] = ref
    msg = create_message(emu, channel, emu.bot, body, files, msg_type=msg_type)
    await announce_create(emu, msg)
    return ok(emu.world.message_payload(msg))


async def patch_message(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    channel = get_channel(emu, request)
    msg = channel_message(emu, channel, _int(request, "message_id"))
    body, files = await read_body(request)
    if msg.author.id != emu.bot.id:
        raise APIError(
            403,
            CANNOT_EDIT_OTHERS_MESSAGE,
            "Cannot edit a message authored by another user",
            rule="message-author",
            detail=f"message {msg.id} by {msg.author.username}",
        )
    edit_message(emu, msg, body, files)
    await announce_update(emu, msg)
    return ok(emu.world.message_payload(msg))


async def delete_message_route(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    channel = get_channel(emu, request)
    msg = channel_message(emu, channel, _int(request, "message_id"))
    await delete_message(emu, msg)
    return no_content()


async def bulk_delete(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    channel = get_channel(emu, request)
    body, _ = await read_body(request)
    for mid in body.get("messages") or []:
        msg = emu.world.messages.get(int(mid))
        if msg is not None and msg.channel_id == channel.id and not msg.deleted:
            await delete_message(emu, msg)
    return no_content()


async def add_reaction(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    channel = get_channel(emu, request)
    msg = channel_message(emu, channel, _int(request, "message_id"))
    msg.reactions.setdefault(request.match_info["emoji"], set()).add(emu.bot.id)
    emu.notify()
    return no_content()


async def remove_reaction(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    channel = get_channel(emu, request)
    msg = channel_message(emu, channel, _int(request, "message_id"))
    msg.reactions.get(request.match_info["emoji"], set()).discard(emu.bot.id)
    emu.notify()
    return no_content()


# --- threads ------------------------------------------------------------------------------------------------------


def _check_thread_name(name: Any) -> None:
    problems: list[limits.Problem] = []
    if not name or len(str(name)) > 100:
        problems.append(
            limits.Problem("thread-name", ("name",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        )
    if problems:
        raise limits.form_error(problems)


def _new_thread(emu: Emulator, parent: Channel, body: JSON, *, thread_id: int | None, default_type: int) -> Channel:
    if parent.type != GUILD_TEXT:
        raise APIError(400, 50024, "Cannot execute action on this channel type")
    _check_thread_name(body.get("name"))
    ttype = int(body.get("type") or default_type)
    if ttype not in (PUBLIC_THREAD, PRIVATE_THREAD):
        raise APIError(
            400,
            50035,
            "Invalid Form Body",
            errors={"type": {"_errors": [{"code": "BASE_TYPE_CHOICES", "message": "Value must be one of {11, 12}."}]}},
        )
    thread = Channel(
        id=thread_id if thread_id is not None else emu.world.ids.next(),
        type=ttype,
        name=str(body["name"]),
        guild_id=parent.guild_id,
        parent_id=parent.id,
        owner_id=emu.bot.id,
        auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
        invitable=bool(body.get("invitable", True)),
        member_ids={emu.bot.id},
    )
    emu.world.channels[thread.id] = thread
    emu.notify()
    return thread


async def _announce_thread(emu: Emulator, thread: Channel) -> JSON:
    payload = emu.world.channel_payload(thread)
    event = {**payload, "newly_created": True, "member": emu.world.thread_member_payload(thread, emu.bot.id)}
    await emu.gateway.dispatch("THREAD_CREATE", event)
    return payload


async def create_thread(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    parent = get_channel(emu, request)
    body, _ = await read_body(request)
    thread = _new_thread(emu, parent, body, thread_id=None, default_type=PRIVATE_THREAD)
    return ok(await _announce_thread(emu, thread), status=201)


async def create_thread_from_message(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    parent = get_channel(emu, request)
    msg = channel_message(emu, parent, _int(request, "message_id"))
    if msg.thread_id is not None:
        raise APIError(400, 160004, "A thread has already been created for this message")
    body, _ = await read_body(request)
    body["type"] = PUBLIC_THREAD
    # a thread started from a message shares the message's id
    thread = _new_thread(emu, parent, body, thread_id=msg.id, default_type=PUBLIC_THREAD)
    thread.starter_message_id = msg.id
    msg.thread_id = thread.id
    payload = await _announce_thread(emu, thread)
    await announce_update(emu, msg)
    return ok(payload, status=201)


def _thread(emu: Emulator, request: web.Request) -> Channel:
    thread = get_channel(emu, request)
    if not thread.is_thread:
        raise APIError(400, 50024, "Cannot execute action on this channel type")
    return thread


async def join_thread(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    thread = _thread(emu, request)
    uid = emu.bot.id if request.match_info.get("user_id", "@me") == "@me" else _int(request, "user_id")
    if uid not in emu.world.users:
        raise unknown_user()
    thread.member_ids.add(uid)
    emu.notify()
    return no_content()


async def leave_thread(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    thread = _thread(emu, request)
    uid = emu.bot.id if request.match_info.get("user_id", "@me") == "@me" else _int(request, "user_id")
    thread.member_ids.discard(uid)
    emu.notify()
    return no_content()


async def thread_members(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    thread = _thread(emu, request)
    return ok([emu.world.thread_member_payload(thread, u) for u in sorted(thread.member_ids)])


async def archived_public_threads(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    parent = get_channel(emu, request)
    threads = [t for t in emu.world.threads_of(parent.id) if t.archived and t.type == PUBLIC_THREAD]
    return ok({"threads": [emu.world.channel_payload(t) for t in threads], "members": [], "has_more": False})


# --- attachments (CDN) --------------------------------------------------------------------------------------------


async def get_attachment_file(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    aid = int(request.match_info["attachment_id"])
    for msg in emu.world.messages.values():
        for a in msg.attachments:
            if a.id == aid:
                return web.Response(body=a.data, content_type=a.content_type or "application/octet-stream")
    return web.Response(status=404, text="Not Found")


# --- registration -------------------------------------------------------------------------------------------------


def register(app: web.Application, prefix: str) -> None:
    r = app.router
    cmd = "/applications/{application_id}/commands"
    gcmd = "/applications/{application_id}/guilds/{guild_id}/commands"
    ch = "/channels/{channel_id}"
    msg = ch + "/messages/{message_id}"
    routes: list[tuple[str, str, Any]] = [
        ("GET", "/users/@me", get_me),
        ("POST", "/users/@me/channels", create_dm),
        ("GET", "/users/{user_id}", get_user),
        ("GET", "/oauth2/applications/@me", get_application),
        ("GET", "/applications/@me", get_application),
        ("GET", "/gateway", get_gateway),
        ("GET", "/gateway/bot", get_gateway_bot),
        ("GET", cmd, list_commands),
        ("PUT", cmd, bulk_overwrite_commands),
        ("POST", cmd, create_command),
        ("GET", cmd + "/{command_id}", get_command),
        ("PATCH", cmd + "/{command_id}", edit_command),
        ("DELETE", cmd + "/{command_id}", delete_command),
        ("GET", gcmd, list_commands),
        ("PUT", gcmd, bulk_overwrite_commands),
        ("POST", gcmd, create_command),
        ("GET", gcmd + "/{command_id}", get_command),
        ("PATCH", gcmd + "/{command_id}", edit_command),
        ("DELETE", gcmd + "/{command_id}", delete_command),
        ("GET", "/guilds/{guild_id}", get_guild_route),
        ("GET", "/guilds/{guild_id}/channels", get_guild_channels),
        ("GET", "/guilds/{guild_id}/members", list_members),
        ("GET", "/guilds/{guild_id}/members/{user_id}", get_member),
        ("GET", "/guilds/{guild_id}/threads/active", active_threads),
        ("GET", ch, get_channel_route),
        ("PATCH", ch, edit_channel),
        ("DELETE", ch, delete_channel),
        ("POST", ch + "/typing", trigger_typing),
        ("GET", ch + "/messages", list_messages),
        ("POST", ch + "/messages", post_message),
        ("POST", ch + "/messages/bulk-delete", bulk_delete),
        ("GET", msg, get_message),
        ("PATCH", msg, patch_message),
        ("DELETE", msg, delete_message_route),
        ("PUT", msg + "/reactions/{emoji}/@me", add_reaction),
        ("DELETE", msg + "/reactions/{emoji}/@me", remove_reaction),
        ("POST", ch + "/threads", create_thread),
        ("POST", msg + "/threads", create_thread_from_message),
        ("GET", ch + "/threads/archived/public", archived_public_threads),
        ("GET", ch + "/thread-members", thread_members),
        ("PUT", ch + "/thread-members/@me", join_thread),
        ("DELETE", ch + "/thread-members/@me", leave_thread),
        ("PUT", ch + "/thread-members/{user_id}", join_thread),
        ("DELETE", ch + "/thread-members/{user_id}", leave_thread),
    ]
    for method, path, handler in routes:
        r.add_route(method, prefix + path, handler)
