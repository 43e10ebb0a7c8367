"""Signing up for a tournament and leaving it: the one path of ``/pyramid tournament
join|withdraw`` and of the sign-up card's Join and Leave (:mod:`bot.tournaments.item`).

**The rule** (:func:`join`): a member of the tournament's server signs up during the
sign-up, once, while fewer than ``Tournaments.most_entrants`` are in. Which tournament, and
that the one asking is in its server, is checked here (:func:`find`); the status, the
double and the count in the transaction that writes the entrant
(``TournamentStore.join``), so two clicks at the same moment make one entry and a click as
the start closes the sign-up is refused. A button carries only the tournament's number: a
forged one names a tournament this rule then refuses, as the command's ``tournament:`` would.

**Leaving.** The command withdraws (before the start the sign-up is struck out; after it the
player's running games are forfeits). The card's Leave strikes out a sign-up and nothing
more (``TournamentStore.strike_out``, in one transaction with the status): the card loses its
buttons at the start, and a click from an old copy must not forfeit anybody's games.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.interactions.replies import tell
from bot.tournaments.runner import Tournaments
from bot.tournaments.store import AlreadyIn, Full, Status, Tournament
from i18n import Lang

Interaction = discord.Interaction[Any]


async def find(runner: Tournaments, interaction: Interaction, number: int | None, statuses: tuple[Status, ...],
               lang: Lang) -> Tournament | None:
    """The tournament asked for, when the one asking is a member of its server (None: told why);
    without a number, the server's newest in ``statuses``."""
    if interaction.guild_id is None or not isinstance(interaction.user, discord.Member):
        await tell(interaction, "❌ " + lang.tr("Tournaments belong to a server; use this command in one."))
        return None
    if number is not None:
        found = await runner.store.get(number)
        if found is None or found.guild_id != interaction.guild_id:
            await tell(interaction, "❌ " + lang.tr("This server has no tournament #{number}.", number=number))
            return None
        return found
    newest = await runner.store.newest_in(interaction.guild_id, statuses)
    if newest is None:
        await tell(interaction, "❌ " + lang.tr("No tournament here fits; an admin opens one with "
                                               "`/pyramid-admin tournament new`."))
    return newest


async def join(runner: Tournaments, interaction: Interaction, number: int | None) -> None:
    """Sign the one asking up (the rule above); the card shows the new entrant, in place."""
    lang = await runner.services.languages.for_interaction(interaction)
    t = await find(runner, interaction, number, ("signup", "running"), lang)
    if t is None:
        return
    try:
        entrant = await runner.store.join(t.id, interaction.user.id, interaction.user.display_name, 0.0,
                                          most=runner.most_entrants)
    except AlreadyIn:
        await tell(interaction, "❌ " + lang.tr("You are signed up for {name} already.", name=t.name))
        return
    except Full:
        await tell(interaction, "❌ " + lang.tr("{name} is full: {most} players have signed up, as many as it "
                                               "takes.", name=t.name, most=runner.most_entrants))
        return
    if not entrant:
        await tell(interaction, "❌ " + lang.tr("{name} has started (or ended): sign-up is closed.", name=t.name))
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    await runner.show_card(t.id)
    await tell(interaction, "✅ " + lang.tr("You are entrant #{entrant} of {name}. Your games get threads in this "
                                           "channel when the rounds start.", entrant=entrant, name=t.name))


async def withdraw(runner: Tournaments, interaction: Interaction, number: int | None, *, sign_up_only: bool) -> None:
    """Leave a tournament; ``sign_up_only`` (the card's Leave): strike out a sign-up, never more."""
    lang = await runner.services.languages.for_interaction(interaction)
    t = await find(runner, interaction, number, ("signup", "running"), lang)
    if t is None:
        return
    user_id = interaction.user.id
    if sign_up_only:
        if not await runner.store.strike_out(t.id, user_id):
            now = await runner.store.get(t.id)
            if now is not None and now.status != "signup":
                await tell(interaction, "❌ " + lang.tr(
                    "{name} has started: its card's buttons were for the sign-up. To withdraw (your running games "
                    "become forfeits), use `/pyramid tournament withdraw`.", name=t.name))
            else:
                await tell(interaction, "❌ " + lang.tr("You are not (or no longer) in {name}.", name=t.name))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await runner.show_card(t.id)
        await tell(interaction, "✅ " + lang.tr("You left {name}: your sign-up is struck out.", name=t.name))
        return
    rounds = await runner.store.rounds(t.id)
    if not await runner.store.withdraw(t.id, user_id, rounds[-1].round if rounds else 0):
        await tell(interaction, "❌ " + lang.tr("You are not (or no longer) in {name}.", name=t.name))
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    if t.status == "running":
        await runner.withdraw_games(t, user_id)
        await runner.advance(t.id)
    await runner.show_card(t.id)
    await tell(interaction, "✅ " + lang.tr("You withdrew from {name}. Games you finished stand; the others are "
                                           "forfeits.", name=t.name))
