"""A player leaves a running game: by ``/pyramid resign``, or forfeiting on a timeout.

Two-player games go to the opponent and solo games end as lost, with the result the
game itself gives a seat that leaves (``Game.forfeit``); bigger games continue with
an easy AI in the seat.
"""

from __future__ import annotations

import dataclasses
import logging

import discord

from bot.play.channels import Channels
from bot.play.delivery import Delivery
from bot.play.errors import PlayError
from bot.services import Services
from bot.store.outbox import Announcement

log = logging.getLogger(__name__)


class Resignations:
    def __init__(self, services: Services, client: discord.Client, channels: Channels,
                 delivery: Delivery) -> None:
        self.services = services
        self.client = client
        self.channels = channels
        self.delivery = delivery

    async def resign(self, game_id: int, user_id: int, *, reason: str) -> str:
        """``user_id`` leaves game ``game_id`` (``reason``: "resigned", "timed out and
        forfeits"); returns what the channel is told."""
        services = self.services
        async with services.sessions.lock(game_id):
            session = await services.sessions.load(game_id, fresh=True)
            if session.record.status != "active":
                raise PlayError("This game is not running.")
            seat = session.seat_of(user_id)
            if seat is None:
                raise PlayError("You are not playing in this game.")
            if seat.resigned:
                raise PlayError("You have already left this game.")
            humans = [s for s in session.seats if s.user_id is not None and not s.resigned]
            name = seat.display
            if len(session.seats) <= 2 or (len(humans) <= 1 and session.game.max_players == 1):
                result = session.game.forfeit(session.state, seat.seat)
                first = session.seat(result.winners[0]) if result.winners else None
                summary = f"{name} {reason}." + (f" <@{first.user_id}> wins." if first and first.user_id else "")
                await services.store.set_seat_ai(game_id, seat.seat, None, resigned=True)
                await services.store.set_status(game_id, "finished",
                                                result=dataclasses.replace(result, summary=summary).to_json())
                # What follows a game's end (leaderboards, ratings, the replay) runs from the outbox, as after a
                # final move: durably, and once.
                await services.store.outbox.enqueue(game_id, [Announcement(kind="finish", version=session.version)])
                services.sessions.forget(game_id)
                text = f"🏳️ {summary}"
                finished = True
            else:
                await services.store.set_seat_ai(game_id, seat.seat, "easy", resigned=True)
                services.sessions.forget(game_id)
                text = f"🏳️ {name} {reason}; an easy AI plays their tiles from now on (it can't win for them)."
                finished = False
        channel = self.client.get_partial_messageable(session.record.play_channel_id)
        try:
            await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.warning("could not announce resignation in game %s: %s", game_id, exc)
        board = await services.store.get_message(game_id, "board")
        if finished:
            if board is not None:
                await self.channels.strip_buttons(board.channel_id, board.message_id)
            await self.delivery.deliver_game(game_id)
        else:
            await self.delivery.schedule_ai(await services.sessions.load(game_id))
        return text
