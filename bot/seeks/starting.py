"""A game started without an interaction: a tournament's round, a seek the bot starts by
itself, a queue's match. The same steps as a lobby's Start (``SessionService.start``, a
thread of its own per the server's setting, the first board announced), with the thread
opened first: a process killed between the two finds the thread kept on the game and
starts it there (``start_unattended`` is safe to run again on a game already started)."""

from __future__ import annotations

import logging
from typing import Final

import discord

from bot.core.errors import PlayError
from bot.core.services import Services
from bot.interactions.host import Host

log = logging.getLogger(__name__)
#: Threads of games archive after a week without messages (Discord's longest), as lobbies' do.
ARCHIVE_MINUTES: Final = 10080


async def open_thread(services: Services, client: discord.Client, guild_id: int, channel_id: int,
                      name: str) -> int | None:
    """A public thread in ``channel_id`` named ``name``, unless the server plays in channels (None)."""
    settings = await services.store.guild_settings(guild_id)
    if not settings.use_threads:
        return None
    try:
        channel = client.get_channel(channel_id) or await client.fetch_channel(channel_id)
        if not isinstance(channel, discord.TextChannel):
            return None
        thread = await channel.create_thread(name=name[:100], type=discord.ChannelType.public_thread,
                                             auto_archive_duration=ARCHIVE_MINUTES)
    except discord.HTTPException as exc:
        log.warning("no thread in channel %s (%s); the game is played in the channel", channel_id, exc)
        return None
    return thread.id


async def start_unattended(services: Services, host: Host, client: discord.Client, game_id: int,
                           thread_name: str) -> bool:
    """Start the lobby ``game_id`` (its seats as they are) in a thread named ``thread_name``; False
    when it is no lobby any more (started by another pass, or cancelled) or its deal can't be made."""
    record = await services.store.game_record(game_id)
    if record is None or record.status != "lobby":
        return False
    if record.thread_id is None and record.guild_id is not None:
        thread_id = await open_thread(services, client, record.guild_id, record.channel_id, thread_name)
        if thread_id is not None:
            await services.store.set_thread(game_id, thread_id)
    try:
        await services.sessions.start(game_id)
    except PlayError as exc:
        log.info("game %s not started: %s", game_id, exc)
        return False
    await host.delivery.announce(game_id)
    return True
