"""Which game a command means, from where it was typed and who typed it."""

from __future__ import annotations

from typing import Any

import discord

from bot.core.errors import PlayError
from bot.core.services import Services
from bot.core.visibility import Seen, Verdict, refusal
from bot.interactions.access import seen_by, viewer_of
from bot.interactions.replies import reader, tell
from bot.store import GameRecord
from i18n import N_

#: How many of the caller's newest games a command without a game number looks through.
CANDIDATES = 25


async def find_game(interaction: discord.Interaction[Any], services: Services, number: int | None = None,
                    *, statuses: tuple[str, ...] = ("active",)) -> GameRecord:
    """The game :func:`find_seen` finds, for commands that act on it rather than show it."""
    return (await find_seen(interaction, services, number, statuses=statuses)).record


async def find_seen(interaction: discord.Interaction[Any], services: Services, number: int | None = None,
                    *, statuses: tuple[str, ...] = ("active",)) -> Seen:
    """The game numbered ``number``; else the game whose thread this is; else the
    caller's game in this channel (their turn first, newest first); with the visibility
    rule's leave to show it to the caller (:mod:`bot.core.visibility`).

    A number names a game only where the rule lets the caller see it. Elsewhere it is
    answered exactly like a number that names no game, so nothing about other servers
    leaks; a game of a shared deal is its player's alone until the deal is settled.
    Refusals are :class:`PlayError` with translatable messages (``bot.interactions.replies.explain``)."""
    store = services.store
    if number is not None:
        # Beyond SQLite's integers a number names no game (the option check refuses it before).
        game = await store.game_record(number) if 1 <= number < 2**63 else None
        if game is None:
            raise refusal(Verdict.UNREACHABLE, number, viewer_of(interaction))
        return await seen_by(store, game, interaction)
    return await seen_by(store, await _here(interaction, services, statuses), interaction)


async def _here(interaction: discord.Interaction[Any], services: Services, statuses: tuple[str, ...]) -> GameRecord:
    """The game of this thread, else the caller's own game here (see :func:`find_seen`)."""
    store = services.store
    channel_id = interaction.channel_id
    here = await store.games_in_thread(channel_id, statuses, newest=1)
    if here:
        return here[-1]
    user_id = interaction.user.id

    async def in_channel(wanted: tuple[str, ...]) -> list[GameRecord]:
        # The caller's newest games only: a bounded number of rows, however long their history.
        return await store.games_of_user_in_channel(user_id, channel_id, wanted, newest=CANDIDATES)

    async def in_server(wanted: tuple[str, ...]) -> list[GameRecord]:
        return await store.games_of_user(user_id, interaction.guild_id, wanted, newest=CANDIDATES)

    where = in_channel
    mine = await in_channel(statuses)
    if not mine:
        where, mine = in_server, await in_server(statuses)
    if not mine:
        raise PlayError(N_("You have no game running here. Start one with `/pyramid new`."))
    # Their turn first: only a running game can be it, and finished ones must not crowd it out.
    running = mine
    if not set(statuses) <= {"active"}:  # some may be finished: ask for the running ones apart
        running = await where(("active",)) if "active" in statuses else []
    for record in reversed(running):
        try:
            session = await services.sessions.load(record.id)
        except PlayError:
            continue
        seat = session.seat_of(interaction.user.id)
        if seat is not None and session.to_act == seat.seat:
            return record
    return mine[-1]


async def refuse_unknown_game(interaction: discord.Interaction[Any], services: Services, game: str | None) -> bool:
    """Tell the player there is no such game and say True, when ``game`` (a command's
    game option, which a forged interaction may fill with anything) is not one this
    bot offers; False when it is, or none was named."""
    if game is None or game in services.catalogue.kinds:
        return False
    lang = await reader(interaction, services.languages)
    await tell(interaction, "❌ " + lang.tr("There is no game called {game}.", game=repr(game)))
    return True

