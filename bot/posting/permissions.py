"""Which Discord permissions the bot needs in a channel, and which are missing.

A game lasts days, and a permission taken away halfway stalls it; so ``/pyramid new``
refuses up front where a game could not be played, and ``/pyramid-admin check``
lists everything for an admin. The bot's own permissions in the channel come with
every interaction (``app_permissions``), computed by Discord itself, so no cache of
roles and overwrites can be out of date.

The labels and reasons are msgids, said in the reader's language (``lang``): the
labels as Discord's own settings name the switches in that language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import discord

from bot.games.presenter import ENGLISH
from i18n import N_, Lang

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
    Need("view_channel", N_("View Channel"), N_("to see the channel at all")),
    Need("send_messages", N_("Send Messages"), N_("to post boards and turns in the channel"), places=("channel",)),
    Need("send_messages", N_("Send Messages"), N_("to post challenge leaderboards and notices in the channel"),
         required=False, places=("threads",)),
    Need("create_public_threads", N_("Create Public Threads"), N_("to give each game its own thread"),
         places=("threads",)),
    Need("send_messages_in_threads", N_("Send Messages in Threads"), N_("to post boards and turns in a game's thread"),
         places=("threads", "thread")),
    Need("attach_files", N_("Attach Files"), N_("to post the board pictures")),
    Need("read_message_history", N_("Read Message History"), N_("to find and update earlier boards"),
         required=False),
    Need("manage_threads", N_("Manage Threads"), N_("to archive a finished game's thread and reopen archived ones"),
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


def refusal(permissions: discord.Permissions, channel: str, place: Place, lang: Lang | None = None) -> str | None:
    """Why no game can be opened here, naming each missing permission (in ``lang``);
    None when it can."""
    lang = lang or ENGLISH
    lacking = missing(permissions, place, required_only=True)
    if not lacking:
        return None
    listed = "\n".join(f"• **{lang.gettext(n.label)}** — {lang.gettext(n.why)}" for n in lacking)
    return lang.tr("❌ I can't host a game in {channel}: I am missing these permissions there:\n{listed}\n"
                   "A server admin can grant them to my role (or in the channel's permissions); "
                   "`/pyramid-admin check` lists everything I use.", channel=channel, listed=listed)


PLACES: dict[Place, str] = {
    "threads": N_("each game in a thread of its own"),
    "channel": N_("games in the channel itself"),
    "thread": N_("games in this thread"),
}


def report(permissions: discord.Permissions, channel: str, place: Place, lang: Lang | None = None) -> str:
    """Every permission the bot uses in ``channel``, marked ✅, ❌ (required) or ⚠️, in ``lang``."""
    lang = lang or ENGLISH
    lines = [lang.tr("🔎 **Pyramid Bot's permissions in {channel}** ({place}):", channel=channel,
                     place=lang.gettext(PLACES[place]))]
    for need in needs(place):
        have = permissions.administrator or getattr(permissions, need.flag)
        mark = "✅" if have else ("❌" if need.required else "⚠️")
        label, why = lang.gettext(need.label), lang.gettext(need.why)
        if need.required:
            lines.append(f"{mark} **{label}** — {why}")
        else:
            lines.append(lang.tr("{mark} **{label}** (recommended) — {why}", mark=mark, label=label, why=why))
    lacking = missing(permissions, place, required_only=True)
    if lacking:
        labels = ", ".join(lang.gettext(n.label) for n in lacking)
        lines.append(lang.trn("Games can't be played here until {labels} is granted.",
                              "Games can't be played here until {labels} are granted.", len(lacking), labels=labels))
    elif missing(permissions, place):
        lines.append(lang.gettext("Games can be played here; the ⚠️ ones make them smoother."))
    else:
        lines.append(lang.gettext("Everything is in place."))
    return "\n".join(lines)
