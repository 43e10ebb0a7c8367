"""``/pyramid daily``: today's deal, played privately in the player's DMs, and the
server's daily leaderboard; ``/pyramid-admin daily``: where the results are posted.

The game is played in the player's DM channel with the bot (its guild is none), where
the bot already plays a game as in a channel: the board and its buttons are posted
there, ▶ Your move opens the chooser privately, ``/pyramid play`` works there, and
access rules let a seated player act by DM. Nobody else sees the board, so no move of
the day's deal reaches a server (:mod:`bot.daily.deals` posts scores only).
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

import discord

from bot.cards.cards import note
from bot.core.errors import PlayError
from bot.core.services import Services
from bot.daily.deals import DAILY_KIND, Board, DailyDeals, days_text, score_text, until_next
from bot.daily.store import AlreadyPlayed, DailyResult, DailyStore
from bot.interactions.access import manages_server
from bot.interactions.host import Host
from bot.interactions.replies import defer_private, explain, reader, tell
from i18n import N_, Lang

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]

CLOSED_DMS = N_("❌ I can't send you direct messages, and the daily deal is played there, privately. "
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
        deals: DailyDeals = self.host.daily  # bot.client.host builds it; the Host protocol leaves its type to us
        return deals

    async def play(self, interaction: Interaction) -> None:
        """Start today's deal in the player's DMs, or say where their game of it is."""
        await defer_private(interaction)
        lang = await reader(interaction, self.services.languages)
        daily, user = self.daily, interaction.user
        day = daily.today()
        mine = await daily.store.result(day.isoformat(), user.id)
        if mine is not None:
            await self._again(interaction, mine, lang)
            return
        challenge = await self.services.store.get_challenge(await daily.deal(day))
        assert challenge is not None
        where = await self._where(interaction.guild_id, lang)
        try:
            dm = await user.create_dm()
            await dm.send(view=note(
                lang.tr("📅 **Daily deal {day}** · {title}. Everyone plays this same proven-winnable deal today, "
                        "each on their own. Your board follows: **▶ Your move** on it, or `/pyramid play` here. "
                        "Only your score is posted{where}, never your moves.",
                        day=day.isoformat(), title=daily.title, where=where)),
                nonce=intro_nonce(day.isoformat(), user.id), allowed_mentions=discord.AllowedMentions.none(),
                silent=True)  # they asked for it a moment ago
        except discord.Forbidden:
            await tell(interaction, lang.gettext(CLOSED_DMS))
            return
        try:  # checked and written in one transaction: a double command makes one game
            game_id = await daily.store.open_game(
                day.isoformat(), DAILY_KIND, user_id=user.id, name=user.display_name[:100],
                challenge_id=challenge.id, seed=challenge.seed, options=challenge.options, play_channel_id=dm.id,
                guild_id=interaction.guild_id, channel_id=interaction.channel_id)
        except AlreadyPlayed as exc:
            await self._again(interaction, exc.result, lang)
            return
        await self._start(interaction, game_id, dm.id, lang)

    async def _start(self, interaction: Interaction, game_id: int, dm_id: int, lang: Lang) -> None:
        try:
            await self.services.sessions.start(game_id)
        except PlayError as exc:
            await tell(interaction, f"❌ {explain(exc, lang)}")
            return
        await self.host.delivery.announce(game_id)
        run = await self.daily.streak_of(interaction.user.id)
        streak = " " + lang.tr("🔥 Your streak: {days}.", days=days_text(run.current, lang)) if run.current else ""
        await tell(interaction, lang.tr("📅 Today's daily deal is waiting in your DMs: {link} (game #{game}).",
                                        link=dm_link(dm_id), game=game_id) + streak)
        if interaction.guild_id is None:
            return
        try:  # one more player: today's results message (if there is one yet) counts them
            await self.daily.refresh(self.daily.today().isoformat(), interaction.guild_id, create=False)
        except discord.HTTPException as exc:
            log.warning("could not update today's daily results: %s", exc)

    async def _again(self, interaction: Interaction, mine: DailyResult, lang: Lang) -> None:
        """A second ``/pyramid daily`` the same day: where the game is, or its score."""
        run = await self.daily.streak_of(mine.user_id)
        streak = lang.tr("🔥 Streak: {days} (best {best}).", days=days_text(run.current, lang),
                         best=days_text(run.best, lang))
        if mine.finished:
            await tell(interaction, lang.tr("📅 You played today's daily deal ({day}): **{score}**. {streak} "
                                            "A new deal comes in {wait}.", day=mine.day, score=score_text(mine, lang),
                                            streak=streak, wait=until_next(self.services.clock(), lang)))
            return
        record = await self.services.store.game_record(mine.game_id)
        if record is None:
            await tell(interaction, "❌ " + lang.tr("Your daily game of today is gone; an admin can look at the "
                                                    "bot's logs."))
            return
        if record.status == "lobby":  # made, but its start was cut short
            await self._start(interaction, record.id, record.channel_id, lang)
            return
        if record.status != "active":  # over, and its score on its way (the game's end is being followed)
            await tell(interaction, lang.tr("📅 You played today's daily deal ({day}); your score is being posted. "
                                            "{streak} A new deal comes in {wait}.", day=mine.day, streak=streak,
                                            wait=until_next(self.services.clock(), lang)))
            return
        await tell(interaction, lang.tr("📅 Your daily deal of {day} is in progress: game #{game} in your DMs, "
                                        "{link}. One deal a day: finish that one! {streak}", day=mine.day,
                                        game=record.id, link=dm_link(record.play_channel_id), streak=streak))

    async def _where(self, guild_id: int | None, lang: Lang) -> str:
        channels = await self.daily.store.channels(guild_id) if guild_id is not None else []
        if channels:
            return " " + lang.tr("in {channels}", channels=", ".join(f"<#{c}>" for c in channels))
        if guild_id is None:
            return ""
        return " " + lang.tr("on the server's daily leaderboard (`/pyramid daily show:today`)")

    async def board(self, interaction: Interaction, board: Board) -> None:
        """``/pyramid daily show:…``: the server's daily leaderboard, privately."""
        if interaction.guild_id is None:
            lang = await reader(interaction, self.services.languages)
            await tell(interaction, lang.tr("Daily leaderboards belong to a server; use this command in one."))
            return
        await defer_private(interaction)
        lang = await reader(interaction, self.services.languages)
        await tell(interaction, await self.daily.board_text(interaction.guild_id, board, lang),
                   allowed_mentions=discord.AllowedMentions.none())


async def set_results_channel(services: Services, interaction: Interaction, channel: discord.TextChannel,
                              enabled: bool) -> None:
    """``/pyramid-admin daily``: post the daily results in ``channel`` (or stop)."""
    lang = await reader(interaction, services.languages)
    guild_id = interaction.guild_id
    if guild_id is None or channel.guild.id != guild_id:
        await tell(interaction, "❌ " + lang.tr("Choose a channel of this server."))
        return
    if not manages_server(interaction):
        await tell(interaction, "❌ " + lang.tr("Only members who can manage the server can choose where daily "
                                                "results go."))
        return
    me = channel.guild.me
    if enabled and me is not None:
        mine = channel.permissions_for(me)
        if not (mine.view_channel and mine.send_messages):
            await tell(interaction, "❌ " + lang.tr("I can't post in {channel}: I need **View Channel** and "
                                                    "**Send Messages** there. Nothing was changed.",
                                                    channel=channel.mention))
            return
    store = DailyStore(services.db)
    changed = await store.set_channel(guild_id, channel.id, enabled, by=interaction.user.id)
    where = channel.mention
    if enabled and changed:
        text = lang.tr("📅 The daily deal's results will be posted in {channel}: one message a day, edited as "
                       "players finish (scores only, no spoilers).", channel=where)
    elif enabled:
        text = lang.tr("📅 The daily deal's results are already posted in {channel}: one message a day, edited as "
                       "players finish (scores only, no spoilers).", channel=where)
    elif changed:
        text = lang.tr("📅 The daily deal's results are no longer posted in {channel}.", channel=where)
    else:
        text = lang.tr("📅 The daily deal's results were not posted in {channel}.", channel=where)
    await tell(interaction, text)
