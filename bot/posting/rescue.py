"""Games outlive their threads: a game whose thread was deleted (10003 Unknown
Channel) or stays locked (160005) goes on in a new thread.

A deleted thread is replaced as soon as a board finds it gone; a locked one only
when its board has waited ``LOCKED_GRACE`` (a moderator may lock a thread for a
moment; the board then follows in the same thread when it reopens). The new thread
is opened under the game's channel (or the game is played in the channel itself
when no thread can be opened there), stored on the game, the game's pending
boards are pointed at it and made due, and the players are told where the game
continues, with a link in the channel (in the server's language). The delivery
worker that reported the refusal then delivers the game at once.

A private game (a shared deal's, :func:`bot.core.visibility.private_place`: its boards
tell the face-down stock others are about to meet) never leaves private places: it goes
on in a new private thread with its players in it, or, where none can be opened, in its
player's DMs; never in a public thread or the channel, and the channel is told nothing.
When neither can be had, the game stays where it was and its boards wait.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

import discord

from bot.cards.cards import note
from bot.core.services import Services
from bot.core.visibility import private_place
from bot.posting.pings import QUIET, Ping, Pings
from bot.store.outbox import OutboxItem
from i18n import N_

log = logging.getLogger(__name__)

#: Causes that mean the game's thread is no place to play any more.
LOST_CAUSES = ("thread_locked", "unknown_channel")
#: How long a board waits for a locked thread to reopen before the game moves on.
LOCKED_GRACE = timedelta(hours=1)


class ThreadRescue:
    def __init__(self, services: Services, client: discord.Client, pings: Pings) -> None:
        self.services = services
        self.client = client
        #: The notification gate: whom the news may buzz.
        self.pings = pings

    async def blocked(self, item: OutboxItem, cause: str) -> bool:
        """A row of ``item``'s game was refused for ``cause``: move the game to a
        new thread if its thread is lost. Returns whether it did (the game's boards
        are then due at once, in the new place). Never raises."""
        if cause not in LOST_CAUSES or item.kind != "board":
            return False
        try:
            return await self._rescue(item, cause)
        except Exception:
            log.exception("could not move game %s out of its lost thread", item.game_id)
            return False

    async def _rescue(self, item: OutboxItem, cause: str) -> bool:
        services = self.services
        store = services.store
        record = await store.game_record(item.game_id)
        if record is None or record.thread_id is None or record.status != "active":
            return False
        old = record.thread_id
        if item.channel_id is not None and item.channel_id != old:
            return False  # refused somewhere else than the game's thread
        if cause == "thread_locked":
            waited = services.clock() - datetime.fromisoformat(item.created_at)
            if waited < LOCKED_GRACE:
                return False
        p = services.catalogue.presenter(record.kind)
        players = [s.user_id for s in await store.seats(record.id) if s.user_id is not None]
        mentions = " ".join(f"<@{u}>" for u in players)
        lang = await services.languages.for_game(record)  # said in the server's channels
        ping = await self.pings.notice(record.id, 0, players, f"rescued-{old}")
        if private_place(record):
            return await self._rescue_privately(record.id, record.channel_id, old, f"{p.title} #{record.id}",
                                                players, lang.tr("{emoji} Game #{number} lost its private thread, so "
                                                                 "it continues here, privately. {mentions}",
                                                                 emoji=p.emoji, number=record.id,
                                                                 mentions=mentions).strip(), ping)
        new = await self._open(record.channel_id, f"{p.title} #{record.id}")
        await store.set_thread(record.id, new)
        services.sessions.forget(record.id)
        where = new or record.channel_id
        # The game's boards go to the new place now; buttons left in the lost thread stay there.
        await self.services.outbox.move_boards(record.id, to=where, lost=old)
        if cause == "unknown_channel":
            template = N_("🧵 {emoji} **{title}** game #{number}: its thread {old} was deleted, so the game continues "
                          "in {where}. {mentions}")
        else:
            template = N_("🧵 {emoji} **{title}** game #{number}: its thread {old} is locked, so the game continues "
                          "in {where}. {mentions}")
        text = lang.tr(template, emoji=p.emoji, title=p.title, number=record.id, old=f"<#{old}>", where=f"<#{where}>",
                       mentions=mentions).strip()
        # One message buzzes them: the one in the new thread, where there is one.
        await self._say(record.channel_id, text, ping if new is None else QUIET)
        if new is not None:
            await self._say(new, lang.tr("{emoji} Game #{number} continues here. {mentions}", emoji=p.emoji,
                                         number=record.id, mentions=mentions).strip(), ping)
        log.warning("game %s moved from thread %s (%s) to %s", record.id, old, cause, where)
        return True

    async def _rescue_privately(self, game_id: int, channel_id: int, old: int, name: str, players: list[int],
                                text: str, ping: Ping) -> bool:
        """A private game's new place: a private thread of its players', else its one player's DM.
        Nothing is said in the channel. False (the game stays, its boards wait) when neither can be had."""
        store = self.services.store
        where = await self._open_private(channel_id, name, players)
        if where is None and len(players) == 1:
            where = await self._dm(players[0])
        if where is None:
            log.warning("game %s lost its private thread %s and no private place could be had; its boards wait",
                        game_id, old)
            return False
        await store.set_thread(game_id, where)
        self.services.sessions.forget(game_id)
        await self.services.outbox.move_boards(game_id, to=where, lost=old)
        await self._say(where, text, ping)
        log.warning("private game %s moved from thread %s to private place %s", game_id, old, where)
        return True

    async def _open_private(self, channel_id: int, name: str, players: list[int]) -> int | None:
        """A new private thread (no invites) under ``channel_id`` with ``players`` in it; None when
        none can be opened."""
        try:
            channel = self.client.get_channel(channel_id) or await self.client.fetch_channel(channel_id)
            if not isinstance(channel, discord.TextChannel):
                return None
            if not channel.permissions_for(channel.guild.me).create_private_threads:
                log.warning("no Create Private Threads in %s: a private game cannot have a new thread there",
                            channel_id)
                return None
            thread = await channel.create_thread(name=name[:100], type=discord.ChannelType.private_thread,
                                                 invitable=False, auto_archive_duration=10080)
            for user_id in players:
                await thread.add_user(discord.Object(user_id))
        except discord.HTTPException as exc:
            log.warning("could not open a private thread in %s (%s)", channel_id, exc)
            return None
        return thread.id

    async def _dm(self, user_id: int) -> int | None:
        """The DM channel with ``user_id``; None when it cannot be opened."""
        try:
            return (await self.client.create_dm(discord.Object(user_id))).id
        except discord.HTTPException as exc:
            log.warning("could not open a DM with %s (%s)", user_id, exc)
            return None

    async def _open(self, channel_id: int, name: str) -> int | None:
        """A new thread under ``channel_id``; None when none can be opened (play in the channel)."""
        try:
            channel = self.client.get_channel(channel_id) or await self.client.fetch_channel(channel_id)
            if not isinstance(channel, discord.TextChannel):
                return None
            thread = await channel.create_thread(name=name[:100], type=discord.ChannelType.public_thread,
                                                 auto_archive_duration=10080)
        except discord.HTTPException as exc:
            log.warning("could not open a new thread in %s (%s); playing in the channel", channel_id, exc)
            return None
        return thread.id

    async def _say(self, channel_id: int, text: str, ping: Ping) -> None:
        try:
            await self.client.get_partial_messageable(channel_id).send(view=note(text), allowed_mentions=ping.mentions,
                                                                        silent=ping.silent)
        except discord.HTTPException as exc:
            log.warning("could not say where game continues in %s: %s", channel_id, exc)


__all__ = ["LOCKED_GRACE", "LOST_CAUSES", "ThreadRescue"]
