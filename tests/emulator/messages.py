"""Creating, editing and deleting messages (shared by channel routes and interaction/webhook routes).

Bodies are JSON or ``multipart/form-data`` (``payload_json`` + ``files[n]``), as discord.py sends them. Every write is
validated against :mod:`limits` first; a failure raises the Discord error response and records the rule.
"""

from __future__ import annotations

import json
import mimetypes
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import BodyPartReader, web

from . import limits
from .errors import (
    CANNOT_SEND_EMPTY_MESSAGE,
    REQUEST_ENTITY_TOO_LARGE,
    THREAD_ARCHIVED,
    APIError,
)
from .model import EPHEMERAL, LOADING, SUPPRESS_EMBEDS, Attachment, Channel, Message, User, now

if TYPE_CHECKING:
    from .server import Emulator

JSON = dict[str, Any]


@dataclass
class UploadedFile:
    index: int
    filename: str
    content_type: str | None
    data: bytes


async def read_body(request: web.Request) -> tuple[JSON, list[UploadedFile]]:
    if request.content_type.startswith("multipart/"):
        payload: JSON = {}
        files: list[UploadedFile] = []
        reader = await request.multipart()
        while True:
            part = await reader.next()
            if part is None:
                break
            if not isinstance(part, BodyPartReader):
                continue
            name = part.name or ""
            if name == "payload_json":
                payload = _parse_json(await part.text())
            elif name.startswith("files[") and name.endswith("]"):
                data = bytes(await part.read(decode=False))
                filename = part.filename or f"file{len(files)}"
                guessed = mimetypes.guess_type(filename)[0]
                files.append(UploadedFile(int(name[6:-1]), filename, guessed, data))
            else:
                payload[name] = await part.text()
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


def check_files(emu: Emulator, files: list[UploadedFile]) -> None:
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


def _attachments(
    emu: Emulator, channel: Channel, spec: list[JSON] | None, files: list[UploadedFile], existing: list[Attachment]
) -> list[Attachment]:
    """Resolve the ``attachments`` array: existing attachment ids are kept, ``{"id": n}`` refers to ``files[n]``.
    Without an array, existing attachments stay and new files are appended."""
    by_index = {f.index: f for f in files}
    by_id = {a.id: a for a in existing}
    if spec is None:
        spec = [{"id": a.id} for a in existing] + [{"id": f.index} for f in files]
    out: list[Attachment] = []
    used: set[int] = set()

    def upload(f: UploadedFile, item: JSON) -> Attachment:
        used.add(f.index)
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
            out.append(by_id[ref])
        elif ref in by_index and ref not in used:
            out.append(upload(by_index[ref], item))
    for f in files:
        if f.index not in used:
            out.append(upload(f, {}))
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
    payload: JSON, files: list[UploadedFile], emu: Emulator, *, prefix: limits.Path = (), existing: int = 0
) -> None:
    problems = limits.check_message(payload, n_files=len(files), existing_attachments=existing)
    if problems:
        raise limits.form_error(problems, prefix)
    check_files(emu, files)


def check_writable(channel: Channel) -> None:
    if channel.is_thread and channel.archived and channel.locked:
        raise APIError(
            400,
            THREAD_ARCHIVED,
            "Operation cannot be performed on an archived thread.",
            rule="thread-archived",
            detail=f"thread {channel.name!r} is archived and locked",
        )


def create_message(
    emu: Emulator,
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
) -> Message:
    """Validate and store a message. The caller announces it (``announce_create``) once it is final."""
    world = emu.world
    if not loading:
        validate(payload, files, emu, prefix=prefix)
    check_writable(channel)
    msg_id = world.ids.next()
    flags = int(payload.get("flags") or 0) & (SUPPRESS_EMBEDS | EPHEMERAL | limits.IS_COMPONENTS_V2 | 4096)
    if ephemeral_for is not None:
        flags |= EPHEMERAL
    if loading:
        flags |= LOADING
    attachments = _attachments(emu, channel, payload.get("attachments"), files, [])
    content = payload.get("content")
    content = "" if content is None else str(content)
    embeds = _resolve_attachment_urls(list(payload.get("embeds") or []), attachments)
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
        webhook_id=webhook_id,
        application_id=world.application_id if webhook_id else None,
        interaction_metadata=interaction_metadata,
        visible_to=ephemeral_for if flags & EPHEMERAL else None,
        message_reference=payload.get("message_reference"),
        poll=payload.get("poll"),
    )
    world.add_message(msg)
    if not msg.ephemeral:
        channel.last_message_id = msg.id
    if channel.is_thread:
        channel.message_count += 1
        if channel.archived:  # sending a message unarchives a thread that is not locked
            channel.archived = False
    emu.notify()
    return msg


def edit_message(
    emu: Emulator,
    msg: Message,
    payload: JSON,
    files: list[UploadedFile],
    *,
    prefix: limits.Path = (),
) -> Message:
    """Apply an edit (only the keys present change), validating the resulting message."""
    channel = emu.world.channels[msg.channel_id]
    check_writable(channel)
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
    spec = payload.get("attachments")
    attachments = (
        _attachments(emu, channel, spec, files, msg.attachments) if (spec is not None or files) else msg.attachments
    )
    problems = limits.check_message(merged, n_files=0, existing_attachments=len(attachments))
    if problems:
        raise limits.form_error(problems, prefix)
    check_files(emu, files)
    content = merged.get("content")
    content = "" if content is None else str(content)
    embeds = _resolve_attachment_urls(list(merged.get("embeds") or []), attachments)
    components = list(merged.get("components") or [])
    if _empty(content, embeds, attachments, components, msg.poll):
        raise empty_message_error()
    msg.history.append({"content": msg.content, "embeds": msg.embeds, "components": msg.components})
    msg.content, msg.embeds, msg.components, msg.attachments = content, embeds, components, attachments
    keep = msg.flags & (EPHEMERAL | limits.IS_COMPONENTS_V2)
    new_flags = int(merged.get("flags") or 0) & (SUPPRESS_EMBEDS | limits.IS_COMPONENTS_V2)
    msg.flags = keep | new_flags  # an edit always clears LOADING
    msg.edited_timestamp = now()
    emu.notify()
    return msg


def event_payload(emu: Emulator, msg: Message) -> JSON:
    world = emu.world
    data = world.message_payload(msg)
    if msg.guild_id is not None and msg.webhook_id is None:
        guild = world.guilds[msg.guild_id]
        member = world.member_payload(guild, msg.author)
        member.pop("user")
        data["member"] = member
    return data


async def announce_create(emu: Emulator, msg: Message) -> None:
    if msg.ephemeral:  # bots receive no gateway events for ephemeral messages
        return
    channel = emu.world.channels[msg.channel_id]
    privileged = msg.author.id != emu.bot.id and not channel.is_dm and emu.bot.mention not in msg.content
    await emu.gateway.dispatch(
        "MESSAGE_CREATE", event_payload(emu, msg), dm=channel.is_dm, privileged_content=privileged
    )


async def announce_update(emu: Emulator, msg: Message) -> None:
    if msg.ephemeral:
        return
    channel = emu.world.channels[msg.channel_id]
    privileged = msg.author.id != emu.bot.id and not channel.is_dm
    await emu.gateway.dispatch(
        "MESSAGE_UPDATE", event_payload(emu, msg), dm=channel.is_dm, privileged_content=privileged
    )


async def delete_message(emu: Emulator, msg: Message) -> None:
    msg.deleted = True
    emu.notify()
    if msg.ephemeral:
        return
    channel = emu.world.channels[msg.channel_id]
    data: JSON = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
    if msg.guild_id is not None:
        data["guild_id"] = str(msg.guild_id)
    await emu.gateway.dispatch("MESSAGE_DELETE", data, dm=channel.is_dm)
