"""What the bot may do where: permission and thread-state checks shared by the channel and webhook routes.

Channel routes (``/channels/...``) act as the bot user, so the bot's permissions in the channel apply (computed as
``World.permissions`` documents). Interaction responses and follow-ups are webhooks: they are not subject to the
bot's channel permissions (a bot that cannot even view a channel can answer a command there), except the three
Discord computes from the bot's permissions for webhooks since 2022: USE_EXTERNAL_EMOJIS, SEND_TTS_MESSAGES and
MENTION_EVERYONE.

Threads: an archived thread is read-only but for deleting messages (50083); posting a message unarchives it when
the poster may post there; a locked thread takes posts, edits and unarchiving only from members with
MANAGE_THREADS (160005).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import limits
from . import permissions as P
from .errors import (
    REPLY_WITHOUT_HISTORY,
    APIError,
    missing_access,
    missing_permissions,
    thread_archived,
    thread_locked,
)
from .model import Channel

if TYPE_CHECKING:
    from .appctx import EmulatorContext

JSON = dict[str, Any]


def bot_permissions(emu: EmulatorContext, channel: Channel) -> int:
    return emu.world.permissions(emu.bot, channel)


def require_view(emu: EmulatorContext, channel: Channel) -> int:
    """The bot's permissions in ``channel``; 403 / 50001 Missing Access when it cannot view it."""
    if not emu.world.bot_present(channel):  # a group DM, a guild the app is only user-installed in
        raise missing_access(f"the bot is not in {describe(channel)} (the app is not installed there as a bot)")
    perms = bot_permissions(emu, channel)
    if channel.guild_id is not None and not perms & P.VIEW_CHANNEL:
        raise missing_access(f"the bot cannot view {describe(channel)} (no VIEW_CHANNEL)")
    return perms


def require(emu: EmulatorContext, channel: Channel, permission: int, action: str) -> int:
    """VIEW_CHANNEL, then ``permission`` (403 / 50013 Missing Permissions). Returns the bot's permissions."""
    perms = require_view(emu, channel)
    if channel.guild_id is not None and perms & permission != permission:
        missing = ", ".join(n.upper() for n in P.names(permission & ~perms))
        raise missing_permissions(f"{action} in {describe(channel)} needs {missing}")
    return perms


def describe(channel: Channel) -> str:
    if channel.is_dm:
        return f"DM channel {channel.id}"
    if channel.is_group_dm:
        return f"group DM {channel.id}"
    kind = "thread" if channel.is_thread else "channel"
    return f"{kind} #{channel.name} ({channel.id})"


def send_permission(channel: Channel) -> int:
    """SEND_MESSAGES_IN_THREADS in a thread (SEND_MESSAGES has no effect there), else SEND_MESSAGES."""
    return P.SEND_MESSAGES_IN_THREADS if channel.is_thread else P.SEND_MESSAGES


def check_channel_post(emu: EmulatorContext, channel: Channel, payload: JSON, n_files: int) -> int:
    """The bot posting through ``POST /channels/{id}/messages``: view, send, TTS, files, replies. Returns the bot's
    permissions (the caller decides about embeds and emojis with them)."""
    if channel.guild_id is None:
        require_view(emu, channel)
        return P.DM_PERMISSIONS
    perms = require(emu, channel, send_permission(channel), "sending a message")
    if payload.get("tts") and not perms & P.SEND_TTS_MESSAGES:
        raise missing_permissions(f"a TTS message in {describe(channel)} needs SEND_TTS_MESSAGES")
    if n_files and not perms & P.ATTACH_FILES:
        raise missing_permissions(f"uploading files in {describe(channel)} needs ATTACH_FILES")
    ref = payload.get("message_reference")
    if isinstance(ref, dict) and ref.get("message_id") and not perms & P.READ_MESSAGE_HISTORY:
        raise APIError(
            403,
            REPLY_WITHOUT_HISTORY,
            "Cannot reply without permission to read message history",
            rule="reply-without-history",
            detail=f"replying in {describe(channel)} needs READ_MESSAGE_HISTORY",
        )
    return perms


def check_emojis(emu: EmulatorContext, channel: Channel, components: list[JSON], prefix: limits.Path = ()) -> None:
    """Custom emojis in components need USE_EXTERNAL_EMOJIS (emulated guilds have no emojis of their own), for
    channel messages and webhook messages alike."""
    found = limits.custom_emojis(components)
    if not found or channel.guild_id is None:
        return
    if bot_permissions(emu, channel) & P.USE_EXTERNAL_EMOJIS:
        return
    problems = [
        limits.Problem(
            "component-emoji", path, "COMPONENT_INVALID_EMOJI", "Invalid emoji (the bot lacks USE_EXTERNAL_EMOJIS)"
        )
        for path in found
    ]
    raise limits.form_error(problems, prefix)


def check_webhook_tts(emu: EmulatorContext, channel: Channel, payload: JSON) -> None:
    if payload.get("tts") and channel.guild_id is not None and not bot_permissions(emu, channel) & P.SEND_TTS_MESSAGES:
        raise missing_permissions(f"a TTS message in {describe(channel)} needs SEND_TTS_MESSAGES")


def embeds_allowed(emu: EmulatorContext, channel: Channel, perms: int, embeds: list[JSON], route: str) -> bool:
    """Without EMBED_LINKS Discord accepts the message but drops its embeds: the emulator does the same and records
    an ``embed-links`` violation, since the bot lost what it meant to show."""
    if not embeds or channel.guild_id is None or perms & P.EMBED_LINKS:
        return True
    emu.violate("embed-links", f"{len(embeds)} embed(s) dropped in {describe(channel)}: no EMBED_LINKS", route)
    return False


def may_manage_threads(emu: EmulatorContext, channel: Channel) -> bool:
    return bool(bot_permissions(emu, channel) & P.MANAGE_THREADS)


def check_thread_post(emu: EmulatorContext, channel: Channel, *, webhook: bool) -> bool:
    """Before creating a message in a thread: refuse locked threads (channel posts without MANAGE_THREADS), and say
    whether the post unarchives it (True)."""
    if not channel.is_thread:
        return False
    manage = may_manage_threads(emu, channel)
    if channel.locked and not manage and (not webhook or channel.archived):
        if webhook:
            raise thread_archived(f"{describe(channel)} is archived and locked")
        raise thread_locked(f"{describe(channel)} is locked; posting there needs MANAGE_THREADS")
    return channel.archived


def check_thread_edit(emu: EmulatorContext, channel: Channel, *, webhook: bool) -> None:
    """Editing a (non-ephemeral) message: never in an archived thread; in a locked one only with MANAGE_THREADS."""
    if not channel.is_thread:
        return
    if channel.archived:
        raise thread_archived(f"{describe(channel)} is archived: unarchive it before editing its messages")
    if channel.locked and not webhook and not may_manage_threads(emu, channel):
        raise thread_locked(f"{describe(channel)} is locked; editing there needs MANAGE_THREADS")
