"""Games played in their seats' DMs (``GameRecord.seat_dms``: a queue match across servers,
``bot.seeks.across``): one place says where such a game's public messages go.

Such a game has no channel its players share. Its ``channel_id`` is the first seat's DM with
the bot, so every path that posts to ``play_channel_id`` reaches that seat; the rule kept here
is that **every announcement reaches every seat's DM**: the board of each move (its card, its
picture, ▶ Your move and the move buttons, as a channel's board has), the final card, a
time-out's notice. :func:`places` lists the DMs, :meth:`SeatDms.copies` posts a card to the
seats the main post did not reach. A DM buzzes its reader alone (:func:`ping_for`): the board
of a turn buzzes only the DM of the player to act, as the notification gate allows.

A click in a DM acts for its clicker alone: the controls carry the game's number, and the seat
check (``bot.turns.handlers.check_actor``) and the visibility rule (a game's players by DM) are
the same as anywhere. Hands go to their own seat's DM only, as every game's do.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence

import discord

from bot.posting.failures import CANNOT_DM
from bot.posting.pings import QUIET, Ping
from bot.store.records import GameRecord, SeatRecord

log = logging.getLogger(__name__)

DmChannel = Callable[[int], Awaitable[int]]
#: A card for one seat's DM, from its reader's id: its view and its picture (a file of its own: a file is sent once).
MakeCard = Callable[[int], Awaitable[tuple[discord.ui.LayoutView, discord.File | None]]]


def ping_for(ping: Ping, user_id: int | None) -> Ping:
    """``ping`` as it applies to one DM: it buzzes that DM's reader if the gate granted them, else nobody."""
    return Ping((user_id,)) if user_id is not None and user_id in ping.users else QUIET


class SeatDms:
    def __init__(self, client: discord.Client, dm_channel: DmChannel) -> None:
        self.client = client
        self.dm_channel = dm_channel

    async def places(self, record: GameRecord, seats: Sequence[SeatRecord]) -> list[tuple[int, int]]:
        """(user, DM channel) of each human seat of a game played in DMs, in seat order; for any other
        game, its one place (the players' ids unknown: 0)."""
        if not record.seat_dms:
            return [(0, record.play_channel_id)]
        found: list[tuple[int, int]] = []
        for seat in seats:
            if seat.user_id is not None and not any(u == seat.user_id for u, _ in found):
                found.append((seat.user_id, await self.dm_channel(seat.user_id)))
        return found

    async def reader_of(self, record: GameRecord, seats: Sequence[SeatRecord], channel_id: int) -> int | None:
        """Whose DM ``channel_id`` is, in a game played in DMs (None: nobody's)."""
        return next((u for u, c in await self.places(record, seats) if c == channel_id and u), None)

    async def copies(self, record: GameRecord, seats: Sequence[SeatRecord], shown_in: int, make: MakeCard,
                     ping: Ping, nonce: Callable[[int], str]) -> None:
        """Post the card ``make(reader)`` builds (its view and picture, in that reader's language) in
        every seat's DM but ``shown_in``, each buzzing as ``ping`` allows its reader. ``nonce(seat)``:
        the post's nonce in that seat's DM, so a retried row does not post it twice. Nothing for a game
        not played in DMs."""
        if not record.seat_dms:
            return
        for number, (user_id, channel_id) in enumerate(await self.places(record, seats)):
            if channel_id == shown_in:
                continue
            view, file = await make(user_id)
            mine = Ping((user_id,)) if user_id in ping.users else QUIET  # as ping_for: its reader alone
            try:
                await self.client.get_partial_messageable(channel_id, type=discord.ChannelType.private).send(
                    view=view, files=[file] if file is not None else [], silent=mine.silent,
                    allowed_mentions=mine.mentions, nonce=nonce(number))
            except discord.Forbidden as exc:  # they closed their DMs: the other seats' posts go on all the same
                if exc.code != CANNOT_DM:
                    raise
                log.info("game %s: %s's DM refuses the bot's messages", record.id, user_id)


__all__ = ["SeatDms", "ping_for"]
