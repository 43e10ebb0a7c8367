"""Showing what the outbox asks for: boards, hand DMs, stripped buttons, endings.

Each ``deliver_*`` method does one outbox row's work and marks the row done in the
same transaction that records the message it posted (``OutboxStore.complete``),
so a row is either still pending or done with its message known. A post carries a
nonce derived from the row (``bot.core.announcements.nonce``): if the bot dies after
Discord created the message but before the row was marked, the retry gets the same
message back instead of a second one. Failures propagate to the caller
(``bot.posting.delivery``), which decides when to try again.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Protocol

import discord

from bot.cards.boards import board_card, board_header, board_labels, mention_allowed, player_view, public_view
from bot.cards.cards import Card, card, first_line, note, seat_colour
from bot.cards.chooser import chooser
from bot.cards.since import since_your_turn_dm
from bot.cards.undo_buttons import forecast_button, take_back_button
from bot.core.announcements import events_from_json, folded, nonce
from bot.core.move_notes import taken_back
from bot.core.services import Services
from bot.core.session import Session
from bot.posting.away import Availability
from bot.posting.channels import Channels
from bot.posting.failures import CANNOT_DM, Blocked
from bot.posting.in_place import InPlace
from bot.posting.interaction_posts import Reply, copy
from bot.posting.pings import QUIET, Ping, Pings
from bot.posting.seat_dms import SeatDms, ping_for
from bot.store import CorruptRecord
from bot.store.outbox import Announcement, OutboxItem, PostedMessage
from bot.store.records import MessageRef
from engine.core import Event

log = logging.getLogger(__name__)

#: DM channel ids kept (about 100 bytes each).
MAX_DM_CHANNELS = 100_000


class GameEnd(Protocol):
    """Something that follows a game's end (a challenge's leaderboard, ratings, a replay).

    Called from the game's ``finish`` outbox row, so at least once: a crash after it
    ran and before the row was marked done runs it again, and it must then do nothing
    twice (post with a nonce, write keyed by the game)."""

    async def game_finished(self, session: Session) -> None: ...


class Announcer:
    def __init__(self, services: Services, client: discord.Client, channels: Channels,
                 game_ends: Sequence[GameEnd], pings: Pings) -> None:
        self.services = services
        #: The notification gate: every message that may buzz a player asks it (``bot.posting.pings``).
        self.pings = pings
        self.client = client
        self.channels = channels
        #: What follows a game's end, in order.
        self.game_ends = tuple(game_ends)
        #: Users whose DMs were found closed (loaded once, then kept up to date), so
        #: that noticing them use the bot costs no database read per interaction.
        self._closed_dms: set[int] | None = None
        #: Players' DM channels by user id (see :meth:`dm_channel`).
        self._dm_channels: dict[int, int] = {}
        #: Quiet hours: nobody is pinged or buzzed inside their own.
        self.availability = Availability(services, client, channels)
        #: Games only a user install reaches: their card, updated by the players' clicks.
        self.in_place = InPlace(services, self)
        #: Games played in their seats' DMs: every seat's DM shows each board.
        self.seat_dms = SeatDms(client, self.dm_channel)
        self.availability.seat_dms = self.seat_dms

    async def player_active(self, user_id: int) -> None:
        """The player used the bot: if their DMs were found closed, try them again
        with the next hand (they may have opened them meanwhile)."""
        store = self.services.store
        if self._closed_dms is None:
            self._closed_dms = await store.closed_dm_users()
        if user_id in self._closed_dms:
            await store.retry_dms(user_id)

    # --- one outbox row each; each returns whether it queued more rows -----------
    async def deliver_board(self, item: OutboxItem, *, later: bool, session: Session | None = None,
                            via: Reply | None = None) -> bool:
        """Post the board of ``item.version`` (with the story since the last board
        shown) and record it.
        ``session``: the game as loaded for this delivery pass, if it was; ``via``: the
        interaction that made the move, which may carry the post (see
        :mod:`bot.posting.interaction_posts`)."""
        services = self.services
        session = await self._current(item, session)
        if session.record.in_place:  # the bot user is not there: the players' clicks show the card
            if via is None and item.version == session.version:  # a move made without a click at hand
                await self.in_place.dm_turn(session)
            return await self._done(item, "in place: the next click shows it")
        shown = await services.store.get_message(item.game_id, "board")
        if shown is not None and shown.version >= item.version:
            return await self._done(item, "shown already")
        target = session
        if session.version > item.version:
            if not item.uncertain:  # never reached Discord: a later board will tell its story
                await self._ensure_later(item, session, later)
                await self._done(item, "superseded")
                return True
            target = await services.sessions.load_at(item.game_id, item.version)
        elif not item.uncertain and folded(session):  # an AI is to act: the next human's card tells it
            return await self._done(item, "folded into the next card")
        channel_id = session.record.play_channel_id
        self.channels.check_postable(channel_id)
        events = await self.story(target, shown.version if shown is not None else None)
        if "undone" in item.payload:  # a move taken back: this card says so (bot.store.undos)
            events = taken_back(item.payload["undone"])
        lang = await services.languages.for_game(session.record)  # the channel's language
        view = public_view(target, lang)
        file = await services.renderer.board(view, art=target.presenter.art, labels=board_labels(target, view),
                                             events=events)
        clock = await self.availability.clocks.line(target, lang) if target is session else None
        card_view = board_card(target, events, lang, file, clock)
        mentions = mention_allowed(target)  # for edits, which never notify
        header = board_header(target, lang)
        message = await self._posted_before(channel_id, header) if item.attempts or item.uncertain else None
        # A turn that went on (Pyramido's stones) keeps its card while the same player acts: edited, not posted
        # (an edit pings nobody, so a turn passing to someone else, or the game's end, is a new card).
        if message is None and shown is not None and shown.channel_id == channel_id and not item.uncertain and (
                target is session) and not session.over and session.to_act is not None and (
                await services.outbox.turn_goes_on(item.game_id, shown.version) == session.to_act):
            message = await self._turn_card(shown, board_card(target, events, lang, file, clock), file, mentions)
        # A new card: the player to act is pinged as their settings, quiet hours and the cap allow (the gate);
        # nobody to ping: news for spectators only, no notification.
        ping = await self.pings.turn(target, "board") if message is None else QUIET
        if session.record.seat_dms and message is None:  # every seat's DM shows it; each buzzes its reader alone
            async def card_for(user_id: int) -> tuple[discord.ui.LayoutView, discord.File]:
                reader = await services.languages.for_user(user_id)
                if reader.code == lang.code:
                    return board_card(target, events, lang, file, clock), copy(file)
                seen = public_view(target, reader)
                drawn = await services.renderer.board(seen, art=target.presenter.art,
                                                      labels=board_labels(target, seen), events=events)
                line = await self.availability.clocks.line(target, reader) if target is session else None
                return board_card(target, events, reader, drawn, line), drawn

            await self.seat_dms.copies(session.record, target.seats, channel_id, card_for, ping, lambda seat: nonce(
                item.game_id, item.version, "board", seat, take=target.record.undos))
            ping = ping_for(ping, await self.seat_dms.reader_of(session.record, target.seats, channel_id))
        if message is None and via is not None and not item.uncertain and via.carries_board(item.version,
                                                                                           channel_id):
            message = await via.post(None, private=False, file=file, view=card_view, allowed_mentions=ping.mentions,
                                     silent=ping.silent)
        # The row is done only with a message that shows the board: a card whose picture never went up
        # (a follow-up cut between its two requests) is finished first.
        if message is not None and not message.attachments:
            message = await self._picture_in(message, board_card(target, events, lang, file, clock), file, mentions)
        if message is None:
            try:
                message = await self.client.get_partial_messageable(channel_id).send(
                    view=board_card(target, events, lang, file, clock), file=file,
                    allowed_mentions=ping.mentions, silent=ping.silent,
                    nonce=nonce(item.game_id, item.version, "board", take=target.record.undos),
                )
            except discord.Forbidden as exc:  # a game in DMs: its first seat closed theirs; the others have it
                if not (session.record.seat_dms and exc.code == CANNOT_DM):
                    raise
                return await self._done(item, "the first seat's DMs are closed")
        return await self._record(item, PostedMessage(role="board", channel_id=message.channel.id,
                                                             message_id=message.id, version=item.version))

    async def _posted_before(self, channel_id: int, header: str) -> discord.Message | None:
        """A retried board may have been posted already as a click's follow-up, which has no
        nonce (the bot stopped, or its record failed, before the row was done): the bot's
        own board with the same header (game and move) among the channel's latest messages,
        perhaps still without its picture (:meth:`_picture_in`). One read, on retries only."""
        me = self.client.user
        if me is None:
            return None
        try:
            async for message in self.client.get_partial_messageable(channel_id).history(limit=10):
                if message.author.id == me.id and first_line(message) == header:
                    return message
        except discord.HTTPException:
            return None
        return None

    async def _turn_card(self, shown: MessageRef, view: discord.ui.LayoutView, file: discord.File,
                         mentions: discord.AllowedMentions) -> discord.Message | None:
        """The card of a turn that goes on (Pyramido's stones, one move each) becomes this
        step's board: one edit, with its picture, in place of a new card per step, so the
        thread keeps one card per turn. None: that card is gone, post the board anew."""
        try:
            self.channels.check_editable(shown.channel_id)
        except Blocked:  # an archived thread, say: a new card (which reopens it)
            return None
        partial = self.client.get_partial_messageable(shown.channel_id).get_partial_message(shown.message_id)
        try:
            return await partial.edit(view=view, attachments=[copy(file)], allowed_mentions=mentions)
        except discord.NotFound:
            return None

    async def _picture_in(self, message: discord.Message, view: discord.ui.LayoutView, file: discord.File,
                          mentions: discord.AllowedMentions) -> discord.Message | None:
        """Finish a board posted as a follow-up in two requests (``send_card``: the card,
        then an edit adding its picture) whose second never happened: the bot was killed
        between them, or the connection dropped. The card is the board's only once it
        shows the board, so the row is done only after this edit went through (it raises
        otherwise, and the row is tried again). An edit, not a second post: the card keeps
        its place, and nobody is pinged twice. None: the card is gone (deleted meanwhile),
        post the board anew."""
        log.warning("the board in message %s was posted without its picture (the bot stopped, or the connection "
                    "dropped, between the two requests): adding it now", message.id)
        partial = self.client.get_partial_messageable(message.channel.id).get_partial_message(message.id)
        try:
            return await partial.edit(view=view, attachments=[copy(file)], allowed_mentions=mentions)
        except discord.NotFound:
            return None

    async def deliver_hand(self, item: OutboxItem, *, later: bool, session: Session | None = None,
                           via: Reply | None = None) -> bool:
        """DM a player their hand as it is after ``item.version`` (with the move
        picker when it is their turn), replacing the previous hand message. The
        mover's goes through their interaction (``via``) when it can."""
        services = self.services
        session = await self._current(item, session)
        seat = session.seat(item.seat)
        if seat is None or seat.user_id is None or seat.is_ai:
            return await self._done(item, "no human in the seat")
        carried = via is not None and not item.uncertain and via.carries_hand(item.version, seat.user_id)
        dms = "open" if carried else await services.store.dm_status(seat.user_id)  # the reply needs no DM
        if dms == "closed":
            return await self._done(item, "DMs closed")
        shown = await services.store.get_message(item.game_id, "hand", item.seat)
        if shown is not None and shown.version >= item.version:
            return await self._done(item, "shown already")
        target = session
        if session.version > item.version:
            if not item.uncertain:
                await self._ensure_later(item, session, later)
                await self._done(item, "superseded")
                return True
            target = await services.sessions.load_at(item.game_id, item.version)
        lang = await services.languages.for_user(seat.user_id, session.record.guild_id)  # the player's language
        file = await services.renderer.hand(player_view(target, item.seat, lang), art=target.presenter.art)
        p = target.presenter
        lines = [lang.tr("{emoji} **{title}** · game #{number} · your hand after move {move}", emoji=p.emoji,
                         title=p.title, number=target.record.id, move=target.version)]
        controls: list[discord.ui.Item[discord.ui.View]] = []
        files = [file]
        their_turn = not target.over and target.to_act == item.seat and target.record.status == "active"
        if their_turn:
            controls = list(chooser(target, (), lang=lang).view.children)
            lines.append(lang.gettext("🎯 It's your turn: choose below, or use the board in the channel."))
            since = await since_your_turn_dm(services, target, item.seat, seat.user_id)  # others' moves, outlined
            if since is not None:
                lines.append(since[0])
                files.append(since[1])
        if item.payload.get("undo") and target is session and target.record.status == "active":
            controls.append(take_back_button(target.record.id, target.version, lang))  # their move, nobody acted since
        if not their_turn and not target.over and target.record.status == "active" and len(target.seats) > 1:
            controls.append(forecast_button(target.record.id, target.version, lang))  # lines for their next turn
        # A card in the seat's colour; the chooser on it is edited in place step by step, its pictures kept
        # (bot.turns.handlers.choose).
        def hand_card(first: str | None = None) -> Card:  # one per attempt: a view is sent once
            text = "\n".join([first, *lines] if first else lines)
            return card([text], accent=seat_colour(item.seat), files=files, controls=controls)

        try:
            message = None
            if carried and via is not None and via.original is not None:  # the click's "⏳ Playing…" shows it
                message = await via.original.show(hand_card(via.original.done), files)
            if message is None and carried and via is not None:
                message = await via.post(None, private=True, files=files, view=hand_card(), silent=True)
            if message is None:
                dm = self.client.get_partial_messageable(await self.dm_channel(seat.user_id),
                                                         type=discord.ChannelType.private)
                # it buzzes only to say it is their turn, as the gate allows (settings, quiet hours, the cap)
                ping: Ping = await self.pings.turn(target, "dm") if their_turn else QUIET
                message = await dm.send(view=hand_card(), files=files, silent=ping.silent,
                                        nonce=nonce(item.game_id, item.version, "hand", item.seat,
                                                    take=target.record.undos))
        except discord.Forbidden as exc:
            if exc.code != CANNOT_DM:
                raise
            if self._closed_dms is not None:
                self._closed_dms.add(seat.user_id)
            if await services.store.mark_dm_closed(seat.user_id):
                await self.tell_dms_closed(session, seat.user_id)
            return await self._done(item, "DMs closed")
        if dms == "retry":  # they were closed; this one went through, so they are open again
            await services.store.mark_dm_closed(seat.user_id, False)
            if self._closed_dms is not None:
                self._closed_dms.discard(seat.user_id)
        return await self._record(item, PostedMessage(role="hand", seat=item.seat,
                                                             channel_id=message.channel.id, message_id=message.id,
                                                             version=item.version))

    def knows_dm_channel(self, user_id: int) -> bool:
        """Whether the player's DM channel is kept (a DM then costs one request, not two)."""
        return user_id in self._dm_channels

    async def dm_channel(self, user_id: int) -> int:
        """The player's DM channel: opened once (``POST /users/@me/channels``), then kept.
        Discord has one DM channel per bot and user and its id never changes, so a hand DM
        is one request (the post) instead of three (fetching the user, opening the DM,
        posting), each of which counts against the bot's global rate limit."""
        known = self._dm_channels.get(user_id)
        if known is None:
            opened = await self.client.http.start_private_message(user_id)
            known = self._dm_channels[user_id] = int(opened["id"])
            if len(self._dm_channels) > MAX_DM_CHANNELS:  # forget the oldest: one request to open it again
                del self._dm_channels[next(iter(self._dm_channels))]
        return known

    async def deliver_strip(self, item: OutboxItem) -> bool:
        """Take the buttons off a superseded board or hand message."""
        channel_id, message_id = int(item.payload["channel_id"]), int(item.payload["message_id"])
        self.channels.check_editable(channel_id)
        try:
            await self.channels.take_controls_off(channel_id, message_id)
        except discord.NotFound:  # deleted (or its channel is): nothing left to strip
            return await self._done(item, "gone")
        return await self._done(item, "stripped")

    async def deliver_finish(self, item: OutboxItem) -> bool:
        """The game ended with this move: whatever follows a game's end (see :class:`GameEnd`)."""
        session = await self.services.sessions.load(item.game_id)
        for follower in self.game_ends:
            await follower.game_finished(session)
        return await self._done(item, "finished")

    # --- pieces ------------------------------------------------------------------
    async def story(self, session: Session, since: int | None) -> list[Event]:
        """What happened since the board of version ``since`` (none for the first
        board): the events stored with each move's board row, else rebuilt from the
        log in the CPU pool."""
        if since is None or since >= session.version:
            return []
        stored = await self.services.outbox.board_events(session.record.id, since, session.version)
        if stored is not None:
            return [e for version in sorted(stored) for e in events_from_json(stored[version])]
        events = await self.services.sessions.replay_events(session.record.id, since, session.version)
        return [e for e in events if e.visible(None)]

    async def _current(self, item: OutboxItem, session: Session | None) -> Session:
        """The game at the row's version or later. The pass's copy may predate a
        move made since (its rows are read later): then load it again, or the post
        would show an older move under this row's nonce."""
        if session is None or session.version < item.version:
            session = await self.services.sessions.load(item.game_id)
        if session.version < item.version:
            raise CorruptRecord(f"Game {item.game_id} has an announcement for move {item.version} "
                                f"but only {session.version} moves.")
        return session

    async def _ensure_later(self, item: OutboxItem, session: Session, later: bool) -> None:
        """A superseded row must hand its work to a row of the current version;
        rows written with every move make one exist, except for rows queued outside
        a move (a start, a restart), so make sure."""
        if not later:
            await self.services.outbox.enqueue(
                item.game_id, [Announcement(kind=item.kind, version=session.version, seat=item.seat,
                                            channel_id=item.channel_id)])

    async def _done(self, item: OutboxItem, outcome: str) -> bool:
        await self.services.outbox.complete(item, outcome)
        return False

    async def _record(self, item: OutboxItem, posted: PostedMessage) -> bool:
        """Mark the row done with its message recorded as current. The message it
        replaces keeps its buttons: every edit counts against Discord's global rate
        limit, and a click on an old board or hand is answered anyway (its custom id
        names its version, and the handler says the board moved on). Only a message
        found stale as it was posted (a newer one is current already: another process
        was quicker) loses its buttons, as that one would look current."""
        outbox = self.services.outbox
        done = await outbox.complete(item, "sent", posted=posted)
        if done.marked and not done.recorded:  # a newer message is current: this one is the stale one
            stale = await self.channels.strip_now(posted.channel_id, posted.message_id)
            if stale is not None:
                await outbox.queue_strip(item, stale)
                return True
        return False

    async def tell_dms_closed(self, session: Session, user_id: int) -> None:
        if session.record.in_place or session.record.seat_dms:  # no channel post there (in DMs: none to share)
            return
        channel_id = session.record.play_channel_id
        try:
            self.channels.check_postable(channel_id)
            lang = await self.services.languages.for_game(session.record)  # said in the channel
            ping = await self.pings.notice(session.record.id, session.version, [user_id], "dms-closed")
            await self.client.get_partial_messageable(channel_id).send(view=note(
                lang.tr("{mention}, I can't send you direct messages, so I'll show your hand privately here "
                        "instead: use **🂠 My hand** or **▶ Your move** on the board, or `/pyramid hand`.",
                        mention=f"<@{user_id}>")),
                allowed_mentions=ping.mentions, silent=ping.silent,
            )
        except (discord.HTTPException, Blocked) as exc:
            log.warning("could not post the closed-DM notice: %s", exc)


__all__ = ["Announcer"]
