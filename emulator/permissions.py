"""Discord's permission bits and how a member's permissions in a channel are computed.

The computation follows Discord's documented order (topics/permissions, "Permission Overwrites"): base permissions
from @everyone and the member's roles (the guild owner and ADMINISTRATOR get everything), then the channel's
overwrites: @everyone, the member's roles (deny then allow), the member. Then the implicit rules: without
VIEW_CHANNEL nothing in the channel is allowed, and without SEND_MESSAGES (SEND_MESSAGES_IN_THREADS in a thread)
neither are EMBED_LINKS, ATTACH_FILES, SEND_TTS_MESSAGES and MENTION_EVERYONE. Threads have no overwrites of their
own: they take their parent channel's. This is exactly what discord.py's ``channel.permissions_for(member)``
computes from the READY/GUILD_CREATE payloads, so the bot sees the same permissions the emulator enforces.
"""

from __future__ import annotations

from collections.abc import Iterable

# name -> bit (Discord's constant names, lower-cased; discord.py uses the same attribute names)
FLAGS: dict[str, int] = {
    "create_instant_invite": 1 << 0,
    "kick_members": 1 << 1,
    "ban_members": 1 << 2,
    "administrator": 1 << 3,
    "manage_channels": 1 << 4,
    "manage_guild": 1 << 5,
    "add_reactions": 1 << 6,
    "view_audit_log": 1 << 7,
    "priority_speaker": 1 << 8,
    "stream": 1 << 9,
    "view_channel": 1 << 10,
    "send_messages": 1 << 11,
    "send_tts_messages": 1 << 12,
    "manage_messages": 1 << 13,
    "embed_links": 1 << 14,
    "attach_files": 1 << 15,
    "read_message_history": 1 << 16,
    "mention_everyone": 1 << 17,
    "use_external_emojis": 1 << 18,
    "view_guild_insights": 1 << 19,
    "connect": 1 << 20,
    "speak": 1 << 21,
    "mute_members": 1 << 22,
    "deafen_members": 1 << 23,
    "move_members": 1 << 24,
    "use_vad": 1 << 25,
    "change_nickname": 1 << 26,
    "manage_nicknames": 1 << 27,
    "manage_roles": 1 << 28,
    "manage_webhooks": 1 << 29,
    "manage_guild_expressions": 1 << 30,
    "use_application_commands": 1 << 31,
    "request_to_speak": 1 << 32,
    "manage_events": 1 << 33,
    "manage_threads": 1 << 34,
    "create_public_threads": 1 << 35,
    "create_private_threads": 1 << 36,
    "use_external_stickers": 1 << 37,
    "send_messages_in_threads": 1 << 38,
    "use_embedded_activities": 1 << 39,
    "moderate_members": 1 << 40,
    "view_creator_monetization_analytics": 1 << 41,
    "use_soundboard": 1 << 42,
    "create_guild_expressions": 1 << 43,
    "create_events": 1 << 44,
    "use_external_sounds": 1 << 45,
    "send_voice_messages": 1 << 46,
    "set_voice_channel_status": 1 << 48,
    "send_polls": 1 << 49,
    "use_external_apps": 1 << 50,
    "pin_messages": 1 << 51,
    "bypass_slowmode": 1 << 52,
}
# discord.py's other names for the same bits
ALIASES: dict[str, str] = {
    "read_messages": "view_channel",
    "manage_permissions": "manage_roles",
    "external_emojis": "use_external_emojis",
    "external_stickers": "use_external_stickers",
    "manage_expressions": "manage_guild_expressions",
    "manage_emojis": "manage_guild_expressions",
    "create_expressions": "create_guild_expressions",
}

ALL = 0
for _bit in FLAGS.values():
    ALL |= _bit

ADMINISTRATOR = FLAGS["administrator"]
VIEW_CHANNEL = FLAGS["view_channel"]
SEND_MESSAGES = FLAGS["send_messages"]
SEND_TTS_MESSAGES = FLAGS["send_tts_messages"]
MANAGE_MESSAGES = FLAGS["manage_messages"]
EMBED_LINKS = FLAGS["embed_links"]
ATTACH_FILES = FLAGS["attach_files"]
READ_MESSAGE_HISTORY = FLAGS["read_message_history"]
MENTION_EVERYONE = FLAGS["mention_everyone"]
USE_EXTERNAL_EMOJIS = FLAGS["use_external_emojis"]
ADD_REACTIONS = FLAGS["add_reactions"]
MANAGE_CHANNELS = FLAGS["manage_channels"]
MANAGE_GUILD = FLAGS["manage_guild"]
MANAGE_ROLES = FLAGS["manage_roles"]
MANAGE_THREADS = FLAGS["manage_threads"]
CREATE_PUBLIC_THREADS = FLAGS["create_public_threads"]
CREATE_PRIVATE_THREADS = FLAGS["create_private_threads"]
SEND_MESSAGES_IN_THREADS = FLAGS["send_messages_in_threads"]
USE_APPLICATION_COMMANDS = FLAGS["use_application_commands"]

#: Guild-wide permissions that channel overwrites cannot grant and that "no VIEW_CHANNEL" does not take away
#: (discord.py's ``Permissions.all_channel()`` is everything else).
GUILD_ONLY = (
    FLAGS["kick_members"]
    | FLAGS["ban_members"]
    | ADMINISTRATOR
    | MANAGE_GUILD
    | FLAGS["view_audit_log"]
    | FLAGS["view_guild_insights"]
    | FLAGS["change_nickname"]
    | FLAGS["manage_nicknames"]
    | FLAGS["manage_guild_expressions"]
    | FLAGS["moderate_members"]
    | FLAGS["view_creator_monetization_analytics"]
    | FLAGS["create_guild_expressions"]
    | FLAGS["create_events"]
    | FLAGS["manage_events"]
)
ALL_CHANNEL = ALL & ~GUILD_ONLY

#: Voice permissions, which mean nothing in a text channel (discord.py masks them out there too).
VOICE = (
    FLAGS["priority_speaker"]
    | FLAGS["stream"]
    | FLAGS["connect"]
    | FLAGS["speak"]
    | FLAGS["mute_members"]
    | FLAGS["deafen_members"]
    | FLAGS["move_members"]
    | FLAGS["use_vad"]
    | FLAGS["use_embedded_activities"]
    | FLAGS["use_soundboard"]
    | FLAGS["use_external_sounds"]
    | FLAGS["set_voice_channel_status"]
)

#: @everyone in a new server (roughly Discord's defaults: talking, threads, reactions, files, embeds, commands;
#: no MENTION_EVERYONE and nothing that manages anything).
DEFAULT_EVERYONE = (
    FLAGS["create_instant_invite"]
    | ADD_REACTIONS
    | FLAGS["stream"]
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | FLAGS["connect"]
    | FLAGS["speak"]
    | FLAGS["use_vad"]
    | FLAGS["change_nickname"]
    | USE_APPLICATION_COMMANDS
    | FLAGS["request_to_speak"]
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | FLAGS["use_external_stickers"]
    | SEND_MESSAGES_IN_THREADS
    | FLAGS["use_embedded_activities"]
    | FLAGS["use_soundboard"]
    | FLAGS["use_external_sounds"]
    | FLAGS["send_voice_messages"]
    | FLAGS["send_polls"]
    | FLAGS["use_external_apps"]
)

#: What a bot has in a DM channel (no roles there).
DM_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | ADD_REACTIONS
    | USE_EXTERNAL_EMOJIS
    | SEND_TTS_MESSAGES
)

#: What the bot's own (managed) role gets by default: the permissions its invite link asks for (see the README).
DEFAULT_BOT = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | SEND_MESSAGES_IN_THREADS
    | CREATE_PUBLIC_THREADS
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | MANAGE_THREADS
)


def bit(name: str) -> int:
    """The bit of a permission named like Discord's constant or discord.py's attribute ("attach_files")."""
    key = name.lower()
    key = ALIASES.get(key, key)
    if key not in FLAGS:
        raise KeyError(f"unknown permission {name!r} (known: {', '.join(sorted(FLAGS))})")
    return FLAGS[key]


def names(value: int) -> list[str]:
    return [name for name, b in FLAGS.items() if value & b]


def value_of(permissions: int | Iterable[str]) -> int:
    if isinstance(permissions, int):
        return permissions
    out = 0
    for name in permissions:
        out |= bit(name)
    return out


def apply_implicit(permissions: int, *, thread: bool) -> int:
    """Discord's implicit denials (and discord.py's): no VIEW_CHANNEL, nothing in the channel; no way to send,
    no embeds/files/TTS/@everyone; no voice permissions in a text channel."""
    send = SEND_MESSAGES_IN_THREADS if thread else SEND_MESSAGES
    if not permissions & send:
        permissions &= ~(SEND_TTS_MESSAGES | MENTION_EVERYONE | EMBED_LINKS | ATTACH_FILES)
    if not permissions & VIEW_CHANNEL:
        permissions &= ~ALL_CHANNEL
    if not thread:
        permissions &= ~VOICE
    return permissions
