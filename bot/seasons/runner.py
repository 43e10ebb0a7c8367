"""Seasons between clicks and on command: ``/pyramid season`` shows a month's leaderboard, and
when a month is over its champion of each server and game gets a card, once, in the channel
of that game's latest rated game there (the key of ``season_cards`` says once, whatever the
processes)."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cards.cards import card
from bot.core.services import Services
from bot.core.tasks import sweep_forever
from bot.seasons.season import bounds_of, previous, season_of, span, table
from bot.seasons.store import SeasonStore
from i18n import Lang

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
#: How many lines the season's leaderboard shows.
SHOWN = 10
PARAMETER_NAMES = (locale_str("month"),)


class Seasons:
    def __init__(self, services: Services, client: discord.Client) -> None:
        self.services = services
        self.client = client
        self.store = SeasonStore(services.db)

    async def run(self) -> None:
        await sweep_forever(lambda: self.services.sweep_seconds, self.sweep, "season sweep")

    async def sweep(self) -> list[str]:
        """The champion cards of the month just over, each once."""
        season = previous(season_of(self.services.clock()))
        start, end = span(season)
        done: list[str] = []
        for guild_id, kind, channel_id in await self.store.played(start, end):
            if not await self.store.claim_card(guild_id, kind, season):
                continue
            words = await self.services.languages.for_guild(guild_id)
            texts = await self.texts(guild_id, kind, season, words, over=True)
            try:
                await self.client.get_partial_messageable(channel_id).send(view=card(texts, accent=0xF0C808))
            except discord.HTTPException as exc:
                log.warning("season %s of %s in server %s: no champion card (%s)", season, kind, guild_id, exc)
            done.append(f"champion:{guild_id}:{kind}:{season}")
        return done

    async def texts(self, guild_id: int, kind: str, season: str, lang: Lang, *, over: bool) -> list[str]:
        presenter = self.services.catalogue.presenter(kind)
        start, end = span(season)
        lines = table(await self.store.outcomes(guild_id, kind, start, end), guild_id, kind)
        head = lang.tr("🗓️ **{title}** · season {season}", title=lang.gettext(presenter.title), season=season)
        if not lines:
            return [head, lang.tr("No rated games in this season yet.")]
        rows = [lang.tr("{place}. <@{user}> · **{ordinal}** · {games} games, {wins} won", place=place,
                        user=s.user_id, ordinal=f"{s.skill.ordinal:.1f}", games=s.games, wins=s.wins)
                for place, s in enumerate(lines[:SHOWN], start=1)]
        texts = [head]
        if over:
            texts.append(lang.tr("🏆 Champion of the season: <@{user}>", user=lines[0].user_id))
        return [*texts, "\n".join(rows)]

    def command(self) -> app_commands.Command[Any, ..., Any]:
        @app_commands.describe(game=locale_str("Which game"),
                               month=locale_str("Which season, as YYYY-MM (default: this month)"))
        @app_commands.choices(game=[app_commands.Choice(name=p.title, value=p.kind) for p in self.services.catalogue])
        async def season(interaction: Interaction, game: app_commands.Choice[str],
                         month: app_commands.Range[str, 7, 7] | None = None) -> None:
            await self.show(interaction, game.value, month)

        return app_commands.Command(name=locale_str("season"), callback=season,
                                    description=locale_str("This month's leaderboard of a game in this server"))

    async def show(self, interaction: Interaction, kind: str, month: str | None) -> None:
        lang = await self.services.languages.for_interaction(interaction)
        if interaction.guild_id is None:
            await interaction.response.send_message(view=card(["❌ " + lang.tr(
                "Seasons belong to a server; use this command in one.")]), ephemeral=True)
            return
        current = season_of(self.services.clock())
        chosen = month or current
        try:
            bounds_of(chosen)
        except ValueError:
            await interaction.response.send_message(view=card(["❌ " + lang.tr(
                "A season is a month written YYYY-MM, e.g. {example}.", example=current)]), ephemeral=True)
            return
        texts = await self.texts(interaction.guild_id, kind, chosen, lang, over=chosen < current)
        await interaction.response.send_message(view=card(texts), ephemeral=True)
