"""Games that live in interaction messages: where only a user install reaches (#27, play anywhere).

In a group DM, or a server that did not add the bot, Discord lets the app answer
interactions and nothing else: its bot user is not there, so it gets no events there and
every channel route answers 403. What it may do with one interaction's token, for 15
minutes: the initial response, editing the response's message (``@original``, which for a
click answered with "update" is the clicked message itself), and at most five follow-ups.

So such a game (``GameRecord.surface == "interactions"``) lives in ONE public message, the
game card (the same card as in servers, :func:`bot.cards.boards.board_card`), that the
players' clicks update in place:

- the card message is edited through the token of the latest interaction that may edit it
  (a click on the card answered with "update", the Start click on the lobby that became the
  card, or the follow-up that posted it); those tokens are kept here, in memory, for 14 of
  their 15 minutes (:class:`CardHandles`). No token is stored in the database: a restart
  forgets them, and the next click on the card edits it with its own;
- when no token can edit the card (a move typed with ``/pyramid play``, or made from the
  private chooser more than 14 minutes after the ▶ click that opened it), the fresh card goes
  out as a public follow-up of the move's interaction, and that message is the card from then
  on (older cards are updated by the next click on them);
- AI seats move right after the human's move, inside the same interaction, before the card
  is drawn (:meth:`bot.posting.delivery.Delivery.announce`): the card the players see already
  shows the AI's moves, and nothing waits for a background post that could not be made;
- the next player is told it is their turn by a public follow-up that mentions them (a ping,
  unless it is their quiet hours); an edit never notifies anybody;
- what the game does without a click (an AI that took over a timed-out seat, a forfeit) is
  applied all the same, and shown by the next click on the card; the player then to act is
  told by DM when the bot may write to them (:meth:`InPlace.dm_turn`).

The outbox rows a move writes stay as they are: the board rows of such a game are marked done
by the announcer without a post (the card is what the clicks show), the hand rows go as
everywhere (the mover's as a private follow-up, the others' by DM), the end of the game runs
its followers, which post nothing into a channel the bot is not in.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from bot.cards.boards import board_card, board_labels, public_view
from bot.cards.cards import note
from bot.cards.links import game_link
from bot.core.services import Services
from bot.core.session import Session
from bot.posting.away import Availability
from bot.posting.failures import CANNOT_DM
from bot.posting.interaction_posts import Reply, send_card
from bot.posting.pings import Pings
from engine.core import Event
from i18n import Lang

log = logging.getLogger(__name__)

#: Discord's interaction tokens are valid 15 minutes; one is used for at most 14, so an
#: edit started just before the end still lands.
TOKEN_USE_SECONDS = 14 * 60

Edit = Callable[..., Awaitable[discord.Message]]


@dataclass(frozen=True)
class Handle:
    """What may edit a game's card now: an interaction's edit of that message."""

    edit: Edit
    message_id: int | None
    made_at: float


class CardHandles:
    """The freshest interaction token that may edit each in-place game's card, in memory."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, *, limit: int = 10_000) -> None:
        self.clock = clock
        self.limit = limit
        self._handles: dict[int, Handle] = {}

    def keep(self, game_id: int, edit: Edit, message_id: int | None) -> None:
        """``edit(view=…, attachments=…)`` edits message ``message_id`` (None: the interaction's own response)."""
        self._handles.pop(game_id, None)
        self._handles[game_id] = Handle(edit, message_id, self.clock())
        if len(self._handles) > self.limit:  # the oldest are stale anyway
            del self._handles[next(iter(self._handles))]

    def keep_webhook(self, game_id: int, webhook: discord.Webhook, message_id: int) -> None:
        async def edit(**kwargs: Any) -> discord.Message:
            return await webhook.edit_message(message_id, **kwargs)

        self.keep(game_id, edit, message_id)

    def fresh(self, game_id: int) -> Handle | None:
        handle = self._handles.get(game_id)
        if handle is None or self.clock() - handle.made_at > TOKEN_USE_SECONDS:
            return None
        return handle

    def drop(self, game_id: int) -> None:
        self._handles.pop(game_id, None)


class Posting(Protocol):
    """What the card needs of the announcer (``bot.posting.announcer.Announcer``): the story since a
    version, quiet hours and clocks, players' DM channels."""

    client: discord.Client
    availability: Availability
    #: The notification gate (``bot.posting.pings``).
    pings: Pings

    async def story(self, session: Session, since: int | None) -> list[Event]: ...

    async def dm_channel(self, user_id: int) -> int: ...


class InPlace:
    """Drawing an in-place game's card, putting it where the players see it, telling whose turn it is."""

    def __init__(self, services: Services, announcer: Posting) -> None:
        self.services = services
        self.announcer = announcer
        self.handles = CardHandles()
        self._locks: dict[int, asyncio.Lock] = {}
        #: Each game's last "your turn" line: the token that sent it, its id, when (in memory, as the handles).
        self._pings: dict[int, tuple[discord.Webhook, int, float]] = {}

    def lock(self, game_id: int) -> asyncio.Lock:
        """One card update of a game at a time, so an older card never overwrites a newer one."""
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def card(self, session: Session) -> tuple[discord.ui.LayoutView, discord.File]:
        """The game card as it stands, with the story since the card last shown, in the game's language."""
        services = self.services
        shown = await services.store.get_message(session.record.id, "board")
        # The first card tells the moves made before it too (AI seats that moved inside the Start click).
        events = await self.announcer.story(session, shown.version if shown is not None else 0)
        lang = await services.languages.for_game(session.record)
        view = public_view(session, lang)
        file = await services.renderer.board(view, art=session.presenter.art, labels=board_labels(session, view),
                                             events=events)
        clock = await self.announcer.availability.clocks.line(session, lang)
        seat = session.seat(session.to_act) if session.to_act is not None else None
        if clock is not None and seat is not None and seat.user_id is not None and not seat.is_ai and (
                await services.store.dm_status(seat.user_id) != "open"):  # reminders go by DM alone; the last failed
            clock += "\n📭 " + lang.tr("{name}: reminders can't reach you here, as your DMs are closed to me; "
                                       "your clock runs all the same.", name=seat.display)
        return board_card(session, events, lang, file, clock), file

    async def shows_current(self, session: Session, message_id: int | None) -> bool:
        """Whether the card message ``message_id`` (None: the recorded card) shows the game as it stands."""
        shown = await self.services.store.get_message(session.record.id, "board")
        if shown is None or shown.version < session.version:
            return False
        return message_id is None or shown.message_id == message_id

    async def record(self, session: Session, channel_id: int, message_id: int) -> None:
        await self.services.store.set_message(session.record.id, "board", channel_id, message_id,
                                              version=session.version)

    async def present(self, session: Session, via: Reply | None) -> bool:
        """Put the card of ``session`` where the players see it: edited through the freshest token
        that may edit it, else posted as a public follow-up of ``via``. Returns whether it was shown."""
        game_id = session.record.id
        async with self.lock(game_id):
            session = await self.services.sessions.load(game_id)  # the latest, under the lock
            if await self.shows_current(session, None):
                return True
            view, file = await self.card(session)
            message: discord.Message | None = None
            handle = self.handles.fresh(game_id)
            if handle is not None:
                try:
                    message = await handle.edit(view=view, attachments=[file])
                except discord.HTTPException as exc:  # the token ran out after all, or the card was deleted
                    log.info("could not edit the card of game %s in place (%s); posting it afresh", game_id, exc)
                    self.handles.drop(game_id)
                    view, file = await self.card(session)
            if message is None and via is not None:
                try:
                    # a card's picture cannot go up with a follow-up: posted bare, the picture edited in
                    # the card is news; the next player's turn line is what pings (tell_turn, through the gate)
                    message = await send_card(via.webhook, view=view, file=file,
                                              allowed_mentions=discord.AllowedMentions.none(), silent=True)
                except discord.HTTPException as exc:
                    log.warning("could not post the card of game %s: %s", game_id, exc)
                    return False
                self.handles.keep_webhook(game_id, via.webhook, message.id)
            if message is None:
                return False
            await self.record(session, message.channel.id, message.id)
            return True

    async def tell_turn(self, session: Session, via: Reply) -> None:
        """A public follow-up that mentions the player to act (a ping outside their quiet hours),
        when the turn passed to a human other than the one who made the move. The previous one is
        deleted while its token still may (an edit never notifies, so each turn needs a new message;
        this keeps the place to one card and at most one "your turn" line)."""
        game_id = session.record.id
        seat_no = session.to_act
        seat = session.seat(seat_no) if seat_no is not None else None
        if session.over or seat is None or seat.is_ai or seat.user_id is None or seat.user_id == via.user_id:
            if session.over or session.record.status != "active":
                await self._forget_ping(game_id)
            return
        lang = await self.services.languages.for_game(session.record)
        ping = await self.announcer.pings.turn(session, "board")  # as their settings, quiet hours and the cap allow
        text = lang.tr("🎯 <@{user}>, it's your turn in game #{game}: use the buttons on the card above.",
                       user=seat.user_id, game=game_id)
        try:
            sent = await via.webhook.send(view=note(text), wait=True, silent=ping.silent,
                                          allowed_mentions=ping.mentions)
        except discord.HTTPException as exc:  # the follow-up limit, an expired token: the card says it too
            log.info("could not tell the next player of game %s: %s", game_id, exc)
            return
        await self._forget_ping(game_id)
        self._pings[game_id] = (via.webhook, sent.id, self.handles.clock())
        if len(self._pings) > self.handles.limit:  # the oldest lines' tokens have run out anyway
            del self._pings[next(iter(self._pings))]

    async def _forget_ping(self, game_id: int) -> None:
        """Delete the game's last "your turn" line, if its token is still good (else it stays)."""
        last = self._pings.pop(game_id, None)
        if last is None or self.handles.clock() - last[2] > TOKEN_USE_SECONDS:
            return
        try:
            await last[0].delete_message(last[1])
        except discord.HTTPException as exc:  # deleted already, or the token ran out after all
            log.debug("the last turn line of game %s stays: %s", game_id, exc)

    async def dm_turn(self, session: Session) -> None:
        """Without a click at hand (a move the bot made on its own), the player to act hears it
        by DM, where the bot may write to them; a game with hands tells them with the hand DM."""
        seat_no = session.to_act
        seat = session.seat(seat_no) if seat_no is not None else None
        if (session.over or seat is None or seat.is_ai or seat.user_id is None or session.presenter.has_hand
                or session.record.status != "active"):
            return
        store = self.services.store
        if await store.dm_status(seat.user_id) == "closed":
            return
        lang = await self.services.languages.for_user(seat.user_id, session.record.guild_id)
        shown = await store.get_message(session.record.id, "board")
        ping = await self.announcer.pings.turn(session, "dm")
        try:
            channel_id = await self.announcer.dm_channel(seat.user_id)
            await self.announcer.client.get_partial_messageable(channel_id, type=discord.ChannelType.private).send(
                view=note(turn_dm_text(session, lang, game_link(session.record, shown, reader_dm=channel_id))),
                silent=ping.silent,
            )
        except discord.Forbidden as exc:
            if exc.code != CANNOT_DM:
                raise
            await store.mark_dm_closed(seat.user_id)
        except discord.HTTPException as exc:
            log.info("could not DM the next player of game %s: %s", session.record.id, exc)


def turn_dm_text(session: Session, lang: Lang, link: str) -> str:
    return lang.tr("🎯 It's your turn in game #{game} ({title}): {link}", game=session.record.id,
                   title=lang.gettext(session.presenter.title), link=link)


__all__ = ["CardHandles", "Handle", "InPlace", "turn_dm_text"]
