"""``/pyramid daily``: today's deal, played privately in the player's DMs, and the
server's daily leaderboard; ``/pyramid-admin daily``: where the results are posted.

The game is played in the player's DM channel with the bot (its guild is none), where
the bot already plays a game as in a channel: the board and its buttons are posted
there, ▶ Your move opens the chooser privately, ``/pyramid play`` works there, and
access rules let a seated player act by DM. Nobody else sees the board, so no move of
the day's deal reaches a server (:mod:`bot.play.daily` posts scores only).
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

import discord

from bot.discord.replies import defer_private, tell
from bot.play.daily import DAILY_KIND, Board, DailyDeals, days_text, score_text, until_next
from bot.play.errors import PlayError
from bot.play.host import Host
from bot.services import Services
from bot.store.daily import AlreadyPlayed, DailyResult, DailyStore

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]

CLOSED_DMS = ("❌ I can't send you direct messages, and the daily deal is played there, privately. "
              "Allow direct messages from this server's members (Privacy Settings), then try again.")


def dm_link(channel_id: int) -> str:
    return f"https://discord.com/channels/@me/{channel_id}"


def intro_nonce(day: str, user_id: int) -> str:
    """The intro DM's nonce: two quick ``/pyramid daily`` post it once."""
    return "pi" + hashlib.blake2b(f"{day}:{user_id}".encode(), digest_size=11).hexdigest()


class DailyPlay:
    def __init__(self, services: Services, host: Host) -> None:
        self.services = services
        self.host = host

    @property
    def daily(self) -> DailyDeals:
        return self.host.daily

    async def play(self, interaction: Interaction) -> None:
        """Start today's deal in the player's DMs, or say where their game of it is."""
        await defer_private(interaction)
        daily, user = self.daily, interaction.user
        day = daily.today()
        mine = await daily.store.result(day.isoformat(), user.id)
        if mine is not None:
            await self._again(interaction, mine)
            return
        challenge = await self.services.store.get_challenge(await daily.deal(day))
        assert challenge is not None
        where = await self._where(interaction.guild_id)
        try:
            dm = await user.create_dm()
            await dm.send(
                f"📅 **Daily deal {day.isoformat()}** · {daily.title}. Everyone plays this same proven-winnable "
                "deal today, each on their own. Your board follows: **▶ Your move** on it, or `/pyramid play` "
                f"here. Only your score is posted{where}, never your moves.",
                nonce=intro_nonce(day.isoformat(), user.id), allowed_mentions=discord.AllowedMentions.none())
        except discord.Forbidden:
            await tell(interaction, CLOSED_DMS)
            return
        try:  # checked and written in one transaction: a double command makes one game
            game_id = await daily.store.open_game(
                day.isoformat(), DAILY_KIND, user_id=user.id, name=user.display_name[:100],
                challenge_id=challenge.id, seed=challenge.seed, options=challenge.options, play_channel_id=dm.id,
                guild_id=interaction.guild_id, channel_id=interaction.channel_id)
        except AlreadyPlayed as exc:
            await self._again(interaction, exc.result)
            return
        await self._start(interaction, game_id, dm.id)

    async def _start(self, interaction: Interaction, game_id: int, dm_id: int) -> None:
        try:
            await self.services.sessions.start(game_id)
        except PlayError as exc:
            await tell(interaction, f"❌ {exc}")
            return
        await self.host.delivery.announce(game_id)
        run = await self.daily.streak_of(interaction.user.id)
        streak = f" 🔥 Your streak: {days_text(run.current)}." if run.current else ""
        await tell(interaction, f"📅 Today's daily deal is waiting in your DMs: {dm_link(dm_id)} "
                                f"(game #{game_id}).{streak}")
        if interaction.guild_id is None:
            return
        try:  # one more player: today's results message (if there is one yet) counts them
            await self.daily.refresh(self.daily.today().isoformat(), interaction.guild_id, create=False)
        except discord.HTTPException as exc:
            log.warning("could not update today's daily results: %s", exc)

    async def _again(self, interaction: Interaction, mine: DailyResult) -> None:
        """A second ``/pyramid daily`` the same day: where the game is, or its score."""
        run = await self.daily.streak_of(mine.user_id)
        streak = f"🔥 Streak: {days_text(run.current)} (best {days_text(run.best)})."
        if mine.finished:
            await tell(interaction, f"📅 You played today's daily deal ({mine.day}): **{score_text(mine)}**. "
                                    f"{streak} A new deal comes in {until_next(self.services.clock())}.")
            return
        record = await self.services.store.game_record(mine.game_id)
        if record is None:
            await tell(interaction, "❌ Your daily game of today is gone; an admin can look at the bot's logs.")
            return
        if record.status == "lobby":  # made, but its start was cut short
            await self._start(interaction, record.id, record.channel_id)
            return
        if record.status != "active":  # over, and its score on its way (the game's end is being followed)
            await tell(interaction, f"📅 You played today's daily deal ({mine.day}); your score is being posted. "
                                    f"{streak} A new deal comes in {until_next(self.services.clock())}.")
            return
        await tell(interaction, f"📅 Your daily deal of {mine.day} is in progress: game #{record.id} in your DMs, "
                                f"{dm_link(record.play_channel_id)}. One deal a day: finish that one! {streak}")

    async def _where(self, guild_id: int | None) -> str:
        channels = await self.daily.store.channels(guild_id) if guild_id is not None else []
        if channels:
            return " in " + ", ".join(f"<#{c}>" for c in channels)
        return " on the server's daily leaderboard (`/pyramid daily show:today`)" if guild_id is not None else ""

    async def board(self, interaction: Interaction, board: Board) -> None:
        """``/pyramid daily show:…``: the server's daily leaderboard, privately."""
        if interaction.guild_id is None:
            await tell(interaction, "Daily leaderboards belong to a server; use this command in one.")
            return
        await defer_private(interaction)
        await tell(interaction, await self.daily.board_text(interaction.guild_id, board),
                   allowed_mentions=discord.AllowedMentions.none())


async def set_results_channel(services: Services, interaction: Interaction, channel: discord.TextChannel,
                              enabled: bool) -> None:
    """``/pyramid-admin daily``: post the daily results in ``channel`` (or stop)."""
    guild_id = interaction.guild_id
    if guild_id is None or channel.guild.id != guild_id:
        await tell(interaction, "❌ Choose a channel of this server.")
        return
    perms = interaction.permissions
    if not (perms.manage_guild or perms.administrator):
        await tell(interaction, "❌ Only members who can manage the server can choose where daily results go.")
        return
    me = channel.guild.me
    if enabled and me is not None:
        mine = channel.permissions_for(me)
        if not (mine.view_channel and mine.send_messages):
            await tell(interaction, f"❌ I can't post in {channel.mention}: I need **View Channel** and "
                                    "**Send Messages** there. Nothing was changed.")
            return
    store = DailyStore(services.db)
    changed = await store.set_channel(guild_id, channel.id, enabled, by=interaction.user.id)
    if enabled:
        news = "will be" if changed else "are already"
        await tell(interaction, f"📅 The daily deal's results {news} posted in {channel.mention}: one message a "
                                "day, edited as players finish (scores only, no spoilers).")
    else:
        news = "are no longer" if changed else "were not"
        await tell(interaction, f"📅 The daily deal's results {news} posted in {channel.mention}.")
