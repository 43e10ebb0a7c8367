"""The final card of a game that ended without a final move: a resignation, a timeout's forfeit.

A game that ends with a move gets its final card from that move: its board says who won and
how, and carries 🔁 Rematch and 🔐 Fair deal (``bot.cards.boards.final_buttons``). A game
that ends outside a move (``bot.resignations.resignations``) had no such card: its last board
still said "it's your turn". This follower of the game's end turns that last board into the
final card (the same position, drawn again with the result in its header; the result, the
score and the final buttons in place of the turn and the move buttons), so every kind of
ending leaves one card that tells it. A game whose board never went out gets the card posted
instead, once (a nonce per game).
"""

from __future__ import annotations

import logging

import discord

from bot.cards.boards import board_card, ended_view
from bot.core.services import Services
from bot.core.session import Session
from bot.posting.channels import Channels
from bot.posting.failures import Blocked
from bot.posting.interaction_posts import copy
from bot.posting.pings import QUIET
from bot.posting.seat_dms import SeatDms

log = logging.getLogger(__name__)


def final_nonce(game_id: int) -> str:
    """The posted final card's nonce, one per game: a retried ``finish`` row posts it once.
    (``pbd…`` is no prefix of ``bot.core.announcements.nonce``, which never uses ``d``.)"""
    return f"pbdend{game_id:x}"


class FinalCards:
    """Follows a game's end (:class:`bot.posting.announcer.GameEnd`)."""

    def __init__(self, services: Services, client: discord.Client, channels: Channels) -> None:
        self.services = services
        self.client = client
        self.channels = channels
        #: Games played in their seats' DMs (the announcer's, set by ``Host.build``): each seat's DM gets the card.
        self.seat_dms: SeatDms | None = None

    async def game_finished(self, session: Session) -> None:
        record = session.record
        if session.over or record.status != "finished":  # a final move's board is the final card already
            return
        if record.in_place:  # the card the players click is redrawn, finished, at the next click
            return
        services = self.services
        lang = await services.languages.for_game(record)  # the channel's
        shown = await services.store.get_message(record.id, "board")
        view = ended_view(session, lang)  # with the stored result: the picture says how it ended
        file = await services.renderer.board(view, art=session.presenter.art, labels={}, lang=lang)
        card_view = board_card(session, [], lang, file)
        try:
            if record.seat_dms and self.seat_dms is not None:  # the other seats' DMs too (first: a file is sent once)
                shown_in = shown.channel_id if shown else record.play_channel_id
                async def card_for(user_id: int) -> tuple[discord.ui.LayoutView, discord.File]:
                    reader = await services.languages.for_user(user_id)
                    if reader.code == lang.code:
                        return board_card(session, [], lang, file), copy(file)
                    drawn = await services.renderer.board(ended_view(session, reader), art=session.presenter.art,
                                                          labels={}, lang=reader)
                    return board_card(session, [], reader, drawn), drawn

                await self.seat_dms.copies(record, session.seats, shown_in, card_for, QUIET,
                                           lambda seat: f"{final_nonce(record.id)}.{seat:x}")
            if shown is not None:
                self.channels.check_editable(shown.channel_id)
                partial = self.client.get_partial_messageable(shown.channel_id).get_partial_message(
                    shown.message_id)
                try:
                    await partial.edit(view=card_view, attachments=[file])
                    return
                except discord.NotFound:  # deleted: the final card is posted instead
                    file.reset()
            channel_id = record.play_channel_id
            self.channels.check_postable(channel_id)
            await self.client.get_partial_messageable(channel_id).send(
                view=card_view, files=[file], nonce=final_nonce(record.id),
                allowed_mentions=discord.AllowedMentions.none(), silent=True)
        except (discord.HTTPException, Blocked) as exc:  # the result is in /pyramid status and the record
            log.warning("could not show the final card of game %s: %s", record.id, exc)
