"""Telling someone who can fix it when Discord blocks a game's announcements.

A permission taken away halfway through a game (Attach Files, Send Messages in
Threads, View Channel) makes Discord refuse the board; the outbox keeps it and
tries again (``bot.posting.delivery``), and the game plays on. But nobody would know why the
boards stopped: so the game's opener is told, once per game and cause (kept in
``blocked_notices``, so a restart does not repeat it), by DM, or with a short
notice in the game's channel when their DMs are closed. The notice names the
missing permissions as far as the bot's cache can tell, the channel, and says that
the game goes on and the missed boards will be posted as soon as it is fixed.
It is written for the opener, in their language.
"""

from __future__ import annotations

import logging

import discord

from bot.cards.cards import note
from bot.core.languages import Languages
from bot.core.visibility import private_place
from bot.games.presenter import ENGLISH
from bot.posting.permissions import NEEDS
from bot.posting.pings import Ping, Pings
from bot.store import GameStore
from bot.store.outbox import OutboxItem
from i18n import Lang

log = logging.getLogger(__name__)

#: Causes a server admin (not the bot, nor a retry) can fix.
PERMISSION_CAUSES = ("missing_permissions", "missing_access")
LABELS = {n.flag: n.label for n in NEEDS}


def lacking(channel: object, *, picture: bool = True) -> list[str]:
    """Labels (msgids) of the permissions the bot lacks to post an announcement in
    ``channel`` (empty when it cannot tell: not cached, or a DM)."""
    if not isinstance(channel, (discord.TextChannel, discord.Thread)) or channel.guild.me is None:
        return []
    if isinstance(channel, discord.Thread) and channel.parent is None:
        return []
    perms = channel.permissions_for(channel.guild.me)
    if perms.administrator:
        return []
    flags = ["view_channel", "send_messages_in_threads" if isinstance(channel, discord.Thread) else "send_messages"]
    if picture:
        flags.append("attach_files")
    return [LABELS.get(f, f) for f in flags if not getattr(perms, f)]


def describe(channel: object, channel_id: int, lang: Lang | None = None) -> str:
    """How to name the channel to a person."""
    if isinstance(channel, discord.Thread) and channel.parent is not None:
        return (lang or ENGLISH).tr("the thread {thread} in {channel}", thread=f"<#{channel_id}>",
                                    channel=f"<#{channel.parent.id}>")
    return f"<#{channel_id}>"


def notice_text(game_id: int, channel: object, channel_id: int, cause: str, missing: list[str], lang: Lang) -> str:
    """The notice of a game whose boards Discord refuses, in ``lang``."""
    where = describe(channel, channel_id, lang)
    if missing:
        what = lang.tr("I am missing {permissions} in {where}",
                       permissions=", ".join(f"**{lang.gettext(m)}**" for m in missing), where=where)
    elif cause == "missing_access":
        what = lang.tr("I can't see {where} any more (**{view}**)", where=where, view=lang.gettext("View Channel"))
    else:
        what = lang.tr("Discord refuses my posts in {where} for missing permissions", where=where)
    return lang.tr("⚠️ Game #{number}: {what}, so its boards can't be posted. The game goes on: moves still "
                   "count, and the missed boards will be posted as soon as this is fixed (a server admin can grant "
                   "the permission to my role or in the channel's settings; `/pyramid-admin check` lists everything "
                   "I need).", number=game_id, what=what)


class BlockedNotices:
    def __init__(self, store: GameStore, client: discord.Client, pings: Pings, languages: Languages | None = None
                 ) -> None:
        self.store = store
        #: The notification gate: whom the notice may buzz.
        self.pings = pings
        self.client = client
        #: Who reads which language (None: English).
        self.languages = languages

    async def blocked(self, item: OutboxItem, cause: str) -> None:
        """An announcement of ``item``'s game was refused for ``cause``: tell the
        opener once. Never raises (the caller is the delivery worker)."""
        if cause not in PERMISSION_CAUSES or item.kind not in ("board", "strip"):
            return
        try:
            await self._tell(item, cause)
        except Exception:
            log.exception("could not tell about the blocked %s of game %s", item.kind, item.game_id)

    async def _tell(self, item: OutboxItem, cause: str) -> None:
        store = self.store
        if await store.notice_given(item.game_id, cause):
            return
        record = await store.game_record(item.game_id)
        if record is None:
            return
        channel_id = item.channel_id or record.play_channel_id
        channel = self.client.get_channel(channel_id)
        missing = lacking(channel, picture=item.kind == "board")
        lang = ENGLISH
        if self.languages is not None:  # the opener reads it (by DM, else in the channel)
            lang = await self.languages.for_user(record.created_by, record.guild_id)
        text = notice_text(record.id, channel, channel_id, cause, missing, lang)
        if not await store.claim_notice(item.game_id, cause, "pending"):
            return  # another delivery is telling
        # A private game's notice goes by DM alone (bot.core.visibility): its channel is where others read, and
        # its own thread is the place refusing posts. Not told now, it is tried again at the next refusal.
        places = () if private_place(record) else (record.channel_id, channel_id)
        users = [record.created_by] if record.created_by is not None else []
        ping = await self.pings.notice(record.id, 0, users, f"blocked-{cause}")
        how = await self._send(record.created_by, places, text, ping)
        if how == "nowhere":  # try again with the next refusal
            await store.release_notice(item.game_id, cause)
        else:
            await store.notice_told(item.game_id, cause, how)

    async def _send(self, user_id: int | None, places: tuple[int, ...], text: str, ping: Ping) -> str:
        """DM the opener; else a notice in the first of ``places`` (the game's channel, then the
        place refusing posts) that takes it. Returns how they were told."""
        if user_id is not None:
            try:
                user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
                await user.send(view=note(text), silent=ping.silent)
                return "dm"
            except discord.HTTPException as exc:
                log.info("could not DM the opener %s about a blocked board: %s", user_id, exc)
        mention = f"<@{user_id}> " if user_id is not None else ""
        for where in dict.fromkeys(places):
            try:
                await self.client.get_partial_messageable(where).send(
                    view=note(mention + text), allowed_mentions=ping.mentions, silent=ping.silent)
                return f"channel {where}"
            except discord.HTTPException as exc:
                log.info("could not post the blocked-board notice in %s: %s", where, exc)
        return "nowhere"


__all__ = ["PERMISSION_CAUSES", "BlockedNotices", "lacking"]
