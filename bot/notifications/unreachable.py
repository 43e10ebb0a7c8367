"""A digest that found the player's DMs closed is said once, where they next use the bot (issue #39).

Said as a private follow-up of their next command or click, once its own answer is out: an answer
that is a message of its own, or a deferred one completed with its card (a follow-up sent while
the "thinking" answer still stands would take its place); otherwise the use after says it."""

from __future__ import annotations

import asyncio
from typing import Any

import discord

from bot.cards.cards import note
from bot.interactions.replies import completed
from bot.notifications.gate import NotificationGate

#: Interactions that get an answer a follow-up may come after (autocomplete and pings get none).
ANSWERED = (discord.InteractionType.application_command, discord.InteractionType.component,
            discord.InteractionType.modal_submit)
#: Answers after which a follow-up is a message of its own.
OWN_MESSAGE = (discord.InteractionResponseType.channel_message, discord.InteractionResponseType.message_update)
#: How long to wait for the interaction's own answer.
WAIT = 10.0


async def tell_once(gate: NotificationGate, interaction: discord.Interaction[Any]) -> bool:
    """Tell the player their digest could not reach them, if it could not and they were not told."""
    user_id = interaction.user.id
    if interaction.type not in ANSWERED or not await gate.digest_unreachable(user_id):
        return False
    loop = asyncio.get_running_loop()
    until = loop.time() + WAIT

    def answered() -> bool:
        return interaction.response.is_done() and (interaction.response.type in OWN_MESSAGE or completed(interaction))

    while not answered() and loop.time() < until:
        await asyncio.sleep(0.05)
    if not answered():
        return False  # still "thinking", or answered in a way a follow-up can't follow: the next use says it
    if not await gate.store.blocked_untold(user_id):
        return False
    gate.reached(user_id)
    lang = await gate.services.languages.for_interaction(interaction)
    await interaction.followup.send(view=note("📭 " + lang.gettext(
        "Your daily digest could not reach you: your DMs are closed to me. Open them (Privacy Settings of a server "
        "we share, or Content & Social in your settings) to get it; `/pyramid notify digest_off:True` stops it.")),
        ephemeral=True)
    return True


__all__ = ["tell_once"]
