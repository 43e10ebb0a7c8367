"""The interaction that made a move, as the announcer takes it (see
:mod:`bot.posting.interaction_posts`): its follow-ups don't count against Discord's
global rate limit."""

from __future__ import annotations

import functools
from typing import Any

import discord

from bot.interactions.replies import complete_original
from bot.interactions.surfaces import in_bot_dm
from bot.posting.interaction_posts import Original, Reply


def move_reply(interaction: discord.Interaction[Any], version: int, done: str | None = None) -> Reply:
    """``interaction`` made the move that brought its game to ``version``; it has been answered
    (follow-ups come after the answer). ``done``: the line telling the mover their move was
    played, when the answer is private and still says so: the mover's hand completes it
    (:class:`~bot.posting.interaction_posts.Original`)."""
    original = None if done is None else Original(functools.partial(complete_original, interaction), done)
    return Reply(webhook=interaction.followup, channel_id=interaction.channel_id, user_id=interaction.user.id,
                 version=version, in_dm=in_bot_dm(interaction), original=original)
