"""Work that happens without a click: AI turns, reminders, timeouts, resignations."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot.sessions import PlayError, StaleBoard
from engine.core import MoveRejected, derive_seed

if TYPE_CHECKING:
    from bot.client import PyramidClient

log = logging.getLogger(__name__)


async def play_ai_turn(client: PyramidClient, game_id: int, version: int) -> bool:
    """Let the AI in the seat to act move, if the board is still the one it was
    scheduled for (a human resign or a restart may have moved things on).
    Returns whether it moved; the caller announces."""
    services = client.services
    try:
        session = await services.sessions.load(game_id)
    except PlayError:
        return False
    seat = session.to_act
    record = session.seat(seat) if seat is not None else None
    if session.version != version or record is None or not record.is_ai or session.over:
        return False
    level = record.ai_level or "normal"
    seed = derive_seed(session.record.seed, f"ai:{version}:{seat}")
    assert seat is not None
    move = await services.cpu.ai_move(session.record.kind, session.game.to_position(session.state), seat, level, seed)
    try:
        await services.sessions.make_move(game_id, move, user_id=None, seat=seat, expected_version=version)
    except (StaleBoard, PlayError, MoveRejected) as exc:
        log.warning("AI move %r in game %s refused: %s", move, game_id, exc)
        return False
    return True


async def resign_seat(client: PyramidClient, game_id: int, user_id: int, *, reason: str) -> str:
    """A player leaves a running game. Two-player games go to the opponent, solo
    games end as lost, bigger games continue with an AI in the seat."""
    services = client.services
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
            others = [s.seat for s in session.seats if s.seat != seat.seat]
            position = session.game.to_position(session.state)
            details: dict[str, Any] = {}
            if isinstance(position.get("pyramid"), dict):
                details["tiles_placed"] = len(position["pyramid"])
            details["undos"] = position.get("undos", 0) if isinstance(position.get("undos"), int) else 0
            summary = f"{name} {reason}." + (f" <@{session.seats[others[0]].user_id}> wins." if others and
                                               session.seats[others[0]].user_id else "")
            result = {"winners": others, "scores": [], "summary": summary, "details": details,
                      "resigned": [seat.seat]}
            await services.store.set_seat_ai(game_id, seat.seat, None, resigned=True)
            await services.store.set_status(game_id, "finished", result=result)
            services.sessions.forget(game_id)
            text = f"🏳️ {summary}"
            finished = True
        else:
            await services.store.set_seat_ai(game_id, seat.seat, "easy", resigned=True)
            services.sessions.forget(game_id)
            text = f"🏳️ {name} {reason}; an easy AI plays their tiles from now on (it can't win for them)."
            finished = False
    channel = client.get_partial_messageable(session.record.play_channel_id)
    try:
        await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException as exc:
        log.warning("could not announce resignation in game %s: %s", game_id, exc)
    board = await services.store.get_message(game_id, "board")
    if finished:
        if board is not None:
            await client.announcer.strip_buttons(board.channel_id, board.message_id)
        fresh = await services.sessions.load(game_id)
        await client.on_game_finished(fresh)
    else:
        fresh = await services.sessions.load(game_id)
        client.schedule_ai(fresh)
    return text


class Reminders:
    """Nudges idle players and hands over seats after the timeout.

    The sweep reads time from the injected clock, so tests move time forward and
    call :meth:`sweep` instead of waiting hours."""

    def __init__(self, client: PyramidClient) -> None:
        self.client = client

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.client.services.sweep_seconds)
            try:
                await self.sweep()
            except Exception:
                log.exception("reminder sweep failed")

    async def sweep(self) -> list[str]:
        """One pass over running games; returns what it did (for logs and tests)."""
        services = self.client.services
        now = services.clock()
        done: list[str] = []
        for record in await services.store.games_where("status = 'active'"):
            try:
                session = await services.sessions.load(record.id)
            except PlayError:
                continue
            seat_no = session.to_act
            seat = session.seat(seat_no) if seat_no is not None else None
            if seat is None or seat.is_ai or seat.user_id is None:
                continue
            guild = await services.store.guild_settings(record.guild_id) if record.guild_id else None
            remind_after = timedelta(hours=(guild and guild.reminder_hours) or services.settings.reminder_hours)
            timeout_after = timedelta(hours=(guild and guild.timeout_hours) or services.settings.timeout_hours)
            idle = now - datetime.fromisoformat(session.record.updated_at)
            channel = self.client.get_partial_messageable(record.play_channel_id)
            if idle >= timeout_after:
                action = guild.timeout_action if guild else "ai"
                done.append(f"timeout:{record.id}:{action}")
                if action == "forfeit":
                    await resign_seat(self.client, record.id, seat.user_id, reason="timed out and forfeits")
                else:
                    await services.store.set_seat_ai(record.id, seat.seat, "normal")
                    services.sessions.forget(record.id)
                    await channel.send(
                        f"⌛ {seat.display} has been idle for {hours(idle)}; a normal AI takes their seat.",
                        allowed_mentions=discord.AllowedMentions.none(),
                    )
                    self.client.schedule_ai(await services.sessions.load(record.id))
            elif idle >= remind_after and not await services.store.reminded(record.id, session.version):
                await channel.send(
                    f"⏰ {seat.display}, it's your turn in game #{record.id} (idle for {hours(idle)}).",
                    allowed_mentions=discord.AllowedMentions(users=[discord.Object(seat.user_id)]),
                )
                await services.store.mark_reminded(record.id, session.version)
                done.append(f"reminder:{record.id}")
        return done


def hours(delta: timedelta) -> str:
    total = delta.total_seconds() / 3600
    return f"{total:.0f} hours" if total >= 2 else f"{delta.total_seconds() / 60:.0f} minutes"
