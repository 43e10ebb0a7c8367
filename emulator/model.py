"""The emulated Discord world: users, guilds, channels/threads, messages, commands, interactions.

Plain dataclasses plus :class:`World`, which owns them and renders the JSON payloads discord.py parses.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from . import permissions as P
from .limits import BUTTON, SELECT_TYPES, iter_components

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1420070400000

# channel types
GUILD_TEXT = 0
DM = 1
GROUP_DM = 3
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = frozenset({10, PUBLIC_THREAD, PRIVATE_THREAD})

# message flags
SUPPRESS_EMBEDS = 1 << 2
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_COMPONENTS_V2 = 1 << 15

# interaction types
PING = 1
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# permissions: what test users get by default (everything but ADMINISTRATOR: they are moderators)
ALL_TEXT_PERMISSIONS = (1 << 47) - 1 - (1 << 3)

# overwrite types
ROLE_OVERWRITE, MEMBER_OVERWRITE = 0, 1

THREAD_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def iso(t: dt.datetime | None) -> str | None:
    return t.isoformat() if t is not None else None


class Snowflakes:
    """Monotonic, time-based ids (discord.py derives message age from them), on the emulator's clock."""

    def __init__(self, clock: Callable[[], dt.datetime] = now) -> None:
        self._last = 0
        self.clock = clock

    def next(self) -> int:
        value = (int(self.clock().timestamp() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(value, self._last + 1)
        return self._last

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """The next id whose timestamp part routes it to ``shard_id`` of ``shard_count`` (Discord's sharding
        formula, ``(id >> 22) % shard_count``): a guild that lands on a chosen shard. The id is at most
        ``shard_count - 1`` milliseconds ahead of the clock; later ids stay above it."""
        if not 0 <= shard_id < shard_count:
            raise ValueError(f"shard {shard_id} is not one of 0..{shard_count - 1}")
        stamp = self.next() >> 22
        stamp += (shard_id - stamp) % shard_count
        self._last = max(stamp << 22, self._last + 1)
        return self._last


@dataclass
class User:
    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    dms_open: bool = True
    locale: str = "en-US"
    #: The permissions of the role the user gets in every guild they join (on top of @everyone's): by default
    #: everything but ADMINISTRATOR, so MANAGE_GUILD too; pass less to test admin-only commands.
    permissions: int = ALL_TEXT_PERMISSIONS

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def display_name(self) -> str:
        return self.global_name or self.username

    def payload(self) -> JSON:
        p: JSON = {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0000" if self.bot else "0",
            "global_name": self.global_name,
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
        }
        if self.bot:
            p["bot"] = True
        return p


@dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    bot_id: int | None = None  # the bot's own role (created when the bot joins)

    def payload(self) -> JSON:
        p: JSON = {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }
        if self.bot_id is not None:
            p["tags"] = {"bot_id": str(self.bot_id)}
        return p


@dataclass
class Overwrite:
    """A channel permission overwrite for a role (type 0) or a member (type 1)."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0

    def payload(self) -> JSON:
        return {"id": str(self.id), "type": self.type, "allow": str(self.allow), "deny": str(self.deny)}


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    member_ids: list[int] = field(default_factory=list)
    channel_ids: list[int] = field(default_factory=list)
    joined_at: dt.datetime = field(default_factory=now)
    locale: str = "en-US"
    roles: dict[int, Role] = field(default_factory=dict)  # @everyone has the guild's id
    member_roles: dict[int, list[int]] = field(default_factory=dict)  # user id -> role ids (without @everyone)

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]

    def bot_role(self, bot_id: int) -> Role | None:
        return next((r for r in self.roles.values() if r.bot_id == bot_id), None)

    def roles_payload(self) -> list[JSON]:
        return [r.payload() for r in sorted(self.roles.values(), key=lambda r: (r.position, r.id))]


@dataclass
class Channel:
    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    topic: str | None = None
    recipient_ids: list[int] = field(default_factory=list)
    last_message_id: int | None = None
    overwrites: dict[int, Overwrite] = field(default_factory=dict)  # role/member id -> overwrite (not threads)
    rate_limit_per_user: int = 0
    default_auto_archive_duration: int = 1440
    # threads
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    archive_timestamp: dt.datetime = field(default_factory=now)
    created_at: dt.datetime = field(default_factory=now)
    #: last "activity" (a message, unarchiving, changing auto_archive_duration): the auto-archive timer's start
    active_since: dt.datetime = field(default_factory=now)
    member_ids: set[int] = field(default_factory=set)
    message_count: int = 0
    total_message_sent: int = 0
    starter_message_id: int | None = None

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    @property
    def is_group_dm(self) -> bool:
        """A group DM: users only (a bot is never in one); an app reaches it only through interactions."""
        return self.type == GROUP_DM

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def __repr__(self) -> str:
        return f"<Channel {self.name or self.type} id={self.id}>"


@dataclass
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None
    url: str
    description: str | None = None
    ephemeral: bool = False

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def is_png(self) -> bool:
        return self.data[:8] == b"\x89PNG\r\n\x1a\n"

    @property
    def is_image(self) -> bool:
        """A picture Discord shows inline (PNG, GIF, JPEG, WebP), by its bytes; its ``description`` is its alt text."""
        d = self.data
        return (
            self.is_png
            or d[:6] in (b"GIF87a", b"GIF89a")
            or d[:3] == b"\xff\xd8\xff"
            or (d[:4] == b"RIFF" and d[8:12] == b"WEBP")
        )

    def image_size(self) -> tuple[int, int] | None:
        if self.is_png and len(self.data) >= 24:
            w, h = struct.unpack(">II", self.data[16:24])
            return int(w), int(h)
        return None

    def payload(self) -> JSON:
        p: JSON = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            "flags": 0,
        }
        if self.description is not None:
            p["description"] = self.description
        if self.ephemeral:
            p["ephemeral"] = True
        wh = self.image_size()
        if wh is not None:
            p["width"], p["height"] = wh
        return p


def resolve_media_urls(components: list[JSON], attachments: list[Attachment]) -> list[JSON]:
    """``attachment://name`` in media galleries, thumbnails and file components, shown as the attachment's URL with
    its ``attachment_id``, as Discord returns them (the message keeps the components as sent)."""
    if not any(c.get("type") in (11, 12, 13) for c in _walk(components)):
        return components
    by_name = {a.filename: a for a in attachments}
    out: list[JSON] = json.loads(json.dumps(components))

    def fix(media: Any) -> None:
        if isinstance(media, dict) and isinstance(media.get("url"), str) and media["url"].startswith("attachment://"):
            att = by_name.get(media["url"].removeprefix("attachment://"))
            if att is not None:
                media.update(url=att.url, proxy_url=att.url, attachment_id=str(att.id), content_type=att.content_type)
                wh = att.image_size()
                if wh is not None:
                    media["width"], media["height"] = wh

    for c in _walk(out):
        if c.get("type") == 12:
            for item in c.get("items") or []:
                if isinstance(item, dict):
                    fix(item.get("media"))
        elif c.get("type") == 11:
            fix(c.get("media"))
        elif c.get("type") == 13:
            fix(c.get("file"))
    return out


def _walk(components: list[JSON]) -> Iterator[JSON]:
    for _, c in iter_components(components):
        yield c


@dataclass
class Message:
    id: int
    channel_id: int
    guild_id: int | None
    author: User
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    tts: bool = False
    timestamp: dt.datetime = field(default_factory=now)
    edited_timestamp: dt.datetime | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_metadata: JSON | None = None
    visible_to: int | None = None  # ephemeral: the only user who sees it
    thread_id: int | None = None  # thread started from this message
    message_reference: JSON | None = None
    poll: JSON | None = None
    reactions: dict[str, set[int]] = field(default_factory=dict)
    deleted: bool = False
    history: list[JSON] = field(default_factory=list)  # earlier versions (content/embeds/components)
    unarchived_thread: bool = False  # posting it unarchived its thread (THREAD_UPDATE goes out with MESSAGE_CREATE)
    #: Users this message notified when it was posted: those its content mentions, as far as its
    #: allowed_mentions let through; nobody for an @silent (SUPPRESS_NOTIFICATIONS) or ephemeral message.
    pinged: frozenset[int] = frozenset()

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def is_card(self) -> bool:
        """Flagged IS_COMPONENTS_V2: everything it says and shows is in its components."""
        return bool(self.flags & IS_COMPONENTS_V2)

    @property
    def silent(self) -> bool:
        """Sent with SUPPRESS_NOTIFICATIONS (@silent)."""
        return bool(self.flags & SUPPRESS_NOTIFICATIONS)

    @property
    def edited(self) -> bool:
        return self.edited_timestamp is not None

    def buttons(self) -> list[JSON]:
        return [c for c in _walk(self.components) if c.get("type") == BUTTON]

    def selects(self) -> list[JSON]:
        return [c for c in _walk(self.components) if c.get("type") in SELECT_TYPES]

    @property
    def button_labels(self) -> list[str]:
        return [str(b.get("label") or "") for b in self.buttons()]

    @property
    def text(self) -> str:
        """Content plus every embed's text, for loose assertions."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.get("title") or "", e.get("description") or ""]
            parts += [f"{f.get('name', '')}\n{f.get('value', '')}" for f in e.get("fields") or []]
            parts += [(e.get("footer") or {}).get("text") or "", (e.get("author") or {}).get("name") or ""]
        for c in _walk(self.components):
            if c.get("type") == 10:  # components v2 text display
                parts.append(c.get("content") or "")
        return "\n".join(p for p in parts if p)

    def text_displays(self) -> list[str]:
        """The markdown of the text displays of a components-v2 message, in order (a card's text)."""
        return [str(c.get("content") or "") for c in _walk(self.components) if c.get("type") == 10]

    def media(self) -> list[tuple[Attachment | None, str | None]]:
        """Every picture a components-v2 message shows (media gallery items, thumbnails), with its alt text (the
        item's ``description``): the attachment it resolved to, or None for an outside URL."""
        by_url = {a.url: a for a in self.attachments} | {f"attachment://{a.filename}": a for a in self.attachments}
        found: list[tuple[Attachment | None, str | None]] = []
        for c in _walk(self.components):
            items = c.get("items") or [] if c.get("type") == 12 else [c] if c.get("type") == 11 else []
            for item in items:
                url = (item.get("media") or {}).get("url")
                found.append((by_url.get(str(url)), item.get("description")))
        return found

    def png_attachments(self) -> list[Attachment]:
        return [a for a in self.attachments if a.is_png]

    def attachment(self, filename: str) -> Attachment:
        for a in self.attachments:
            if a.filename == filename:
                return a
        raise KeyError(f"{self!r} has no attachment {filename!r} (has {[a.filename for a in self.attachments]})")

    def embed_image(self, index: int = 0) -> Attachment | None:
        """The attachment an embed's image points at (``attachment://…`` resolved), if any."""
        url = ((self.embeds[index].get("image") or {}) if index < len(self.embeds) else {}).get("url")
        return next((a for a in self.attachments if a.url == url), None)

    def __repr__(self) -> str:
        flags = " ephemeral" if self.ephemeral else ""
        return f"<Message id={self.id} channel={self.channel_id}{flags} content={self.content[:40]!r}>"


@dataclass
class Command:
    id: int
    application_id: int
    name: str
    type: int
    raw: JSON
    guild_id: int | None = None
    version: int = 1

    def payload(self) -> JSON:
        p: JSON = {
            "default_member_permissions": None,
            "dm_permission": True,
            "contexts": None,
            "integration_types": [0],
            "nsfw": False,
            "description": "",
            "options": [],
        }
        p.update({k: v for k, v in self.raw.items() if k != "dm_permission"})
        # Discord answers with its own representation: the bitfield as a string, the installation contexts filled in
        perms = p.get("default_member_permissions")
        p["default_member_permissions"] = None if perms is None else str(perms)
        if p.get("integration_types") is None:
            p["integration_types"] = [0]
        p["dm_permission"] = self.raw.get("dm_permission", p.get("contexts") is None or 1 in (p.get("contexts") or []))
        p.update(
            id=str(self.id),
            application_id=str(self.application_id),
            version=str(self.version),
            type=self.type,
            name=self.name,
        )
        if self.guild_id is not None:
            p["guild_id"] = str(self.guild_id)
        else:
            p.pop("guild_id", None)
        return p


@dataclass
class Interaction:
    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    guild_id: int | None
    data: JSON
    payload: JSON
    created_at: float  # loop time of dispatch
    deadline: float  # loop time: the 3-second rule runs on real time
    created_wall: dt.datetime  # the emulator's clock at dispatch: the 15-minute token lifetime runs on it
    message_id: int | None = None  # component/modal: the message the component is on
    response_type: int | None = None
    responded_at: float | None = None
    original_message_id: int | None = None
    #: deferred "thinking" and not yet completed: in lenient mode (Emulator(strict=False)) the first follow-up
    #: edits the loading message, Discord's deprecated backwards-compatible behaviour
    awaiting_first_followup: bool = False
    followup_ids: list[int] = field(default_factory=list)
    choices: list[JSON] | None = None
    modal: JSON | None = None
    rejected: list[str] = field(default_factory=list)
    late: bool = False
    #: initial responses that reached Discord in time and are still being read: the deadline is met on arrival
    callbacks_in_flight: int = 0
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    #: authorizing_integration_owners: "0" guild install (guild id, "0" in the bot's DM), "1" user install (user id)
    owners: dict[str, str] = field(default_factory=dict)
    #: False where only a user install reaches and the user may not post (or lacks USE_EXTERNAL_APPS): Discord
    #: then shows the responses to the user alone
    public_allowed: bool = True

    @property
    def responded(self) -> bool:
        return self.response_type is not None


class World:
    """All state, plus payload rendering. No I/O here."""

    def __init__(self, *, bot_name: str = "PyramidBot", clock: Callable[[], dt.datetime] = now) -> None:
        self.clock = clock
        self.ids = Snowflakes(self.now)
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        #: every file attached to a message (created, or added by an edit), in order, with its message: what a
        #: message holds now may have replaced earlier pictures, and a test may want to check them all
        self.uploads: list[tuple[Message, Attachment]] = []
        #: Files users chose in modals' file uploads: the client puts them on Discord's CDN before it submits
        #: the modal, which names them by attachment id (``resolved.attachments``); served like message files.
        self.modal_files: dict[int, Attachment] = {}
        #: message ids per channel, in creation (= id) order: reading a channel must not scan the world
        self.channel_index: dict[int, list[int]] = {}
        self.commands: dict[int, Command] = {}
        self.interactions: dict[int, Interaction] = {}
        self.interactions_by_token: dict[str, Interaction] = {}
        #: installation contexts the app supports (developer portal, Installation → Installation Contexts):
        #: 0 GUILD_INSTALL, 1 USER_INSTALL; new apps get both
        self.app_integration_types: set[int] = {0, 1}
        #: users who installed the app to their account (user install): its commands follow them everywhere
        self.user_installs: set[int] = set()
        self.bot = self.add_user(bot_name, bot=True)
        self.owner = self.add_user("app-owner")
        self.application_id = self.bot.id

    def now(self) -> dt.datetime:
        """The emulator's clock (``Emulator.advance`` moves it)."""
        return self.clock()

    # --- creation -----------------------------------------------------------------------------------------------

    def add_user(
        self, username: str, *, bot: bool = False, dms_open: bool = True, global_name: str | None = None
    ) -> User:
        u = User(self.ids.next(), username, global_name=global_name, bot=bot, dms_open=dms_open)
        self.users[u.id] = u
        return u

    def add_guild(self, name: str, *, shard: tuple[int, int] | None = None, bot: bool = True) -> Guild:
        """A guild with the bot (unless ``bot`` is False: the app is not installed there) and the app's owner in it;
        ``shard`` (shard_id, shard_count): its id routes its events to that shard."""
        gid = self.ids.next() if shard is None else self.ids.next_on_shard(*shard)
        g = Guild(gid, name, owner_id=self.owner.id, joined_at=self.now())
        g.roles[g.id] = Role(g.id, "@everyone", P.DEFAULT_EVERYONE)
        self.guilds[g.id] = g
        if bot:
            self.add_member(g, self.bot)
        self.add_member(g, self.owner)
        return g

    def add_role(self, guild: Guild, name: str, permissions: int, *, bot_id: int | None = None) -> Role:
        position = max((r.position for r in guild.roles.values()), default=0) + 1
        role = Role(self.ids.next(), name, permissions, position=position, managed=bot_id is not None, bot_id=bot_id)
        guild.roles[role.id] = role
        return role

    def add_member(self, guild: Guild, user: User, *, roles: list[Role] | None = None) -> None:
        """Make ``user`` a member. The bot gets its managed role (the invite's permissions), a test user a role with
        ``user.permissions`` (shared by every user with the default permissions), unless ``roles`` are given."""
        if user.id not in guild.member_ids:
            guild.member_ids.append(user.id)
        if roles is not None:
            guild.member_roles[user.id] = [r.id for r in roles]
            return
        if user.bot:
            role = guild.bot_role(user.id) or self.add_role(guild, user.username, P.DEFAULT_BOT, bot_id=user.id)
        elif user.id == guild.owner_id:
            guild.member_roles.setdefault(user.id, [])
            return
        else:
            name = "Moderators" if user.permissions == ALL_TEXT_PERMISSIONS else f"{user.username}'s role"
            found = next((r for r in guild.roles.values() if r.name == name and not r.managed), None)
            role = found or self.add_role(guild, name, user.permissions)
        guild.member_roles[user.id] = [role.id]

    def add_channel(self, guild: Guild, name: str, *, type: int = GUILD_TEXT, topic: str | None = None) -> Channel:
        t = self.now()
        c = Channel(
            self.ids.next(),
            type,
            name=name,
            guild_id=guild.id,
            position=len(guild.channel_ids),
            topic=topic,
            created_at=t,
            archive_timestamp=t,
            active_since=t,
        )
        self.channels[c.id] = c
        guild.channel_ids.append(c.id)
        return c

    def add_group_dm(self, users: list[User]) -> Channel:
        """A group DM of ``users`` (a bot cannot be a recipient)."""
        t = self.now()
        c = Channel(
            self.ids.next(),
            GROUP_DM,
            recipient_ids=[u.id for u in users],
            owner_id=users[0].id if users else None,
            created_at=t,
            archive_timestamp=t,
            active_since=t,
        )
        self.channels[c.id] = c
        return c

    def bot_present(self, ch: Channel) -> bool:
        """Whether the bot user is in ``ch`` at all: its DMs, the guilds it was added to (guild install); never a
        group DM. Where it is not, it gets no events and cannot use the channel routes."""
        if ch.is_dm:
            return True
        if ch.is_group_dm:
            return False
        guild = self.guilds.get(ch.guild_id or 0)
        return guild is not None and self.bot.id in guild.member_ids

    def dm_channel(self, user: User, *, create: bool = True) -> Channel | None:
        for c in self.channels.values():
            if c.is_dm and c.recipient_ids == [user.id]:
                return c
        if not create:
            return None
        t = self.now()
        c = Channel(self.ids.next(), DM, recipient_ids=[user.id], created_at=t, archive_timestamp=t, active_since=t)
        self.channels[c.id] = c
        return c

    # --- lookups ------------------------------------------------------------------------------------------------

    def add_message(self, msg: Message) -> None:
        self.messages[msg.id] = msg
        self.channel_index.setdefault(msg.channel_id, []).append(msg.id)
        self.note_uploads(msg, msg.attachments)

    def note_uploads(self, msg: Message, attachments: list[Attachment]) -> None:
        """Attachments newly on ``msg`` (see ``uploads``)."""
        self.uploads.extend((msg, a) for a in attachments)

    def channel_messages(self, channel_id: int, *, include_deleted: bool = False) -> list[Message]:
        msgs = (self.messages[i] for i in self.channel_index.get(channel_id, ()))
        return [m for m in msgs if include_deleted or not m.deleted]

    def threads_of(self, channel_id: int) -> list[Channel]:
        return sorted(
            (c for c in self.channels.values() if c.parent_id == channel_id and c.is_thread), key=lambda c: c.id
        )

    def can_see(self, user: User, message: Message) -> bool:
        if message.deleted:
            return False
        if message.visible_to is not None and message.visible_to != user.id:
            return False
        return self.can_access(user, self.channels[message.channel_id])

    def can_access(self, user: User, ch: Channel) -> bool:
        """Whether ``user`` sees ``ch`` at all (DM recipient, or VIEW_CHANNEL there; private threads: a member of
        the thread or MANAGE_THREADS)."""
        return bool(self.permissions(user, ch) & P.VIEW_CHANNEL)

    # --- permissions --------------------------------------------------------------------------------------------

    def base_permissions(self, guild: Guild, user: User) -> int:
        """Guild-level permissions: @everyone's plus the member's roles' (everything for the owner or an admin)."""
        if user.id == guild.owner_id:
            return P.ALL
        if user.id not in guild.member_ids:
            return 0
        value = guild.everyone.permissions
        for rid in guild.member_roles.get(user.id, []):
            role = guild.roles.get(rid)
            if role is not None:
                value |= role.permissions
        return P.ALL if value & P.ADMINISTRATOR else value

    def overwrite_target(self, ch: Channel) -> Channel:
        """The channel whose overwrites apply: a thread's parent."""
        if ch.is_thread and ch.parent_id in self.channels:
            return self.channels[ch.parent_id or 0]
        return ch

    def permissions(self, user: User, ch: Channel) -> int:
        """``user``'s permissions in ``ch``, the documented way (see ``permissions.py``)."""
        if ch.is_dm:
            return P.DM_PERMISSIONS if user.id in ch.recipient_ids or user.id == self.bot.id else 0
        if ch.is_group_dm:
            return P.DM_PERMISSIONS if user.id in ch.recipient_ids else 0
        guild = self.guilds.get(ch.guild_id or 0)
        if guild is None or user.id not in guild.member_ids:
            return 0
        base = self.base_permissions(guild, user)
        if base == P.ALL:
            return P.ALL
        value = base
        target = self.overwrite_target(ch)
        member_roles = set(guild.member_roles.get(user.id, []))
        everyone = target.overwrites.get(guild.id)
        if everyone is not None and everyone.type == ROLE_OVERWRITE:
            value = (value & ~everyone.deny) | everyone.allow
        allow = deny = 0
        for ow in target.overwrites.values():
            if ow.type == ROLE_OVERWRITE and ow.id in member_roles:
                allow |= ow.allow
                deny |= ow.deny
        value = (value & ~deny) | allow
        member = target.overwrites.get(user.id)
        if member is not None and member.type == MEMBER_OVERWRITE:
            value = (value & ~member.deny) | member.allow
        value = P.apply_implicit(value, thread=ch.is_thread)
        if ch.type == PRIVATE_THREAD and user.id not in ch.member_ids and not value & P.MANAGE_THREADS:
            value &= ~P.ALL_CHANNEL
        return value

    def has(self, user: User, ch: Channel, permission: int) -> bool:
        return self.permissions(user, ch) & permission == permission

    # --- threads ------------------------------------------------------------------------------------------------

    def threads_due_to_archive(self) -> list[Channel]:
        """Active threads whose ``auto_archive_duration`` minutes of inactivity have passed on the emulator's clock."""
        t = self.now()
        return [
            c
            for c in self.channels.values()
            if c.is_thread and not c.archived and t - c.active_since >= dt.timedelta(minutes=c.auto_archive_duration)
        ]

    # --- payloads -----------------------------------------------------------------------------------------------

    def member_payload(self, guild: Guild, user: User, *, permissions: int | None = None) -> JSON:
        """``permissions``: the member's permissions in the interaction's channel (interaction payloads only)."""
        p: JSON = {
            "user": user.payload(),
            "roles": [str(r) for r in guild.member_roles.get(user.id, [])],
            "nick": None,
            "avatar": None,
            "banner": None,
            "joined_at": iso(guild.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if permissions is not None:
            p["permissions"] = str(permissions)
        return p

    def channel_payload(self, c: Channel) -> JSON:
        if c.is_group_dm:
            return {
                "id": str(c.id),
                "type": GROUP_DM,
                "name": c.name,
                "icon": None,
                "owner_id": str(c.owner_id),
                "last_message_id": str(c.last_message_id) if c.last_message_id else None,
                "recipients": [self.users[u].payload() for u in c.recipient_ids],
                "flags": 0,
            }
        if c.is_dm:
            return {
                "id": str(c.id),
                "type": DM,
                "last_message_id": str(c.last_message_id) if c.last_message_id else None,
                "recipients": [self.users[u].payload() for u in c.recipient_ids],
                "flags": 0,
            }
        p: JSON = {
            "id": str(c.id),
            "type": c.type,
            "guild_id": str(c.guild_id),
            "name": c.name,
            "last_message_id": str(c.last_message_id) if c.last_message_id else None,
            "rate_limit_per_user": c.rate_limit_per_user,
            "flags": 0,
        }
        if c.is_thread:
            p.update(
                parent_id=str(c.parent_id),
                owner_id=str(c.owner_id),
                message_count=c.message_count,
                total_message_sent=c.total_message_sent,
                member_count=min(len(c.member_ids), 50),
                thread_metadata={
                    "archived": c.archived,
                    "auto_archive_duration": c.auto_archive_duration,
                    "archive_timestamp": iso(c.archive_timestamp),
                    "locked": c.locked,
                    "invitable": c.invitable,
                    "create_timestamp": iso(c.created_at),
                },
            )
        else:
            p.update(
                position=c.position,
                permission_overwrites=[ow.payload() for ow in c.overwrites.values()],
                parent_id=str(c.parent_id) if c.parent_id else None,
                topic=c.topic,
                nsfw=False,
                default_auto_archive_duration=c.default_auto_archive_duration,
                default_thread_rate_limit_per_user=0,
            )
        return p

    def thread_member_payload(self, thread: Channel, user_id: int) -> JSON:
        return {"id": str(thread.id), "user_id": str(user_id), "join_timestamp": iso(thread.created_at), "flags": 0}

    def message_payload(self, m: Message) -> JSON:
        p: JSON = {
            "id": str(m.id),
            "channel_id": str(m.channel_id),
            "type": m.type,
            "content": m.content,
            "author": m.author.payload(),
            "timestamp": iso(m.timestamp),
            "edited_timestamp": iso(m.edited_timestamp),
            "tts": m.tts,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in m.attachments],
            "embeds": m.embeds,
            "components": resolve_media_urls(m.components, m.attachments),
            "pinned": False,
            "flags": m.flags,
        }
        if m.guild_id is not None:
            p["guild_id"] = str(m.guild_id)
        if m.webhook_id is not None:
            p["webhook_id"] = str(m.webhook_id)
        if m.application_id is not None:
            p["application_id"] = str(m.application_id)
        if m.interaction_metadata is not None:
            p["interaction_metadata"] = m.interaction_metadata
        if m.message_reference is not None:
            p["message_reference"] = m.message_reference
        if m.poll is not None:
            p["poll"] = m.poll
        if any(m.reactions.values()):
            p["reactions"] = [
                {
                    "emoji": {"id": None, "name": emoji},
                    "count": len(users),
                    "count_details": {"burst": 0, "normal": len(users)},
                    "me": self.bot.id in users,
                    "me_burst": False,
                    "burst_colors": [],
                }
                for emoji, users in m.reactions.items()
                if users
            ]
        if m.thread_id is not None and m.thread_id in self.channels:
            p["thread"] = self.channel_payload(self.channels[m.thread_id])
        return p

    def guild_payload(self, g: Guild, *, all_members: bool) -> JSON:
        member_ids = g.member_ids if all_members else [self.bot.id]
        active_threads = [
            self.channel_payload(c)
            for c in self.channels.values()
            if c.guild_id == g.id and c.is_thread and not c.archived and self.can_access(self.bot, c)
        ]
        return {
            "id": str(g.id),
            "name": g.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(g.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "roles": g.roles_payload(),
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": g.locale,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": iso(g.joined_at),
            "large": False,
            "unavailable": False,
            "member_count": len(g.member_ids),
            "members": [self.member_payload(g, self.users[u]) for u in member_ids],
            "channels": [self.channel_payload(self.channels[c]) for c in g.channel_ids],
            "threads": active_threads,
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }
