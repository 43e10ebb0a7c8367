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
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

import discord

from bot.play.views.cards import note
from bot.services import Services
from bot.store.outbox import OutboxItem
from i18n import N_

log = logging.getLogger(__name__)

#: Causes that mean the game's thread is no place to play any more.
LOST_CAUSES = ("thread_locked", "unknown_channel")
#: How long a board waits for a locked thread to reopen before the game moves on.
LOCKED_GRACE = timedelta(hours=1)


class ThreadRescue:
    def __init__(self, services: Services, client: discord.Client) -> None:
        self.services = services
        self.client = client

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
        new = await self._open(record.channel_id, f"{p.title} #{record.id}")
        await store.set_thread(record.id, new)
        services.sessions.forget(record.id)
        where = new or record.channel_id
        # The game's boards go to the new place now; buttons left in the lost thread stay there.
        await store.outbox.move_boards(record.id, to=where, lost=old)
        players = [s.user_id for s in await store.seats(record.id) if s.user_id is not None]
        mentions = " ".join(f"<@{u}>" for u in players)
        lang = await services.languages.for_game(record)  # said in the server's channels
        if cause == "unknown_channel":
            template = N_("🧵 {emoji} **{title}** game #{number}: its thread {old} was deleted, so the game continues "
                          "in {where}. {mentions}")
        else:
            template = N_("🧵 {emoji} **{title}** game #{number}: its thread {old} is locked, so the game continues "
                          "in {where}. {mentions}")
        text = lang.tr(template, emoji=p.emoji, title=p.title, number=record.id, old=f"<#{old}>", where=f"<#{where}>",
                       mentions=mentions).strip()
        allowed = discord.AllowedMentions(users=[discord.Object(u) for u in players])
        await self._say(record.channel_id, text, allowed)
        if new is not None:
            await self._say(new, lang.tr("{emoji} Game #{number} continues here. {mentions}", emoji=p.emoji,
                                         number=record.id, mentions=mentions).strip(), allowed)
        log.warning("game %s moved from thread %s (%s) to %s", record.id, old, cause, where)
        return True

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

    async def _say(self, channel_id: int, text: str, allowed: discord.AllowedMentions) -> None:
        try:
            await self.client.get_partial_messageable(channel_id).send(view=note(text), allowed_mentions=allowed)
        except discord.HTTPException as exc:
            log.warning("could not say where game continues in %s: %s", channel_id, exc)


__all__ = ["LOCKED_GRACE", "LOST_CAUSES", "ThreadRescue"]
