"""``/pyramid stats [player] [game]``: ratings, records and streaks, answered privately;
and the ``/pyramid leaderboard`` command's options (``game:`` from the catalogue,
``min_games:``), whose answer the info area gives."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.core.services import Services
from bot.games.catalogue import Catalogue
from bot.interactions.finding import refuse_unknown_game
from bot.interactions.host import Host
from bot.interactions.replies import defer_private, reader, tell
from bot.interactions.translator import formatted
from bot.stats.ratings import DEFAULT_MIN_GAMES
from i18n import N_

Interaction = discord.Interaction[Any]
#: Bounds of ``min_games:`` on the leaderboard (Discord's min/max, checked again for forged values).
MIN_GAMES = (1, 100)

Leaderboard = Callable[[Interaction, str | None, int], Awaitable[None]]


def game_choices(catalogue: Catalogue) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=p.title, value=p.kind) for p in catalogue]


def leaderboard_command(catalogue: Catalogue, answer: Leaderboard) -> app_commands.Command[Any, ..., Any]:
    """``/pyramid leaderboard [game] [min_games]``; ``answer(interaction, game, min_games)``
    says it (without a game: challenge results and wins, as before ratings)."""

    @app_commands.describe(game=locale_str("A game: its rating leaderboard in this server"),
                           min_games=formatted(N_("With game: only players with at least this many rated games "
                                                  "(default {n})"), n=DEFAULT_MIN_GAMES))
    @app_commands.choices(game=game_choices(catalogue))
    async def leaderboard(interaction: Interaction, game: app_commands.Choice[str] | None = None,
                          min_games: app_commands.Range[int, 1, 100] = DEFAULT_MIN_GAMES) -> None:
        await answer(interaction, game.value if game is not None else None,
                     max(MIN_GAMES[0], min(int(min_games), MIN_GAMES[1])))

    return app_commands.Command(name=locale_str("leaderboard"),
                                description=locale_str("Challenge results and wins here; with game: that game's "
                                                       "ratings"),
                                callback=leaderboard)


class StatsCommands:
    def __init__(self, services: Services, host: Host) -> None:
        self.services = services
        self.host = host

    def commands(self) -> list[app_commands.Command[Any, ..., Any]]:
        @app_commands.describe(player=locale_str("Whose stats (default: yours)"), game=locale_str("Only this game"))
        @app_commands.choices(game=game_choices(self.services.catalogue))
        async def stats(interaction: Interaction, player: discord.User | None = None,
                        game: app_commands.Choice[str] | None = None) -> None:
            await self.stats(interaction, player, game.value if game is not None else None)

        return [app_commands.Command(name=locale_str("stats"),
                                     description=locale_str("Ratings, records, streaks and favourite game"),
                                     callback=stats)]

    async def stats(self, interaction: Interaction, player: discord.abc.User | None, game: str | None) -> None:
        if await refuse_unknown_game(interaction, self.services, game):
            return
        await defer_private(interaction)
        lang = await reader(interaction, self.services.languages)
        who = player if player is not None else interaction.user
        text = await self.host.ratings.stats_text(who.id, interaction.guild_id, who=who.mention, game=game, lang=lang)
        await tell(interaction, text, allowed_mentions=discord.AllowedMentions.none())
