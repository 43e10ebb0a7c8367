"""Where a game may be seen and touched from.

Nothing Discord sends can be taken as proof of place: a command may name any game
number, and a client may send a component interaction with any custom id (ours
carry the game's number), from any server, channel or DM. So every look at a game
and every click is checked here against the game's own record:

- who may see a game at all is the one rule of :mod:`bot.core.visibility`
  (:func:`seen_by` asks it for an interaction): its server's members, its players by DM,
  a group DM's members from there, a shared deal's player alone;
- its public controls (lobby buttons, 🔄, a challenge's ▶) work only in the channel
  they were posted in or the game's thread;
- its player controls (▶ Your move, the picker, 🂠 My hand) work in its own server
  or in a DM, and then only for the seat's player (checked by the caller).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

from bot.core.errors import PlayError
from bot.core.visibility import Seen, Viewer, admit, places
from bot.interactions.surfaces import in_bot_dm
from bot.store import GameRecord, GameStore
from i18n import N_

Interaction = discord.Interaction[Any]

#: Translated where it is shown (``bot.interactions.replies.explain``).
ELSEWHERE = N_("This button belongs to a game in another channel; use it there.")


def game_places(record: GameRecord) -> set[int]:
    """The channels a game's public messages live in: its channel and its thread."""
    return places(record)


def viewer_of(interaction: Interaction) -> Viewer:
    """Who asks, from where: what the visibility rule reads of an interaction, with the member's
    View Channel on the server's channels as the bot's cache computes it (roles and overwrites)."""
    member, guild = interaction.user, interaction.guild

    def can_view(channel_id: int) -> bool | None:
        if guild is None or not isinstance(member, discord.Member):
            return None  # a DM, or a server the bot is not in: nothing to tell by
        channel = guild.get_channel_or_thread(channel_id)
        if channel is None:
            return None
        return channel.permissions_for(member).view_channel

    return Viewer(interaction.user.id, interaction.guild_id, interaction.channel_id, can_view)


async def seen_by(store: GameStore, record: GameRecord, interaction: Interaction) -> Seen:
    """The visibility rule (:func:`bot.core.visibility.admit`) for whoever sent ``interaction``:
    a :class:`Seen` to show ``record``'s game with, or a :class:`PlayError` to tell them."""
    return await admit(store, record, viewer_of(interaction))


def at_place(interaction: Interaction, guild_id: int | None, channels: Iterable[int]) -> bool:
    """The interaction comes from ``guild_id`` (None: a DM) and one of ``channels``."""
    return interaction.guild_id == guild_id and interaction.channel_id in set(channels)


def check_at_game(interaction: Interaction, record: GameRecord) -> None:
    """Public controls: only in the game's own channel or thread (a private game that lost its
    private thread may be played on in its player's DM: ``bot.posting.rescue``; a game played in
    its seats' DMs, ``bot.posting.seat_dms``, in any seat's DM with the bot: that the clicker is
    one of its players is the visibility rule's check, which comes after)."""
    in_dm = interaction.guild_id is None and record.thread_id is not None and interaction.channel_id == record.thread_id
    in_dm = in_dm or (record.seat_dms and in_bot_dm(interaction))
    if not (in_dm or at_place(interaction, record.guild_id, game_places(record))):
        raise PlayError(ELSEWHERE)


def check_player_place(interaction: Interaction, record: GameRecord) -> None:
    """Player controls: in the game's own server, or privately in a DM (the hand
    message and its picker live there); the seat check comes after."""
    if interaction.guild_id is not None and interaction.guild_id != record.guild_id:
        raise PlayError(ELSEWHERE)


def is_server_admin(interaction: Interaction, guild_id: int | None) -> bool:
    """May manage ``guild_id``: the permissions Discord sends are those of the server
    the interaction came from, so they count only when that is the game's server."""
    if guild_id is None or interaction.guild_id != guild_id:
        return False
    perms = getattr(interaction, "permissions", None)
    return bool(perms and (perms.manage_guild or perms.administrator))


def manages_server(interaction: Interaction) -> bool:
    """Whether the member may change what the bot does in this server: Discord's
    *Manage Server* (or Administrator), checked again when an admin command runs,
    since a command's default permissions can be changed by the server."""
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.administrator)

