"""Creating, editing and deleting messages (shared by channel routes and interaction/webhook routes).

Bodies are JSON or ``multipart/form-data`` (``payload_json`` + ``files[n]``), as discord.py sends them. Every write is
validated against :mod:`limits` first; a failure raises the Discord error response and records the rule. Who may
post or edit where (permissions, archived and locked threads) is :mod:`access`'s business; the callers check what
their route needs, these functions what every write needs.
"""

from __future__ import annotations

import datetime as dt
import json
import mimetypes
import re
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import BodyPartReader, web

from . import access, limits
from . import permissions as P
from .errors import (
    CANNOT_SEND_EMPTY_MESSAGE,
    REQUEST_ENTITY_TOO_LARGE,
    APIError,
    missing_permissions,
    unknown_message,
)
from .model import EPHEMERAL, LOADING, SUPPRESS_EMBEDS, Attachment, Channel, Message, User

if TYPE_CHECKING:
    from .appctx import EmulatorContext

JSON = dict[str, Any]


@dataclass
class UploadedFile:
    index: int
    filename: str
    content_type: str | None
    data: bytes


def _too_large(emu: EmulatorContext, size: int) -> APIError:
    return APIError(
        413,
        REQUEST_ENTITY_TOO_LARGE,
        "Request entity too large",
        rule="request-size",
        detail=f"request body of more than {size} bytes, limit {emu.request_size_limit}",
    )


async def read_body(request: web.Request) -> tuple[JSON, list[UploadedFile]]:
    from .appctx import emulator_of

    emu = emulator_of(request)
    if request.headers.get("Content-Type", "").lower().startswith("multipart/"):  # (aiohttp parses it slowly)
        payload: JSON = {}
        files: list[UploadedFile] = []
        problems: list[limits.Problem] = []
        total = 0
        reader = await request.multipart()
        while True:
            part = await reader.next()
            if part is None:
                break
            if not isinstance(part, BodyPartReader):
                continue
            name = part.name or ""
            if name == "payload_json":
                text = await part.text()
                total += len(text)
                payload = _parse_json(text)
            elif name.startswith("files[") and name.endswith("]"):
                data = bytes(await part.read(decode=False))
                total += len(data)
                index = name[6:-1]
                if not index.isdigit() or any(f.index == int(index) for f in files):
                    problems.append(
                        limits.Problem(
                            "attachment-reference", (name,), "FILE_NAME_INVALID", "files[n] parts are uniquely numbered"
                        )
                    )
                    continue
                if not part.filename:
                    problems.append(
                        limits.Problem("attachment-reference", (name,), "BASE_TYPE_REQUIRED", "A file needs a filename")
                    )
                    continue
                guessed = mimetypes.guess_type(part.filename)[0]
                files.append(UploadedFile(int(index), part.filename, guessed, data))
            else:
                text = await part.text()
                total += len(text)
                payload[name] = text
            if total > emu.request_size_limit:
                raise _too_large(emu, total)
        if problems:
            raise limits.form_error(problems)
        return payload, files
    text = await request.text()
    if not text.strip():
        return {}, []
    body = _parse_json(text)
    return (body if isinstance(body, dict) else {"_": body}), []


def _parse_json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        raise APIError(400, 50109, "The request body contains invalid JSON.") from None


def check_files(emu: EmulatorContext, files: list[UploadedFile]) -> None:
    limit = emu.attachment_size_limit
    for f in files:
        if len(f.data) > limit:
            raise APIError(
                413,
                REQUEST_ENTITY_TOO_LARGE,
                "Request entity too large",
                rule="attachment-size",
                detail=f"{f.filename} is {len(f.data)} bytes, limit {limit}",
            )


def check_attachment_refs(
    spec: Any, files: list[UploadedFile], existing: list[Attachment], prefix: limits.Path = ()
) -> None:
    """Every ``attachments[i].id`` must name a ``files[n]`` of this request or (editing) an attachment the message
    has; a file used twice is refused too."""
    if not isinstance(spec, list):
        return
    indexes = {f.index for f in files}
    kept = {a.id for a in existing}
    problems: list[limits.Problem] = []
    used: set[int] = set()
    for i, item in enumerate(spec):
        raw = item.get("id") if isinstance(item, dict) else None
        try:
            ref = int(str(raw))
        except ValueError:
            ref = -1
        if ref in kept:
            continue
        if ref not in indexes or ref in used:
            problems.append(
                limits.Problem(
                    "attachment-reference",
                    ("attachments", i, "id"),
                    "ATTACHMENT_NOT_FOUND",
                    f"Unknown attachment {raw!r}: no files[{raw}] in the request"
                    + (" and no such attachment on the message" if existing else ""),
                )
            )
        used.add(ref)
    if problems:
        raise limits.form_error(problems, prefix)


def _attachments(
    emu: EmulatorContext,
    channel: Channel,
    spec: list[JSON] | None,
    files: list[UploadedFile],
    existing: list[Attachment],
) -> list[Attachment]:
    """Resolve the ``attachments`` array (checked by ``check_attachment_refs``): existing attachment ids are kept,
    ``{"id": n}`` uploads ``files[n]``; files the array does not list are not attached (Discord: the array lists
    every file to append). Without an array, existing attachments stay and new files are appended."""
    by_index = {f.index: f for f in files}
    by_id = {a.id: a for a in existing}
    if spec is None:
        spec = [{"id": a.id} for a in existing] + [{"id": f.index} for f in files]
    out: list[Attachment] = []

    def upload(f: UploadedFile, item: JSON) -> Attachment:
        aid = emu.world.ids.next()
        filename = str(item.get("filename") or f.filename)
        url = f"{emu.base_url}/attachments/{channel.id}/{aid}/{filename}"
        return Attachment(aid, filename, f.data, f.content_type, url, description=item.get("description"))

    for item in spec:
        try:
            ref = int(item.get("id", -1))
        except (TypeError, ValueError):
            continue
        if ref in by_id:
            kept = by_id[ref]
            if item.get("description") is not None:
                kept.description = str(item["description"])
            out.append(kept)
        elif ref in by_index:
            out.append(upload(by_index[ref], item))
    return out


def _resolve_attachment_urls(embeds: list[JSON], attachments: list[Attachment]) -> list[JSON]:
    """``attachment://name.png`` in embed images/thumbnails/icons becomes that attachment's URL, as on Discord."""
    by_name = {a.filename: a for a in attachments}

    def fix(node: JSON | None, key: str) -> None:
        if isinstance(node, dict) and isinstance(node.get(key), str) and node[key].startswith("attachment://"):
            att = by_name.get(node[key].removeprefix("attachment://"))
            if att is not None:
                node[key] = att.url
                node["proxy_" + key] = att.url
                wh = att.image_size()
                if wh is not None and key == "url":
                    node["width"], node["height"] = wh

    out = []
    for e in embeds:
        e = json.loads(json.dumps(e))
        fix(e.get("image"), "url")
        fix(e.get("thumbnail"), "url")
        fix(e.get("author"), "icon_url")
        fix(e.get("footer"), "icon_url")
        out.append(e)
    return out


def _empty(
    content: str | None, embeds: list[JSON], attachments: list[Attachment], components: list[JSON], poll: Any
) -> bool:
    return limits.is_empty_message(
        content, embeds=len(embeds), attachments=len(attachments), components=len(components), poll=bool(poll)
    )


def empty_message_error() -> APIError:
    return APIError(
        400, CANNOT_SEND_EMPTY_MESSAGE, "Cannot send an empty message", rule="empty-message", detail="no content"
    )


def validate(
    payload: JSON,
    files: list[UploadedFile],
    emu: EmulatorContext,
    *,
    prefix: limits.Path = (),
    existing: int = 0,
    allowed_flags: int = limits.FLAGS_CREATE,
    create: bool = True,
) -> None:
    problems = limits.check_request(payload, allowed_flags=allowed_flags, create=create)
    problems += limits.check_message(
        payload, n_files=len(files), existing_attachments=existing, attachment_names=_upload_names(payload, files)
    )
    if problems:
        raise limits.form_error(problems, prefix)
    check_attachment_refs(payload.get("attachments"), files, [], prefix)
    check_files(emu, files)


def _upload_names(payload: JSON, files: list[UploadedFile]) -> list[str]:
    """The file names a new message will carry: an ``attachments`` entry may rename its upload."""
    by_index = {f.index: f.filename for f in files}
    spec = payload.get("attachments")
    if not isinstance(spec, list):
        return list(by_index.values())
    names = []
    for item in spec:
        if isinstance(item, dict):
            try:
                ref = int(item.get("id", -1))
            except (TypeError, ValueError):
                continue
            if ref in by_index:
                names.append(str(item.get("filename") or by_index[ref]))
    return names


def create_message(
    emu: EmulatorContext,
    channel: Channel,
    author: User,
    payload: JSON,
    files: list[UploadedFile],
    *,
    prefix: limits.Path = (),
    ephemeral_for: int | None = None,
    webhook_id: int | None = None,
    interaction_metadata: JSON | None = None,
    msg_type: int = 0,
    loading: bool = False,
    allowed_flags: int = limits.FLAGS_CREATE,
    route: str = "",
    permissions: int | None = None,
) -> Message:
    """Validate and store a message. The caller announces it (``announce_create``) once it is final, and checks
    the permissions its route needs (``access``) first; ``permissions`` are the bot's for a channel post (embeds
    without EMBED_LINKS are dropped), None for webhook messages and users' posts. With ``enforce_nonce`` a nonce
    the author used in the last few minutes returns that message instead (see ``_nonce_replay``)."""
    world = emu.world
    if not loading:
        validate(payload, files, emu, prefix=prefix, allowed_flags=allowed_flags)
    replayed = _nonce_replay(emu, author, payload)
    if replayed is not None:
        return replayed
    bot_author = author.id == emu.bot.id
    ephemeral = ephemeral_for is not None
    if bot_author:
        access.check_emojis(emu, channel, list(payload.get("components") or []), prefix)
        if webhook_id is not None:
            access.check_webhook_tts(emu, channel, payload)
    if ephemeral:
        unarchive = False
    elif bot_author:
        unarchive = access.check_thread_post(emu, channel, webhook=webhook_id is not None)
    else:  # a user's post (the harness checked they may): it unarchives the thread too
        unarchive = channel.is_thread and channel.archived
    msg_id = world.ids.next()
    flags = int(payload.get("flags") or 0) & (
        SUPPRESS_EMBEDS | EPHEMERAL | limits.IS_COMPONENTS_V2 | limits.SUPPRESS_NOTIFICATIONS
    )
    if ephemeral_for is not None:
        flags |= EPHEMERAL
    if loading:
        flags |= LOADING
    attachments = _attachments(emu, channel, payload.get("attachments"), files, [])
    content = payload.get("content")
    content = "" if content is None else str(content)
    embeds = _resolve_attachment_urls(list(payload.get("embeds") or []), attachments)
    if permissions is not None and not access.embeds_allowed(emu, channel, permissions, embeds, route):
        embeds = []
    components = list(payload.get("components") or [])
    if not loading and _empty(content, embeds, attachments, components, payload.get("poll")):
        raise empty_message_error()
    for a in attachments:
        a.ephemeral = bool(flags & EPHEMERAL)
    msg = Message(
        id=msg_id,
        channel_id=channel.id,
        guild_id=channel.guild_id,
        author=author,
        content=content,
        embeds=embeds,
        components=components,
        attachments=attachments,
        flags=flags,
        type=msg_type,
        tts=bool(payload.get("tts")),
        timestamp=world.now(),
        webhook_id=webhook_id,
        application_id=world.application_id if webhook_id else None,
        interaction_metadata=interaction_metadata,
        visible_to=ephemeral_for if flags & EPHEMERAL else None,
        message_reference=payload.get("message_reference"),
        poll=payload.get("poll"),
        pinged=pinged_users(
            "\n".join([content, *limits.text_display_contents(components)]), payload.get("allowed_mentions"), flags
        ),
    )
    world.add_message(msg)
    if bot_author and not loading and route:
        check_mentions_policy(emu, payload, f"new message {msg.id}", route)
        check_command_mentions(emu, msg, f"new message {msg.id}", route)
    _remember_nonce(emu, author, payload, msg)
    if not msg.ephemeral:
        channel.last_message_id = msg.id
    if channel.is_thread and not msg.ephemeral:
        if webhook_id is None:
            channel.member_ids.add(author.id)  # posting in a thread joins it
        channel.message_count += 1
        channel.total_message_sent += 1
        channel.active_since = world.now()  # a message is activity: the auto-archive timer restarts
        if unarchive:  # sending a message unarchives the thread (check_thread_post allowed it)
            channel.archived = False
            channel.archive_timestamp = world.now()
            msg.unarchived_thread = True
    emu.notify()
    return msg


def edit_message(
    emu: EmulatorContext,
    msg: Message,
    payload: JSON,
    files: list[UploadedFile],
    *,
    prefix: limits.Path = (),
    allowed_flags: int | None = limits.FLAGS_WEBHOOK_EDIT,
    route: str = "",
    permissions: int | None = None,
) -> Message:
    """Apply an edit (only the keys present change), validating the resulting message. ``allowed_flags`` None:
    flags outside SUPPRESS_EMBEDS/IS_COMPONENTS_V2 are ignored, as the channel route documents; ``permissions``: the
    bot's, for a channel edit (new files need ATTACH_FILES, embeds EMBED_LINKS)."""
    channel = emu.world.channels[msg.channel_id]
    request_problems = limits.check_request(
        payload, allowed_flags=limits.ALL_MESSAGE_FLAGS if allowed_flags is None else allowed_flags
    )
    if request_problems:
        raise limits.form_error(request_problems, prefix)
    if not msg.ephemeral:  # through a webhook route (permissions None) a locked thread does not matter
        access.check_thread_edit(emu, channel, webhook=permissions is None)
    if msg.author.id == emu.bot.id:
        access.check_emojis(emu, channel, list(payload.get("components") or []), prefix)
    if permissions is not None and files and channel.guild_id is not None and not permissions & P.ATTACH_FILES:
        raise missing_permissions(f"uploading files in {access.describe(channel)} needs ATTACH_FILES")
    check_attachment_refs(payload.get("attachments"), files, msg.attachments, prefix)
    merged: JSON = {
        "content": msg.content,
        "embeds": msg.embeds,
        "components": msg.components,
        "flags": msg.flags,
    }
    for key in ("content", "embeds", "components", "flags"):
        if key in payload:
            merged[key] = payload[key]
    if merged.get("flags") is None:
        merged["flags"] = msg.flags & ~LOADING
    merged["flags"] = int(merged["flags"]) | (msg.flags & limits.IS_COMPONENTS_V2)  # it cannot be removed
    spec = payload.get("attachments")
    attachments = (
        _attachments(emu, channel, spec, files, msg.attachments) if (spec is not None or files) else msg.attachments
    )
    problems = limits.check_message(
        merged, n_files=0, existing_attachments=len(attachments), attachment_names=[a.filename for a in attachments]
    )
    becomes_card = not msg.flags & limits.IS_COMPONENTS_V2 and int(merged["flags"]) & limits.IS_COMPONENTS_V2
    kept = {a.id for a in msg.attachments} & {a.id for a in attachments}
    if becomes_card and kept:
        problems.append(limits.converted_with_files())
    if problems:
        raise limits.form_error(problems, prefix)
    check_files(emu, files)
    content = merged.get("content")
    content = "" if content is None else str(content)
    embeds = _resolve_attachment_urls(list(merged.get("embeds") or []), attachments)
    if (
        permissions is not None
        and "embeds" in payload
        and not access.embeds_allowed(emu, channel, permissions, embeds, route)
    ):
        embeds = []
    components = list(merged.get("components") or [])
    if _empty(content, embeds, attachments, components, msg.poll):
        raise empty_message_error()
    msg.history.append({"content": msg.content, "embeds": msg.embeds, "components": msg.components})
    kept = {a.id for a in msg.attachments}
    msg.content, msg.embeds, msg.components, msg.attachments = content, embeds, components, attachments
    emu.world.note_uploads(msg, [a for a in attachments if a.id not in kept])
    keep = msg.flags & (EPHEMERAL | limits.IS_COMPONENTS_V2)
    new_flags = int(merged.get("flags") or 0) & (SUPPRESS_EMBEDS | limits.IS_COMPONENTS_V2)
    msg.flags = keep | new_flags  # an edit always clears LOADING; IS_COMPONENTS_V2 can be set, never unset
    msg.edited_timestamp = emu.world.now()
    if msg.author.id == emu.bot.id and route:
        check_mentions_policy(emu, payload, f"edit of message {msg.id}", route)
        check_command_mentions(emu, msg, f"edit of message {msg.id}", route)
    emu.notify()
    return msg


def check_mentions_policy(emu: EmulatorContext, payload: JSON, what: str, route: str) -> None:
    """Record ``allowed-mentions-missing`` for a bot's message request that does not say whom it may ping. Only
    requests (a ``route``: every HTTP handler passes its own) are checked, not the messages a test puts in the
    world directly.

    Discord accepts such a request, and then parses every mention in the message (an edit: in the whole edited
    message, a card's text displays included) with its default allowances: a bot whose client default allows
    no pings would ping anyway. discord.py adds the client's default to sends and interaction responses, but to
    ``Message.edit`` only when ``content=`` is passed, so the rule is checked on every message route.
    """
    if emu.require_allowed_mentions and "allowed_mentions" not in payload:
        emu.violate("allowed-mentions-missing", f"{what} sent without allowed_mentions", route)


#: A command mention as clients draw it: ``</name:id>``, ``</name subcommand:id>``, ``</name group subcommand:id>``.
COMMAND_MENTION = re.compile(r"</([-_\w]+(?: [-_\w]+){0,2}):(\d{1,20})>")


def check_command_mentions(emu: EmulatorContext, msg: Message, what: str, route: str) -> None:
    """Record ``command-mention`` for a bot's command mention that names no command of the app: Discord accepts
    the message and draws the mention, but a click on it opens nothing (a stale id, a renamed command)."""
    text = "\n".join([msg.content, *limits.text_display_contents(msg.components)])
    for match in COMMAND_MENTION.finditer(text):
        path, command_id = match.group(1).split(" "), int(match.group(2))
        command = emu.world.commands.get(command_id)
        if command is None or command.name != path[0] or not _has_path(command.raw, path[1:]):
            emu.violate("command-mention", f"{what} mentions {match.group(0)}, which is none of the app's commands",
                        route)


def _has_path(payload: JSON, path: list[str]) -> bool:
    """Whether ``path`` names subcommands (through groups) down to an invocable one of ``payload``."""
    subs = [o for o in payload.get("options") or () if o.get("type") in (1, 2)]
    if not path:
        return not subs
    child = next((o for o in subs if o.get("name") == path[0]), None)
    return child is not None and _has_path(child, path[1:])


def event_payload(emu: EmulatorContext, msg: Message) -> JSON:
    world = emu.world
    data = world.message_payload(msg)
    if msg.guild_id is not None and msg.webhook_id is None:
        guild = world.guilds[msg.guild_id]
        member = world.member_payload(guild, msg.author)
        member.pop("user")
        data["member"] = member
    return data


async def announce_create(emu: EmulatorContext, msg: Message) -> None:
    if msg.ephemeral:  # bots receive no gateway events for ephemeral messages
        return
    if not emu.world.bot_present(emu.world.channels[msg.channel_id]):  # no events where the bot user is not
        return
    if _nonces(emu).take_replay(msg.id):  # announced when it was created; a nonce replay creates nothing
        return
    channel = emu.world.channels[msg.channel_id]
    if msg.unarchived_thread:
        msg.unarchived_thread = False
        await emu.gateway.dispatch("THREAD_UPDATE", emu.world.channel_payload(channel))
    privileged = msg.author.id != emu.bot.id and not channel.is_dm and emu.bot.mention not in msg.content
    await emu.gateway.dispatch(
        "MESSAGE_CREATE", event_payload(emu, msg), dm=channel.is_dm, privileged_content=privileged
    )


async def announce_update(emu: EmulatorContext, msg: Message) -> None:
    if msg.ephemeral:
        return
    if not emu.world.bot_present(emu.world.channels[msg.channel_id]):  # no events where the bot user is not
        return
    channel = emu.world.channels[msg.channel_id]
    privileged = msg.author.id != emu.bot.id and not channel.is_dm
    await emu.gateway.dispatch(
        "MESSAGE_UPDATE", event_payload(emu, msg), dm=channel.is_dm, privileged_content=privileged
    )


async def delete_message(emu: EmulatorContext, msg: Message) -> None:
    msg.deleted = True
    emu.notify()
    if msg.ephemeral:
        return
    channel = emu.world.channels[msg.channel_id]
    if not emu.world.bot_present(channel):
        return
    data: JSON = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
    if msg.guild_id is not None:
        data["guild_id"] = str(msg.guild_id)
    await emu.gateway.dispatch("MESSAGE_DELETE", data, dm=channel.is_dm)


# --- enforce_nonce (Create Message: "If true and nonce is present, it will be checked for uniqueness in the past few
# minutes. If another message was created by the same author with the same nonce, that message will be returned and
# no new message will be created.") -----------------------------------------------------------------------------------

#: How long a nonce is remembered ("the past few minutes"), on the emulator's clock.
NONCE_WINDOW = dt.timedelta(minutes=5)


@dataclass
class _NonceMemory:
    created: dict[tuple[int, str], int] = field(default_factory=dict)  # (author id, nonce) -> message id
    replays: dict[int, int] = field(default_factory=dict)  # message id -> replays whose announce is to be skipped

    def take_replay(self, message_id: int) -> bool:
        left = self.replays.get(message_id, 0)
        if left <= 0:
            return False
        if left == 1:
            del self.replays[message_id]
        else:
            self.replays[message_id] = left - 1
        return True


_MEMORY: weakref.WeakKeyDictionary[Any, _NonceMemory] = weakref.WeakKeyDictionary()


def _nonces(emu: EmulatorContext) -> _NonceMemory:
    """The nonce memory of this emulator's world (kept beside it, so the world model needs no field for it)."""
    memory = _MEMORY.get(emu.world)
    if memory is None:
        memory = _MEMORY[emu.world] = _NonceMemory()
    return memory


def _nonce_key(author: User, payload: JSON) -> tuple[int, str] | None:
    nonce = payload.get("nonce")
    if nonce is None or not payload.get("enforce_nonce") or isinstance(nonce, bool):
        return None
    return author.id, str(nonce)


def _nonce_replay(emu: EmulatorContext, author: User, payload: JSON) -> Message | None:
    """The message this author created with this nonce in the last ``NONCE_WINDOW``, if any. A nonce whose message
    was deleted meanwhile is refused with Unknown Message (discord.py documents NotFound for it)."""
    key = _nonce_key(author, payload)
    memory = _nonces(emu)
    if key is None or key not in memory.created:
        return None
    earlier = emu.world.messages.get(memory.created[key])
    if earlier is None or emu.world.now() - earlier.timestamp > NONCE_WINDOW:
        del memory.created[key]
        return None
    if earlier.deleted:
        raise unknown_message()
    memory.replays[earlier.id] = memory.replays.get(earlier.id, 0) + 1
    return earlier


def _remember_nonce(emu: EmulatorContext, author: User, payload: JSON, msg: Message) -> None:
    key = _nonce_key(author, payload)
    if key is not None:
        _nonces(emu).created[key] = msg.id


USER_MENTION = re.compile(r"<@!?(\d{1,20})>")


def pinged_users(content: str, allowed: Any, flags: int) -> frozenset[int]:
    """Whom a new message notifies, as Discord decides: the users its content mentions,
    filtered by ``allowed_mentions`` (absent: every mention pings; ``parse`` with
    "users": all; a ``users`` list: those); none for @silent or ephemeral messages."""
    if flags & (limits.SUPPRESS_NOTIFICATIONS | EPHEMERAL):
        return frozenset()
    mentioned = {int(m) for m in USER_MENTION.findall(content)}
    if not isinstance(allowed, dict):
        return frozenset(mentioned)
    if "users" in (allowed.get("parse") or []):
        return frozenset(mentioned)
    listed = {int(u) for u in allowed.get("users") or [] if str(u).isdigit()}
    return frozenset(mentioned & listed)
