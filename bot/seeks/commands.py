"""``/pyramid seek`` and ``/pyramid queue``: asking for a game with anyone in the server.

A seek opens a lobby through the lobby's own path (``Lobbies.open``: the options, the cap on
open games, the card with its Join button) and records how many players it waits for and
whether AIs may fill it after a wait; :mod:`bot.seeks.runner` starts it. The queue records the
player (one entry per game and server) and matches at once if someone close in rating waits.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Literal, Protocol

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cards.cards import card
from bot.core.services import Services
from bot.games.presenter import Presenter
from bot.ratings import EVERYWHERE
from bot.seeks.runner import Seeks
from bot.seeks.store import Entry
from i18n import Lang

Interaction = discord.Interaction[Any]
#: The longest wait before AIs fill a seek.
MOST_WAIT_MINUTES = 10080
PARAMETER_NAMES = (locale_str("players"), locale_str("ai_after_minutes"), locale_str("ai_level"),
                   locale_str("leave"), locale_str("across_servers"))
#: ``ai_level:``'s choices.
CHOICE_NAMES = (locale_str("easy"), locale_str("normal"), locale_str("hard"))


class LobbyOpener(Protocol):
    """What a seek needs of the lobbies (``bot.lobbies.handlers.Lobbies``)."""

    async def open(self, interaction: Interaction, presenter: Presenter, raw_options: dict[str, Any],
                   lang: Lang | None = None) -> None: ...


async def _tell(interaction: Interaction, text: str) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(view=card([text]), ephemeral=True)
    else:
        await interaction.response.send_message(view=card([text]), ephemeral=True)


def seek_command(services: Services, seeks: Seeks, lobbies: LobbyOpener) -> app_commands.Command[Any, ..., Any]:
    @app_commands.describe(
        game=locale_str("Which game"),
        players=locale_str("How many players the game waits for (default: the fewest it takes, at least two)"),
        ai_after_minutes=locale_str("After this many minutes, AIs take the seats nobody took (default: never)"),
        ai_level=locale_str("How well those AIs play"),
    )
    @app_commands.choices(game=[app_commands.Choice(name=p.title, value=p.kind) for p in services.catalogue])
    async def seek(interaction: Interaction, game: app_commands.Choice[str],
                   players: app_commands.Range[int, 2, 6] | None = None,
                   ai_after_minutes: app_commands.Range[int, 1, MOST_WAIT_MINUTES] | None = None,
                   ai_level: Literal["easy", "normal", "hard"] = "normal") -> None:
        await open_seek(services, seeks, lobbies, interaction, game.value, players, ai_after_minutes, ai_level)

    return app_commands.Command(name=locale_str("seek"), callback=seek,
                                description=locale_str("Open seats anyone in this server may take; the game starts "
                                                       "once they are taken"))


async def open_seek(services: Services, seeks: Seeks, lobbies: LobbyOpener, interaction: Interaction, kind: str,
                    players: int | None, ai_after: int | None, ai_level: str) -> None:
    lang = await services.languages.for_interaction(interaction)
    if interaction.guild_id is None or not isinstance(interaction.channel, discord.TextChannel):
        await _tell(interaction, "❌ " + lang.tr("Seeks are open to a server: use this command in one of its text "
                                                "channels."))
        return
    presenter = services.catalogue.presenter(kind)
    low, high = presenter.game.player_range(presenter.game.parse_options({}))
    wanted = players if players is not None else max(2, low)
    title = lang.gettext(presenter.title)
    if not low <= wanted <= high or wanted < 2:
        await _tell(interaction, "❌ " + lang.tr("{title} is played by {low} to {high}; a seek is for two or more. "
                                                "Nothing was opened.", title=title, low=low, high=high))
        return
    already = await seeks.store.open_seek_of(interaction.guild_id, interaction.user.id)
    if already is not None:
        await _tell(interaction, "❌ " + lang.tr("Your seek for game #{game} is still open: one at a time.",
                                                game=already))
        return
    before = {g.id for g in await services.store.games_of_user_in_channel(
        interaction.user.id, interaction.channel_id, ["lobby"])}
    await lobbies.open(interaction, presenter, {}, lang)
    opened = [g for g in await services.store.games_of_user_in_channel(
        interaction.user.id, interaction.channel_id, ["lobby"]) if g.id not in before]
    if not opened:  # refused (and told why) by the lobby's checks
        return
    game_id = opened[-1].id
    fill_at = services.clock() + timedelta(minutes=ai_after) if ai_after is not None else None
    await seeks.store.add_seek(game_id, interaction.guild_id, interaction.user.id, wanted, ai_level, fill_at)
    note = lang.tr("🔎 Your seek is open: game #{game} starts by itself once {players} have joined.", game=game_id,
                   players=wanted)
    if ai_after is not None:
        note += " " + lang.tr("After {minutes} minutes, AIs take the seats nobody took.", minutes=ai_after)
    await _tell(interaction, note)


def queue_command(services: Services, seeks: Seeks) -> app_commands.Command[Any, ..., Any]:
    @app_commands.describe(game=locale_str("Which game"), leave=locale_str("Leave the queue instead"),
                           across_servers=locale_str("Also be matched with players of other servers (played in "
                                                     "your direct messages)"))
    @app_commands.choices(game=[app_commands.Choice(name=p.title, value=p.kind) for p in services.catalogue])
    async def queue(interaction: Interaction, game: app_commands.Choice[str], leave: bool = False,
                    across_servers: bool = False) -> None:
        await enter_queue(services, seeks, interaction, game.value, leave, across_servers)

    return app_commands.Command(name=locale_str("queue"), callback=queue,
                                description=locale_str("Wait for an opponent of close rating in this server"))


async def enter_queue(services: Services, seeks: Seeks, interaction: Interaction, kind: str, leave: bool,
                      across: bool = False) -> None:
    lang = await services.languages.for_interaction(interaction)
    guild_id, channel_id = interaction.guild_id, interaction.channel_id
    if guild_id is None or channel_id is None or not isinstance(interaction.channel, discord.TextChannel):
        await _tell(interaction, "❌ " + lang.tr("The queue is a server's: use this command in one of its text "
                                                "channels."))
        return
    presenter = services.catalogue.presenter(kind)
    title = lang.gettext(presenter.title)
    if leave:
        left = await seeks.store.leave(guild_id, kind, interaction.user.id)
        await _tell(interaction, lang.tr("You left the queue for {title}.", title=title) if left else
                    "❌ " + lang.tr("You are not in the queue for {title}.", title=title))
        return
    low, high = presenter.game.player_range(presenter.game.parse_options({}))
    if not low <= 2 <= high:
        await _tell(interaction, "❌ " + lang.tr("The queue pairs two players; {title} is not played by two.",
                                                title=title))
        return
    limit = (await services.store.guild_settings(guild_id)).max_open_games
    # across servers, the games played in DMs count against the server's cap too
    dm_games = await seeks.store.open_dm_games(interaction.user.id) if across else 0
    if len(await services.store.games_of_user(interaction.user.id, guild_id, ["lobby", "active"])) + dm_games >= limit:
        await _tell(interaction, "❌ " + lang.tr("You have {limit} open games here, this server's most; finish one "
                                                "first.", limit=limit))
        return
    rating = await seeks.rating(interaction.user.id, guild_id, kind)
    wide = await seeks.rating(interaction.user.id, EVERYWHERE, kind) if across else None
    entry = Entry(guild_id, kind, interaction.user.id, interaction.user.display_name, channel_id, rating,
                  services.clock(), across, wide)
    if not await seeks.store.enter(entry):
        await _tell(interaction, "❌ " + lang.tr("You are in the queue for {title} already (one place per game: leave "
                                                "it with `leave:True` to queue again).", title=title))
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    text = lang.tr("⏳ You are in the queue for {title} (rating {rating}): you are matched with a player of close "
                   "rating, further away the longer you wait.", title=title, rating=f"{rating:g}")
    if wide is not None:
        text += "\n" + lang.tr("🌐 Across servers too (rating across servers {rating}): a player of this server comes "
                               "first; a game with a player of another server is played in your direct messages with "
                               "me, so keep them open.", rating=f"{wide:g}")
    await interaction.edit_original_response(view=card([text]))
    await seeks.match_queue()
