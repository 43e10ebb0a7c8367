"""REST routes used by a discord.py bot: users, application + commands, guilds, channels, messages, threads, DMs.

(Interaction callbacks and the webhook routes for follow-ups live in :mod:`webhooks`.) Channel routes act as the bot
user: each checks what Discord documents for it (VIEW_CHANNEL → 50001, the route's permission → 50013, thread state
→ 50083/160005, see :mod:`access`) before the body rules of :mod:`limits`.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import access, installs, limits
from . import permissions as P
from .appctx import emulator_of, json_response
from .errors import (
    CANNOT_EDIT_OTHERS_MESSAGE,
    CANNOT_EXECUTE_ON_SYSTEM_MESSAGE,
    CANNOT_SEND_MESSAGES_TO_USER,
    MISSING_ACCESS,
    THREAD_ALREADY_CREATED,
    UNKNOWN_APPLICATION_COMMAND,
    UNKNOWN_GUILD,
    APIError,
    missing_permissions,
    not_found,
    thread_archived,
    thread_locked,
    unknown_channel,
    unknown_message,
    unknown_user,
    wrong_channel_type,
)
from .messages import announce_create, announce_update, create_message, delete_message, edit_message, read_body
from .model import (
    GUILD_TEXT,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    THREAD_ARCHIVE_DURATIONS,
    Channel,
    Command,
    Guild,
    Message,
)

if TYPE_CHECKING:
    from .appctx import EmulatorContext

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


def get_channel(emu: EmulatorContext, request: web.Request) -> Channel:
    channel = emu.world.channels.get(_int(request, "channel_id"))
    if channel is None:
        raise unknown_channel()
    return channel


def get_guild(emu: EmulatorContext, request: web.Request) -> Guild:
    guild = emu.world.guilds.get(_int(request, "guild_id"))
    if guild is None or emu.bot.id not in guild.member_ids:
        raise not_found(UNKNOWN_GUILD, "Guild")
    return guild


def channel_message(emu: EmulatorContext, channel: Channel, message_id: int) -> Message:
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
            "integration_types_config": {str(kind): {} for kind in sorted(world.app_integration_types)},
        }
    )


async def get_gateway(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    return ok({"url": emu.gateway_url})


#: IDENTIFYs allowed per day (gateway.mdx); the emulator counts them but does not refuse the 1001st.
SESSION_START_TOTAL = 1000


async def get_gateway_bot(request: web.Request) -> web.Response:
    """The recommended shard count (``Emulator(shard_count=...)``) and the session start limit, which counts the
    IDENTIFYs so far against Discord's daily 1000 (``max_concurrency`` 1: one IDENTIFY per 5 seconds, as for
    any bot below large-bot sharding)."""
    emu = emulator_of(request)
    limit = {
        "total": SESSION_START_TOTAL,
        "remaining": max(0, SESSION_START_TOTAL - emu.gateway.identifies),
        "reset_after": 14400000,
        "max_concurrency": 1,
    }
    return ok({"url": emu.gateway_url, "shards": emu.shard_count, "session_start_limit": limit})


# --- application commands -----------------------------------------------------------------------------------------


def _command_scope(emu: EmulatorContext, request: web.Request) -> int | None:
    if _int(request, "application_id") != emu.world.application_id:
        raise APIError(403, MISSING_ACCESS, "Missing Access")
    if "guild_id" in request.match_info:
        guild = emu.world.guilds.get(_int(request, "guild_id"))
        if guild is None or emu.bot.id not in guild.member_ids:
            raise APIError(403, MISSING_ACCESS, "Missing Access")
        return guild.id
    return None


def _scope_commands(emu: EmulatorContext, guild_id: int | None) -> list[Command]:
    return [c for c in emu.world.commands.values() if c.guild_id == guild_id]


def _upsert(emu: EmulatorContext, guild_id: int | None, data: JSON) -> tuple[Command, bool]:
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


def _validate_commands(emu: EmulatorContext, commands: list[Any], *, guild: bool, single: bool = False) -> None:
    """A bulk overwrite's commands (errors under their index), or one command (``single``: errors at the top); the
    installation contexts the app supports; in strict mode no deprecated field."""
    if single:
        if not isinstance(commands[0], dict):
            raise APIError(400, 50035, "Invalid Form Body")
        problems = limits.check_command(commands[0], guild=guild)
    else:
        problems = limits.check_command_set(commands, guild=guild)
    problems += installs.check_command_installs(emu.world, commands, single=single, strict=emu.strict)
    if problems:
        raise limits.form_error(problems)


async def list_commands(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    scope = _command_scope(emu, request)
    return ok([c.payload() for c in _scope_commands(emu, scope)])


async def bulk_overwrite_commands(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    scope = _command_scope(emu, request)
    try:
        body = json.loads(await request.text() or "[]")
    except ValueError:
        raise APIError(400, 50109, "The request body contains invalid JSON.") from None
    if not isinstance(body, list):
        raise limits.form_error(
            [limits.Problem("command-definition", (), "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")]
        )
    _validate_commands(emu, body, guild=scope is not None)
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
    _validate_commands(emu, [body], guild=scope is not None, single=True)
    known = {(c.name, c.type) for c in _scope_commands(emu, scope)}
    ctype = int(body.get("type", 1))
    if (str(body.get("name")), ctype) not in known:
        count = sum(1 for c in _scope_commands(emu, scope) if c.type == ctype)
        limit = limits.COMMAND_LIMITS.get(ctype, 100)
        if count >= limit:
            raise limits.form_error(
                [
                    limits.Problem(
                        "command-count",
                        (),
                        "APPLICATION_COMMANDS_TOO_MANY",
                        f"Maximum number of application commands of type {ctype} reached ({limit})",
                    )
                ]
            )
    cmd, created = _upsert(emu, scope, body)
    emu.notify()
    return ok(cmd.payload(), status=201 if created else 200)


def _command(emu: EmulatorContext, request: web.Request, scope: int | None) -> Command:
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
    _validate_commands(
        emu, [{**raw, "name": raw.get("name", cmd.name), "type": cmd.type}], guild=scope is not None, single=True
    )
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
    threads = [
        c
        for c in emu.world.channels.values()
        if c.guild_id == guild.id and c.is_thread and not c.archived and emu.world.can_access(emu.bot, c)
    ]
    return ok(
        {
            "threads": [emu.world.channel_payload(t) for t in threads],
            "members": [emu.world.thread_member_payload(t, emu.bot.id) for t in threads if emu.bot.id in t.member_ids],
        }
    )


# --- channels -----------------------------------------------------------------------------------------------------


async def get_channel_route(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    channel = get_channel(emu, request)
    access.require_view(emu, channel)
    return ok(emu.world.channel_payload(channel))


def _problem(rule: str, key: str, code: str, message: str) -> limits.Problem:
    return limits.Problem(rule, (key,), code, message)


def _check_channel_fields(body: JSON, channel: Channel, *, creating_thread: bool = False) -> None:
    """Documented bounds of channel/thread fields: names 1-100, topic up to 1024, slowmode 0-21600,
    auto_archive_duration one of 60/1440/4320/10080."""
    problems: list[limits.Problem] = []
    if "name" in body or creating_thread:
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            rule = "thread-name" if channel.is_thread or creating_thread else "channel-type"
            problems.append(_problem(rule, "name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."))
    if body.get("topic") is not None and len(str(body["topic"])) > 1024:
        problems.append(_problem("channel-type", "topic", "BASE_TYPE_MAX_LENGTH", "Must be 1024 or fewer in length."))
    slow = body.get("rate_limit_per_user")
    if slow is not None and (isinstance(slow, bool) or not isinstance(slow, int) or not 0 <= slow <= 21600):
        problems.append(
            _problem("slowmode", "rate_limit_per_user", "NUMBER_TYPE_MAX", "int value should be between 0 and 21600.")
        )
    for key in ("auto_archive_duration", "default_auto_archive_duration"):
        value = body.get(key)
        if value is not None and (isinstance(value, bool) or value not in THREAD_ARCHIVE_DURATIONS):
            problems.append(
                _problem(
                    "thread-archive-duration", key, "BASE_TYPE_CHOICES", "Value must be one of (60, 1440, 4320, 10080)."
                )
            )
    for key in ("archived", "locked", "invitable"):
        if body.get(key) is not None and not isinstance(body[key], bool):
            problems.append(_problem("channel-type", key, "BASE_TYPE_BAD_TYPE", "Must be a boolean."))
    if problems:
        raise limits.form_error(problems)


async def edit_channel(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    channel = get_channel(emu, request)
    body, _ = await read_body(request)
    if channel.is_dm:
        raise wrong_channel_type("a DM channel cannot be modified")
    if channel.is_thread:
        _edit_thread(emu, channel, body)
    else:
        access.require(emu, channel, P.MANAGE_CHANNELS, "modifying a channel")
        _check_channel_fields(body, channel)
        overwrites = body.get("permission_overwrites")
        if overwrites is not None:
            access.require(emu, channel, P.MANAGE_ROLES, "changing permission overwrites")
        if "name" in body:
            channel.name = str(body["name"])
        if "topic" in body:
            channel.topic = body["topic"]
        if body.get("rate_limit_per_user") is not None:
            channel.rate_limit_per_user = int(body["rate_limit_per_user"])
        if body.get("default_auto_archive_duration") is not None:
            channel.default_auto_archive_duration = int(body["default_auto_archive_duration"])
        if overwrites is not None:
            from .model import Overwrite

            channel.overwrites = {
                int(o["id"]): Overwrite(
                    int(o["id"]), int(o.get("type", 0)), int(o.get("allow") or 0), int(o.get("deny") or 0)
                )
                for o in overwrites
            }
    emu.notify()
    payload = emu.world.channel_payload(channel)
    await emu.gateway.dispatch("THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", payload)
    return ok(payload)


def _edit_thread(emu: EmulatorContext, thread: Channel, body: JSON) -> None:
    """Modify Channel on a thread, as channel.mdx and threads.mdx document it: the thread must be (or become) active
    (50083); unarchiving a locked thread, locking, and slowmode need MANAGE_THREADS; renaming, archiving and the
    auto-archive duration need MANAGE_THREADS or being the thread's creator; unarchiving an unlocked thread needs
    SEND_MESSAGES."""
    perms = access.require_view(emu, thread)
    _check_channel_fields(body, thread)
    manage = bool(perms & P.MANAGE_THREADS)
    creator = thread.owner_id == emu.bot.id
    where = access.describe(thread)
    unarchiving = thread.archived and body.get("archived") is False
    if thread.archived and not unarchiving:
        raise thread_archived(f"{where} is archived: set archived to false to change it")
    locked_after = body["locked"] if body.get("locked") is not None else thread.locked
    if body.get("locked") is not None and body["locked"] != thread.locked and not manage:
        raise missing_permissions(f"locking or unlocking {where} needs MANAGE_THREADS")
    if unarchiving:
        if thread.locked and not manage:
            raise thread_locked(f"{where} is locked: only MANAGE_THREADS can unarchive it")
        if not locked_after and not perms & P.SEND_MESSAGES:
            raise missing_permissions(f"unarchiving {where} needs SEND_MESSAGES")
    changes_metadata = (
        ("name" in body and body["name"] != thread.name)
        or body.get("archived") is True
        or (
            body.get("auto_archive_duration") is not None
            and body["auto_archive_duration"] != thread.auto_archive_duration
        )
        or (body.get("invitable") is not None and body["invitable"] != thread.invitable)
    )
    if changes_metadata and not (manage or creator):
        raise missing_permissions(f"renaming, archiving or changing {where} needs MANAGE_THREADS or being its creator")
    slowmode = body.get("rate_limit_per_user")
    if slowmode is not None and slowmode != thread.rate_limit_per_user and not manage:
        raise missing_permissions(f"changing the slowmode of {where} needs MANAGE_THREADS")
    t = emu.world.now()
    if "name" in body:
        thread.name = str(body["name"])
    if body.get("locked") is not None:
        thread.locked = bool(body["locked"])
    if body.get("invitable") is not None and thread.type == PRIVATE_THREAD:
        thread.invitable = bool(body["invitable"])
    if body.get("rate_limit_per_user") is not None:
        thread.rate_limit_per_user = int(body["rate_limit_per_user"])
    if body.get("auto_archive_duration") is not None and body["auto_archive_duration"] != thread.auto_archive_duration:
        thread.auto_archive_duration = int(body["auto_archive_duration"])
        thread.archive_timestamp = thread.active_since = t  # changing the duration is activity
    if body.get("archived") is not None and body["archived"] != thread.archived:
        thread.archived = bool(body["archived"])
        thread.archive_timestamp = t
        if not thread.archived:
            thread.active_since = t  # unarchiving is activity


async def delete_channel(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    channel = get_channel(emu, request)
    payload = emu.world.channel_payload(channel)
    if channel.is_dm:
        return ok(payload)
    if channel.is_thread:
        access.require(emu, channel, P.MANAGE_THREADS, "deleting a thread")
    else:
        access.require(emu, channel, P.MANAGE_CHANNELS, "deleting a channel")
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
    emu = emulator_of(request)
    channel = get_channel(emu, request)
    access.require(emu, channel, access.send_permission(channel), "typing")
    return no_content()


# --- messages -----------------------------------------------------------------------------------------------------


def _check_history_query(request: web.Request) -> None:
    """``limit`` is 1-100; ``before``, ``after`` and ``around`` are snowflakes, one at most."""
    problems: list[limits.Problem] = []
    raw = request.query.get("limit", "50")
    if not raw.isdigit() or not 1 <= int(raw) <= 100:
        problems.append(
            limits.Problem("history-query", ("limit",), "NUMBER_TYPE_MAX", "int value should be between 1 and 100.")
        )
    anchors = [key for key in ("before", "after", "around") if key in request.query]
    for key in anchors:
        if not request.query[key].isdigit():
            problems.append(limits.Problem("history-query", (key,), "NUMBER_TYPE_COERCE", "Value is not snowflake."))
    if len(anchors) > 1:
        problems.append(
            limits.Problem(
                "history-query",
                (anchors[1],),
                "BASE_TYPE_BAD_VALUE",
                "before, after and around are mutually exclusive",
            )
        )
    if problems:
        raise limits.form_error(problems)


async def list_messages(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    channel = get_channel(emu, request)
    perms = access.require_view(emu, channel)
    _check_history_query(request)
    if channel.guild_id is not None and not perms & P.READ_MESSAGE_HISTORY:
        return ok([])  # documented: without READ_MESSAGE_HISTORY no messages are returned
    limit = int(request.query.get("limit", 50))
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
    access.require(emu, channel, P.READ_MESSAGE_HISTORY, "reading a message")
    return ok(emu.world.message_payload(channel_message(emu, channel, _int(request, "message_id"))))


def _check_dm_open(emu: EmulatorContext, channel: Channel) -> None:
    """A bot DMs a user who accepts DMs and who shares a guild with it or installed its app to their account."""
    if channel.is_dm:
        world = emu.world
        recipient = world.users[channel.recipient_ids[0]]
        reachable = recipient.id in world.user_installs or any(
            recipient.id in g.member_ids and world.bot.id in g.member_ids for g in world.guilds.values()
        )
        if not recipient.dms_open or not reachable:
            raise APIError(403, CANNOT_SEND_MESSAGES_TO_USER, "Cannot send messages to this user")


REPLYABLE_TYPES = frozenset({0, 19, 20, 23})  # default, reply, chat input and context menu command messages


def _reply_reference(emu: EmulatorContext, channel: Channel, ref: Any) -> JSON | None:
    """Resolve ``message_reference`` for a reply: the message must exist in this channel and not be a system
    message (``fail_if_not_exists: false`` sends a plain message instead)."""
    if ref is None:
        return None
    if not isinstance(ref, dict) or not ref.get("message_id"):
        raise limits.form_error(
            [
                limits.Problem(
                    "message-reference",
                    ("message_reference", "message_id"),
                    "BASE_TYPE_REQUIRED",
                    "This field is required",
                )
            ]
        )
    if ref.get("type", 0) != 0:
        raise limits.form_error(
            [
                limits.Problem(
                    "message-reference",
                    ("message_reference", "type"),
                    "BASE_TYPE_CHOICES",
                    "Only replies (type 0) are supported",
                )
            ]
        )
    try:
        target_id = int(str(ref["message_id"]))
    except ValueError:
        target_id = 0
    target = emu.world.messages.get(target_id)
    same_channel = str(ref.get("channel_id", channel.id)) == str(channel.id)
    if target is None or target.deleted or target.ephemeral or target.channel_id != channel.id or not same_channel:
        if ref.get("fail_if_not_exists", True) is False:
            return None
        raise limits.form_error(
            [
                limits.Problem(
                    "message-reference",
                    ("message_reference",),
                    "MESSAGE_REFERENCE_UNKNOWN_MESSAGE",
                    f"Unknown message {ref.get('message_id')!r} in this channel",
                )
            ]
        )
    if target.type not in REPLYABLE_TYPES:
        raise APIError(
            400,
            CANNOT_EXECUTE_ON_SYSTEM_MESSAGE,
            "Cannot execute action on a system message",
            rule="message-reference",
            detail=f"message {target.id} is a system message (type {target.type})",
        )
    out: JSON = {"type": 0, "message_id": str(target.id), "channel_id": str(channel.id)}
    if channel.guild_id:
        out["guild_id"] = str(channel.guild_id)
    return out


ROUTE_POST = "POST /channels/{channel_id}/messages"
ROUTE_PATCH = "PATCH /channels/{channel_id}/messages/{message_id}"


async def post_message(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    channel = get_channel(emu, request)
    body, files = await read_body(request)
    _check_dm_open(emu, channel)
    perms = access.check_channel_post(emu, channel, body, len(files))
    ref = _reply_reference(emu, channel, body.get("message_reference"))
    if ref is None:
        body.pop("message_reference", None)
    else:
        body["message_reference"] = ref
    msg_type = 19 if ref is not None else 0
    msg = create_message(emu, channel, emu.bot, body, files, msg_type=msg_type, route=ROUTE_POST, permissions=perms)
    await announce_create(emu, msg)
    return ok(emu.world.message_payload(msg))


async def patch_message(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    channel = get_channel(emu, request)
    perms = access.require_view(emu, channel)
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
    edit_message(emu, msg, body, files, allowed_flags=None, route=ROUTE_PATCH, permissions=perms)
    await announce_update(emu, msg)
    return ok(emu.world.message_payload(msg))


def _check_delete(emu: EmulatorContext, channel: Channel, msg: Message, perms: int) -> None:
    if msg.author.id != emu.bot.id and channel.guild_id is not None and not perms & P.MANAGE_MESSAGES:
        raise missing_permissions(
            f"deleting someone else's message in {access.describe(channel)} needs MANAGE_MESSAGES"
        )
    if channel.is_thread and channel.archived and channel.locked and not perms & P.MANAGE_THREADS:
        raise thread_archived(f"{access.describe(channel)} is archived and locked")


async def delete_message_route(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    channel = get_channel(emu, request)
    perms = access.require_view(emu, channel)
    msg = channel_message(emu, channel, _int(request, "message_id"))
    _check_delete(emu, channel, msg, perms)
    await delete_message(emu, msg)
    return no_content()


async def bulk_delete(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    channel = get_channel(emu, request)
    if channel.guild_id is None:
        raise wrong_channel_type("bulk delete works in guild channels only")
    access.require(emu, channel, P.MANAGE_MESSAGES, "bulk deleting messages")
    body, _ = await read_body(request)
    ids = body.get("messages")
    if not isinstance(ids, list) or not 2 <= len(ids) <= 100 or len(set(map(str, ids))) != len(ids):
        raise limits.form_error(
            [limits.Problem("bulk-delete", ("messages",), "BASE_TYPE_BAD_LENGTH", "Must be 2-100 distinct message ids")]
        )
    for mid in ids:
        msg = emu.world.messages.get(int(mid))
        if msg is not None and msg.channel_id == channel.id and not msg.deleted:
            await delete_message(emu, msg)
    return no_content()


def _emoji(request: web.Request) -> str:
    """A URL-encoded unicode emoji; a custom one (``name:id``) is unknown: the emulated guilds have none."""
    emoji = request.match_info["emoji"]
    if ":" in emoji or limits.check_emoji_name(emoji):
        raise APIError(404, 10014, "Unknown Emoji", rule="reaction-emoji", detail=f"{emoji!r} is not an emoji here")
    return emoji


async def add_reaction(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    channel = get_channel(emu, request)
    perms = access.require(emu, channel, P.READ_MESSAGE_HISTORY, "reacting")
    msg = channel_message(emu, channel, _int(request, "message_id"))
    emoji = _emoji(request)
    if channel.is_thread and channel.archived:
        raise thread_archived(f"{access.describe(channel)} is archived: no reactions")
    if not msg.reactions.get(emoji) and channel.guild_id is not None and not perms & P.ADD_REACTIONS:
        raise missing_permissions(f"a new reaction in {access.describe(channel)} needs ADD_REACTIONS")
    msg.reactions.setdefault(emoji, set()).add(emu.bot.id)
    emu.notify()
    return no_content()


async def remove_reaction(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    channel = get_channel(emu, request)
    access.require_view(emu, channel)
    msg = channel_message(emu, channel, _int(request, "message_id"))
    emoji = _emoji(request)
    if channel.is_thread and channel.archived:
        raise thread_archived(f"{access.describe(channel)} is archived: no reactions")
    msg.reactions.get(emoji, set()).discard(emu.bot.id)
    emu.notify()
    return no_content()


# --- threads ------------------------------------------------------------------------------------------------------


def _new_thread(
    emu: EmulatorContext, parent: Channel, body: JSON, *, thread_id: int | None, default_type: int
) -> Channel:
    if parent.type != GUILD_TEXT:
        raise wrong_channel_type(f"threads are started in text channels, not in {access.describe(parent)}")
    ttype = body.get("type") if body.get("type") is not None else default_type
    if ttype not in (PUBLIC_THREAD, PRIVATE_THREAD):
        raise limits.form_error(
            [limits.Problem("channel-type", ("type",), "BASE_TYPE_CHOICES", "Value must be one of {11, 12}.")]
        )
    needed = P.CREATE_PUBLIC_THREADS if ttype == PUBLIC_THREAD else P.CREATE_PRIVATE_THREADS
    access.require(emu, parent, needed, "starting a thread")
    probe = Channel(0, ttype, guild_id=parent.guild_id)
    _check_channel_fields(body, probe, creating_thread=True)
    # ``invitable`` only means something for private threads; discord.py sends it for public ones too (ignored)
    t = emu.world.now()
    thread = Channel(
        id=thread_id if thread_id is not None else emu.world.ids.next(),
        type=ttype,
        name=str(body["name"]),
        guild_id=parent.guild_id,
        parent_id=parent.id,
        owner_id=emu.bot.id,
        auto_archive_duration=int(body.get("auto_archive_duration") or parent.default_auto_archive_duration),
        rate_limit_per_user=int(body.get("rate_limit_per_user") or 0),
        invitable=bool(body.get("invitable", True)) if ttype == PRIVATE_THREAD else True,
        member_ids={emu.bot.id},
        created_at=t,
        archive_timestamp=t,
        active_since=t,
    )
    emu.world.channels[thread.id] = thread
    emu.notify()
    return thread


async def _announce_thread(emu: EmulatorContext, thread: Channel) -> JSON:
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
    access.require(emu, parent, P.READ_MESSAGE_HISTORY, "starting a thread from a message")
    msg = channel_message(emu, parent, _int(request, "message_id"))
    if msg.thread_id is not None and msg.thread_id in emu.world.channels:
        raise APIError(400, THREAD_ALREADY_CREATED, "A thread has already been created for this message")
    body, _ = await read_body(request)
    body["type"] = PUBLIC_THREAD
    # a thread started from a message shares the message's id
    thread = _new_thread(emu, parent, body, thread_id=msg.id, default_type=PUBLIC_THREAD)
    thread.starter_message_id = msg.id
    msg.thread_id = thread.id
    payload = await _announce_thread(emu, thread)
    await announce_update(emu, msg)
    return ok(payload, status=201)


def _thread(emu: EmulatorContext, request: web.Request) -> Channel:
    thread = get_channel(emu, request)
    if not thread.is_thread:
        raise wrong_channel_type(f"{access.describe(thread)} is not a thread")
    access.require_view(emu, thread)
    return thread


def _thread_and_member(emu: EmulatorContext, request: web.Request) -> tuple[Channel, int, bool]:
    """A thread-members route's thread, and the member it names: a user id, or ``@me`` (then also True: the bot
    itself, which needs no permission to join or leave)."""
    me = request.match_info.get("user_id", "@me") == "@me"
    return _thread(emu, request), emu.bot.id if me else _int(request, "user_id"), me


async def join_thread(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    thread, uid, me = _thread_and_member(emu, request)
    if uid not in emu.world.users:
        raise unknown_user()
    if thread.archived:
        raise thread_archived(f"{access.describe(thread)} is archived: nobody joins it")
    if not me:
        access.require(emu, thread, P.SEND_MESSAGES_IN_THREADS, "adding a member to a thread")
    thread.member_ids.add(uid)
    emu.notify()
    return no_content()


async def leave_thread(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    thread, uid, me = _thread_and_member(emu, request)
    if thread.archived:
        raise thread_archived(f"{access.describe(thread)} is archived: nobody leaves it")
    creator_of_private = thread.type == PRIVATE_THREAD and thread.owner_id == emu.bot.id
    if not me and not access.may_manage_threads(emu, thread) and not creator_of_private:
        raise missing_permissions(f"removing a member from {access.describe(thread)} needs MANAGE_THREADS")
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
    access.require(emu, parent, P.READ_MESSAGE_HISTORY, "listing archived threads")
    threads = [t for t in emu.world.threads_of(parent.id) if t.archived and t.type == PUBLIC_THREAD]
    threads.sort(key=lambda t: t.archive_timestamp, reverse=True)
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
    application = "/applications/{application_id}"
    ch = "/channels/{channel_id}"
    msg = ch + "/messages/{message_id}"
    # global and guild commands: the same handlers (they read the guild from the path when there is one)
    commands: list[tuple[str, str, Any]] = [
        ("GET", "", list_commands),
        ("PUT", "", bulk_overwrite_commands),
        ("POST", "", create_command),
        ("GET", "/{command_id}", get_command),
        ("PATCH", "/{command_id}", edit_command),
        ("DELETE", "/{command_id}", delete_command),
    ]
    routes: list[tuple[str, str, Any]] = [
        ("GET", "/users/@me", get_me),
        ("POST", "/users/@me/channels", create_dm),
        ("GET", "/users/{user_id}", get_user),
        ("GET", "/oauth2/applications/@me", get_application),
        ("GET", "/applications/@me", get_application),
        ("GET", "/gateway", get_gateway),
        ("GET", "/gateway/bot", get_gateway_bot),
        *(
            (method, base + tail, handler)
            for base in (application + "/commands", application + "/guilds/{guild_id}/commands")
            for method, tail, handler in commands
        ),
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
