"""Which Discord permissions the bot needs in a channel, and which are missing.

A game lasts days, and a permission taken away halfway stalls it; so ``/pyramid new``
refuses up front where a game could not be played, and ``/pyramid-admin check``
lists everything for an admin. The bot's own permissions in the channel come with
every interaction (``app_permissions``), computed by Discord itself, so no cache of
roles and overwrites can be out of date.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import discord

#: Where a game opened here is played: each in a thread of its own (the server's
#: default), in the channel itself, or in the thread the command was used in.
Place = Literal["threads", "channel", "thread"]


@dataclass(frozen=True)
class Need:
    #: The attribute of :class:`discord.Permissions`.
    flag: str
    #: As Discord's server settings name it, so an admin can find the switch.
    label: str
    why: str
    #: Without it no game can be played here; otherwise something is only worse.
    required: bool = True
    #: Where it is needed; empty: everywhere.
    places: tuple[Place, ...] = ()


NEEDS: tuple[Need, ...] = (
    Need("view_channel", "View Channel", "to see the channel at all"),
    Need("send_messages", "Send Messages", "to post boards and turns in the channel", places=("channel",)),
    Need("send_messages", "Send Messages", "to post challenge leaderboards and notices in the channel",
         required=False, places=("threads",)),
    Need("create_public_threads", "Create Public Threads", "to give each game its own thread", places=("threads",)),
    Need("send_messages_in_threads", "Send Messages in Threads", "to post boards and turns in a game's thread",
         places=("threads", "thread")),
    Need("attach_files", "Attach Files", "to post the board pictures"),
    Need("embed_links", "Embed Links", "to show lobbies, rules and leaderboards as cards", required=False),
    Need("read_message_history", "Read Message History", "to find and update earlier boards", required=False),
    Need("manage_threads", "Manage Threads", "to archive a finished game's thread and reopen archived ones",
         required=False, places=("threads", "thread")),
)


def place_of(channel: object, use_threads: bool) -> Place:
    """Where a game opened from ``channel`` is played (threads have no threads of their own)."""
    if isinstance(channel, discord.Thread):
        return "thread"
    return "threads" if use_threads else "channel"


def needs(place: Place) -> list[Need]:
    """What games need here."""
    return [n for n in NEEDS if not n.places or place in n.places]


def missing(permissions: discord.Permissions, place: Place, *, required_only: bool = False) -> list[Need]:
    """The needs ``permissions`` lacks (an administrator lacks none)."""
    if permissions.administrator:
        return []
    return [n for n in needs(place) if (n.required or not required_only) and not getattr(permissions, n.flag)]


def refusal(permissions: discord.Permissions, channel: str, place: Place) -> str | None:
    """Why no game can be opened here, naming each missing permission; None when it can."""
    lacking = missing(permissions, place, required_only=True)
    if not lacking:
        return None
    listed = "\n".join(f"• **{n.label}** — {n.why}" for n in lacking)
    return (f"❌ I can't host a game in {channel}: I am missing these permissions there:\n{listed}\n"
            "A server admin can grant them to my role (or in the channel's permissions); "
            "`/pyramid-admin check` lists everything I use.")


PLACES: dict[Place, str] = {
    "threads": "each game in a thread of its own",
    "channel": "games in the channel itself",
    "thread": "games in this thread",
}


def report(permissions: discord.Permissions, channel: str, place: Place) -> str:
    """Every permission the bot uses in ``channel``, marked ✅, ❌ (required) or ⚠️."""
    lines = [f"🔎 **Pyramid Bot's permissions in {channel}** ({PLACES[place]}):"]
    for need in needs(place):
        have = permissions.administrator or getattr(permissions, need.flag)
        mark = "✅" if have else ("❌" if need.required else "⚠️")
        kind = "" if need.required else " (recommended)"
        lines.append(f"{mark} **{need.label}**{kind} — {need.why}")
    lacking = missing(permissions, place, required_only=True)
    if lacking:
        lines.append(f"Games can't be played here until {', '.join(n.label for n in lacking)} "
                     f"{'is' if len(lacking) == 1 else 'are'} granted.")
    elif missing(permissions, place):
        lines.append("Games can be played here; the ⚠️ ones make them smoother.")
    else:
        lines.append("Everything is in place.")
    return "\n".join(lines)
