"""What one user's Discord client shows: the servers and channels they can see, their DMs with the bot,
the messages of a channel as Discord's client receives them, and the commands it offers there.

Everything is read from the emulator's world with the same visibility rules the REST API and the harness use
(``World.can_access``, ``World.can_see``): another user's ephemeral reply, a private thread they are not in, or
someone else's DM never reaches this user's page.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from ..interactions import HarnessError, check_command_available
from ..model import Channel, User

if TYPE_CHECKING:
    from ..server import Emulator

JSON = dict[str, Any]


class UnknownUser(LookupError):
    """The page named a user the emulated world does not have."""


def find_user(emu: Emulator, name_or_id: str) -> User:
    """A person (not the bot) by username or id: who this browser tab is."""
    for user in emu.world.users.values():
        if user.bot:
            continue
        if user.username == name_or_id or str(user.id) == name_or_id:
            return user
    raise UnknownUser(f"there is no user {name_or_id!r} here")


def people(emu: Emulator) -> list[User]:
    """The users one can switch between: everyone but bots and the application's owner account."""
    return [u for u in emu.world.users.values() if not u.bot and u.id != emu.world.owner.id]


def user_json(user: User) -> JSON:
    return {"id": str(user.id), "username": user.username, "display_name": user.display_name, "bot": user.bot}


def channel_json(emu: Emulator, channel: Channel) -> JSON:
    data: JSON = {"id": str(channel.id), "type": channel.type, "name": channel.name}
    if channel.is_thread:
        data.update(parent_id=str(channel.parent_id), archived=channel.archived, locked=channel.locked)
    if channel.is_dm:
        data["recipients"] = [user_json(emu.world.users[u]) for u in channel.recipient_ids]
    if channel.guild_id is not None:
        data["guild_id"] = str(channel.guild_id)
    return data


def state(emu: Emulator, user: User) -> JSON:
    """The sidebar: servers with the channels and threads ``user`` can see, the DM with the bot, who is who
    (for mentions), and which messages pinged ``user`` (the client counts those it has not seen as a badge)."""
    world = emu.world
    guilds: list[JSON] = []
    visible: list[Channel] = []
    for guild in world.guilds.values():
        if user.id not in guild.member_ids:
            continue
        channels: list[JSON] = []
        for cid in guild.channel_ids:
            channel = world.channels.get(cid)
            if channel is None or not world.can_access(user, channel):
                continue
            threads = [t for t in world.threads_of(channel.id) if world.can_access(user, t)]
            visible += [channel, *threads]
            channels.append({**channel_json(emu, channel), "threads": [channel_json(emu, t) for t in threads]})
        guilds.append({"id": str(guild.id), "name": guild.name, "channels": channels})
    dm = world.dm_channel(user)  # opening the bot's DM, as the client does when you click its name
    assert dm is not None
    visible.append(dm)
    pings: dict[str, list[str]] = {}
    last: dict[str, str] = {}
    for channel in visible:
        seen = [m for m in world.channel_messages(channel.id) if world.can_see(user, m)]
        if seen:
            last[str(channel.id)] = str(seen[-1].id)
        mine = [str(m.id) for m in seen if user.id in m.pinged]
        if mine:
            pings[str(channel.id)] = mine
    names = {str(u.id): u.display_name for u in world.users.values()}
    channel_names = {str(c.id): c.name or "" for c in world.channels.values() if c.name}
    roles = {str(r.id): r.name for g in world.guilds.values() for r in g.roles.values()}
    return {
        "me": user_json(user),
        "bot": user_json(world.bot),
        "people": [user_json(u) for u in people(emu)],
        "guilds": guilds,
        # a DM is named after the other person in it: here, the bot
        "dms": [{**channel_json(emu, dm), "recipients": [user_json(world.bot)]}],
        "pings": pings,
        "last": last,
        "names": {"users": names, "channels": channel_names, "roles": roles},
    }


def messages(emu: Emulator, user: User, channel: Channel) -> list[JSON]:
    """The channel's messages ``user`` can see, oldest first, as Discord sends them to a client, plus whether
    each pinged this user."""
    world = emu.world
    out: list[JSON] = []
    for message in world.channel_messages(channel.id):
        if not world.can_see(user, message):
            continue
        data = world.message_payload(message)
        data["mentions_me"] = user.id in message.pinged
        out.append(data)
    return out


def commands(emu: Emulator, user: User, channel: Channel) -> list[JSON]:
    """The slash commands Discord's client offers ``user`` in ``channel`` (global and this guild's; those its
    ``contexts``, ``default_member_permissions`` or an archived thread hide are left out), as Discord sends
    them: with their options, choices and localizations."""
    found: list[JSON] = []
    for command in emu.world.commands.values():
        if command.type != 1 or command.guild_id not in (None, channel.guild_id):
            continue
        with contextlib.suppress(HarnessError):
            check_command_available(emu, command, user, channel)
            found.append(command.payload())
    return sorted(found, key=lambda c: str(c["name"]))
