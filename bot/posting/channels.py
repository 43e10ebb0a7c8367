"""What Discord would refuse in a channel, as far as the bot can tell before asking,
and taking buttons off messages.

Posting into a locked thread or a channel the bot lost access to fails; asking
anyway spends requests that count against the bot's invalid-request limit. So the
announcer, the reminders and the resignations ask here first. discord.py drops
archived threads from its cache, so the thread states the gateway last reported
are kept here too.
"""

from __future__ import annotations

import logging

import aiohttp
import discord

from bot.cards.cards import without_controls
from bot.posting.failures import Blocked

log = logging.getLogger(__name__)


class Channels:
    def __init__(self, client: discord.Client) -> None:
        self.client = client
        #: (archived, locked) of threads as the gateway last reported them.
        self._threads: dict[int, tuple[bool, bool]] = {}
        self._parents: dict[int, int] = {}

    def thread_changed(self, thread_id: int, *, archived: bool, locked: bool, parent_id: int | None = None) -> None:
        self._threads[thread_id] = (archived, locked)
        if parent_id is not None:  # an archived thread leaves discord.py's cache: its permissions are its parent's
            self._parents[thread_id] = parent_id

    def check_postable(self, channel_id: int) -> None:
        """Raise :class:`Blocked` when the cache already says a post would be refused."""
        refusal = self._refusal(channel_id, posting=True)
        if refusal is not None:
            raise refusal

    def check_editable(self, channel_id: int) -> None:
        refusal = self._refusal(channel_id, posting=False)
        if refusal is not None:
            raise refusal

    def _refusal(self, channel_id: int, *, posting: bool) -> Blocked | None:
        """What Discord would refuse, as far as the cache knows: a locked thread
        (without Manage Threads), editing in an archived thread (posting reopens
        it), missing access or permissions. None: go ahead (or we cannot tell)."""
        channel = self.client.get_channel(channel_id)
        archived, locked = self._threads.get(channel_id, (False, False))
        if isinstance(channel, discord.Thread):
            archived, locked = channel.archived, channel.locked
        perms: discord.Permissions | None = None
        if isinstance(channel, (discord.TextChannel, discord.Thread)) and channel.guild.me is not None and (
            not isinstance(channel, discord.Thread) or channel.parent is not None
        ):
            perms = channel.permissions_for(channel.guild.me)
        elif channel is None and channel_id in self._parents:
            parent = self.client.get_channel(self._parents[channel_id])
            if isinstance(parent, discord.TextChannel) and parent.guild.me is not None:
                perms = parent.permissions_for(parent.guild.me)
        if locked and not (perms is not None and perms.manage_threads):
            return Blocked("thread_locked", f"thread {channel_id} is locked")
        if archived and not posting:
            return Blocked("thread_archived", f"thread {channel_id} is archived")
        if perms is None:
            return None  # a DM, or not in the cache: just try
        if not perms.view_channel:
            return Blocked("missing_access", f"cannot see channel {channel_id}")
        thread = isinstance(channel, discord.Thread) or channel_id in self._threads
        needed = ["send_messages_in_threads" if thread else "send_messages", "attach_files"] if posting else []
        missing = [name for name in needed if not getattr(perms, name)]
        if missing:
            return Blocked("missing_permissions", f"missing {', '.join(missing)} in channel {channel_id}")
        return None

    async def strip_now(self, channel_id: int, message_id: int) -> tuple[int, int] | None:
        """Take a message's buttons off; returns it when that must be tried again later."""
        try:
            self.check_editable(channel_id)
            await self.take_controls_off(channel_id, message_id)
        except discord.NotFound:
            return None  # deleted, or its channel is: nothing left to strip
        except (discord.HTTPException, Blocked, aiohttp.ClientError, OSError, TimeoutError) as exc:
            log.info("buttons of message %s stay for now: %s", message_id, exc)
            return channel_id, message_id
        return None

    async def strip_buttons(self, channel_id: int, message_id: int) -> None:
        """Take a message's buttons off now, if Discord lets us (a resignation ends
        the game outside a move)."""
        try:
            self.check_editable(channel_id)
            await self.take_controls_off(channel_id, message_id)
        except (discord.HTTPException, Blocked) as exc:  # deleted, or no access: nothing to strip
            log.debug("could not strip buttons from %s: %s", message_id, exc)

    async def take_controls_off(self, channel_id: int, message_id: int) -> None:
        """Edit a message to keep everything but its buttons: a card keeps its text and
        pictures (read from the client's cache of its own messages, else fetched once);
        a legacy message drops its button rows. Raises ``discord.HTTPException``."""
        partial = self.client.get_partial_messageable(channel_id).get_partial_message(message_id)
        message = discord.utils.get(self.client.cached_messages, id=message_id) or await partial.fetch()
        layout = without_controls(message)
        if layout is None:
            await partial.edit(view=None)
        else:
            await partial.edit(view=layout)
