"""Keeping the channel (or thread) and players' DMs in step with the move log.

``announce`` is idempotent: it posts the board for the latest version only if the
stored board message is older, so it can run after every move, after a restart (a
move written but never announced), or twice by accident, and the channel still gets
each board once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from bot.board import board_content, board_labels, board_view, mention_allowed, plain_names
from bot.games import presenter
from bot.sessions import Session
from engine.core import Event

if TYPE_CHECKING:
    from bot.client import PyramidClient

log = logging.getLogger(__name__)


def public_view(session: Session) -> dict[str, object]:
    view = dict(session.game.view(session.state, None))
    view["names"] = plain_names(session)
    view["game_number"] = session.record.id
    return view


def player_view(session: Session, seat: int) -> dict[str, object]:
    view = dict(session.game.view(session.state, seat))
    view["names"] = plain_names(session)
    view["game_number"] = session.record.id
    return view


class Announcer:
    def __init__(self, client: PyramidClient) -> None:
        self.client = client
        self._locks: dict[int, asyncio.Lock] = {}

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def events_since(self, session: Session, since: int) -> list[Event]:
        """The events of moves ``since+1 .. now``, by replaying the log: a board that
        missed several moves (a restart) still tells the whole story."""
        if session.version - since == 1 and session.last_events:
            return list(session.last_events)
        if session.version <= since:
            return []
        moves = await self.client.services.store.moves(session.record.id)
        game = session.game
        state = game.setup(len(session.seats), session.record.options, session.record.seed)
        events: list[Event] = []
        for record in moves:
            state, evs = game.play(state, record.seat, record.move)
            if record.seq > since:
                events.extend(evs)
        return events

    async def movers_since(self, session: Session, since: int) -> list[int]:
        if session.version <= since:
            return []
        if session.version - since == 1 and session.last_mover is not None:
            return [session.last_mover]  # the usual case: no need to read the log
        moves = await self.client.services.store.moves(session.record.id)
        return sorted({m.seat for m in moves if m.seq > since})

    async def post_board(self, session: Session, events: Sequence[Event]) -> discord.Message:
        view = public_view(session)
        file = await self.client.services.renderer.board(view, labels=board_labels(session, view), events=events)
        channel = self.client.get_partial_messageable(session.record.play_channel_id)
        return await channel.send(
            board_content(session, events), file=file, view=board_view(session),
            allowed_mentions=mention_allowed(session),
        )

    async def announce(self, game_id: int) -> Session | None:
        """Post the latest board if the channel hasn't seen it; strip the old one's buttons."""
        services = self.client.services
        async with self._lock(game_id):
            session = await services.sessions.load(game_id)
            current = await services.store.get_message(game_id, "board")
            if current is not None and current.version >= session.version:
                return session
            since = current.version if current is not None else 0
            events = await self.events_since(session, since) if current is not None else []
            movers = await self.movers_since(session, since)
            message = await self.post_board(session, events)
            old = await services.store.set_message(
                game_id, "board", message.channel.id, message.id, version=session.version
            )
            if old is not None and old.message_id != message.id:
                await self.strip_buttons(old.channel_id, old.message_id)
        await self.update_hands(session, movers)
        if session.over:
            await self.client.on_game_finished(session)
        else:
            self.client.schedule_ai(session)
        return session

    async def strip_buttons(self, channel_id: int, message_id: int) -> None:
        try:
            await self.client.get_partial_messageable(channel_id).get_partial_message(message_id).edit(view=None)
        except discord.HTTPException as exc:  # deleted, or no access: nothing to strip
            log.debug("could not strip buttons from %s: %s", message_id, exc)

    async def update_hands(self, session: Session, movers: Sequence[int] = ()) -> None:
        """DM a fresh hand to whoever must act now and to whoever just moved (their
        hand changed); others' hands don't change on someone else's move."""
        if not presenter(session.record.kind).has_hand:
            return
        targets = dict.fromkeys([*movers, *([session.to_act] if session.to_act is not None else [])])
        for seat_no in targets:
            seat = session.seat(seat_no)
            if seat is None or seat.user_id is None or seat.is_ai:
                continue
            await self.send_hand_dm(session, seat_no)

    async def send_hand_dm(self, session: Session, seat_no: int) -> bool:
        """Send (or replace) the DM hand message; False when DMs are closed."""
        from bot.board import picker  # local: board imports nothing from here, but keep the graph obvious

        services = self.client.services
        seat = session.seat(seat_no)
        if seat is None or seat.user_id is None:
            return False
        if await services.store.dm_closed(seat.user_id):
            return False
        previous = await services.store.get_message(session.record.id, "hand", seat_no)
        if previous is not None and previous.version >= session.version:
            return True
        file = await self.client.services.renderer.hand(player_view(session, seat_no))
        p = presenter(session.record.kind)
        lines = [f"{p.emoji} **{p.title}** · game #{session.record.id} · your hand after move {session.version}"]
        view = discord.ui.View(timeout=None)
        if not session.over and session.to_act == seat_no:
            view = picker(session, ()).view
            lines.append("🎯 It's your turn: choose below, or use the board in the channel.")
        try:
            user = self.client.get_user(seat.user_id) or await self.client.fetch_user(seat.user_id)
            message = await user.send("\n".join(lines), file=file, view=view)
        except discord.Forbidden:
            if await services.store.mark_dm_closed(seat.user_id):
                await self.tell_dms_closed(session, seat.user_id)
            return False
        except discord.HTTPException as exc:
            log.warning("DM to %s failed: %s", seat.user_id, exc)
            return False
        old = await services.store.set_message(
            session.record.id, "hand", message.channel.id, message.id, seat=seat_no, version=session.version
        )
        if old is not None and old.message_id != message.id:
            await self.strip_buttons(old.channel_id, old.message_id)
        return True

    async def tell_dms_closed(self, session: Session, user_id: int) -> None:
        channel = self.client.get_partial_messageable(session.record.play_channel_id)
        try:
            await channel.send(
                f"<@{user_id}>, I can't send you direct messages, so I'll show your hand privately here "
                "instead: use **🂠 My hand** or **▶ Your move** on the board, or `/pyramid hand`.",
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
            )
        except discord.HTTPException as exc:
            log.warning("could not post the closed-DM notice: %s", exc)
