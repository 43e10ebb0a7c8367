"""``/pyramid-admin tournament new`` and ``/pyramid tournament join|withdraw|standings``.

Joining and withdrawing go through :mod:`bot.tournaments.signup`, as the card's buttons do.
The commands only check what was asked and answer; what happens later (the start, the
rounds, the cards) is :mod:`bot.tournaments.runner`'s. Answers go to the one who asked,
in their language; the standings card in the channel speaks the server's.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cards.cards import card
from bot.core.services import Services
from bot.tournaments import signup
from bot.tournaments.runner import FORMAT_NAMES, Tournaments, table_range
from bot.tournaments.store import FORMATS, Format
from i18n import Lang

Interaction = discord.Interaction[Any]
#: The option names of these commands, as the callbacks spell them; listed so Babel extracts them
#: (``bot.interactions.translator`` translates every option name from the catalogues).
PARAMETER_NAMES = (locale_str("format"), locale_str("name"), locale_str("starts_in_hours"),
                   locale_str("round_hours"), locale_str("table_size"), locale_str("rated"), locale_str("tournament"))
#: The longest sign-up, round and tournament name the commands take.
MOST_SIGNUP_HOURS = 720.0
MOST_ROUND_HOURS = 2160.0
NAME_LENGTH = 60
#: The largest tournament number the commands take (Discord wants integers it can hold exactly).
MOST_NUMBER = 2**31 - 1
#: ``tournament:``, the number of one (discord.py reads the annotations from the module's names).
Number = app_commands.Range[int, 1, MOST_NUMBER] | None


async def _lang(services: Services, interaction: Interaction) -> Lang:
    return await services.languages.for_interaction(interaction)


async def _tell(interaction: Interaction, text: str) -> None:
    """A private card to the one who asked: the answer, or the completion of its private "thinking"."""
    if interaction.response.is_done():
        await interaction.edit_original_response(view=card([text]))
    else:
        await interaction.response.send_message(view=card([text]), ephemeral=True)


def admin_group(services: Services, runner: Tournaments) -> app_commands.Group:
    """``/pyramid-admin tournament``: its ``new``."""
    group = app_commands.Group(name=locale_str("tournament"),
                               description=locale_str("Tournaments in this server (admins)"))
    catalogue = services.catalogue

    @app_commands.describe(
        game=locale_str("Which game"),
        format=locale_str("Swiss and round robin for two-player games; multi-player rounds for 3 to 6 players"),
        name=locale_str("The tournament's name (threads and cards carry it)"),
        starts_in_hours=locale_str("Sign-up closes and round 1 starts after this many hours (0-720)"),
        round_hours=locale_str("Hours each round lasts; then games still running are decided by the clock (1-2160)"),
        rounds=locale_str("How many rounds (default: Swiss as many as the entrants need, round robin all, else 3)"),
        table_size=locale_str("Multi-player rounds: the largest table (3-6; default the game's most)"),
        rated=locale_str("Whether its games change ratings (default: yes)"),
    )
    @app_commands.choices(
        game=[app_commands.Choice(name=p.title, value=p.kind) for p in catalogue],
        format=[app_commands.Choice(name=FORMAT_NAMES[f], value=f) for f in FORMATS],
    )
    async def new(interaction: Interaction, game: app_commands.Choice[str], format: app_commands.Choice[str],
                  name: app_commands.Range[str, 1, NAME_LENGTH] | None = None,
                  starts_in_hours: app_commands.Range[float, 0.0, MOST_SIGNUP_HOURS] = 24.0,
                  round_hours: app_commands.Range[float, 1.0, MOST_ROUND_HOURS] = 72.0,
                  rounds: app_commands.Range[int, 1, 30] | None = None,
                  table_size: app_commands.Range[int, 3, 6] | None = None,
                  rated: bool = True) -> None:
        await open_tournament(services, runner, interaction, game.value, format.value, name, float(starts_in_hours),
                              float(round_hours), rounds, table_size, rated)

    group.add_command(app_commands.Command(name=locale_str("new"), callback=new,
                                           description=locale_str("Open a tournament: sign-up, start, rounds "
                                                                  "(admins)")))
    return group


async def open_tournament(services: Services, runner: Tournaments, interaction: Interaction, kind: str, format: str,
                          name: str | None, starts_in_hours: float, round_hours: float, rounds: int | None,
                          table_size: int | None, rated: bool) -> None:
    lang = await _lang(services, interaction)
    perms = interaction.permissions
    if interaction.guild_id is None or interaction.channel_id is None:
        await _tell(interaction, "❌ " + lang.tr("Tournaments belong to a server; use this command in one of its "
                                                "channels."))
        return
    if not (perms.manage_guild or perms.administrator):
        await _tell(interaction, "❌ " + lang.tr("Only members who can manage the server can open tournaments."))
        return
    if not isinstance(interaction.channel, discord.TextChannel):
        await _tell(interaction, "❌ " + lang.tr("Open tournaments in a text channel: their games get threads "
                                                "there."))
        return
    presenter = services.catalogue.presenter(kind)
    game = presenter.game
    low, high = game.player_range(game.parse_options({}))
    title = lang.gettext(presenter.title)
    if format in ("swiss", "round-robin") and not low <= 2 <= high:
        await _tell(interaction, "❌ " + lang.tr("{format} is for two-player games; {title} is not played by two. "
                                                "Nothing was opened.", format=lang.gettext(FORMAT_NAMES[format]),
                                                title=title))
        return
    if format == "tables":
        smallest, largest = table_range(low, table_size or high)
        if largest < smallest or (table_size is not None and table_size > high):
            await _tell(interaction, "❌ " + lang.tr("Multi-player rounds need tables of 3 to 6 players that "
                                                    "{title} allows. Nothing was opened.", title=title))
            return
    chosen: Format = format  # type: ignore[assignment]  # checked against FORMATS by the command's choices
    starts_at = services.clock() + timedelta(hours=starts_in_hours)
    tournament_id = await runner.store.create(
        guild_id=interaction.guild_id, channel_id=interaction.channel_id,
        name=(name or "").strip() or lang.tr("{title} tournament", title=title), kind=kind, format=chosen,
        rounds=rounds, table_size=table_size if format == "tables" else None, starts_at=starts_at,
        round_hours=round_hours, rated=rated, created_by=interaction.user.id)
    await interaction.response.defer(ephemeral=True, thinking=True)
    await runner.show_card(tournament_id)
    await _tell(interaction, "✅ " + lang.tr("Tournament #{number} is open for sign-up; its card is in this channel.",
                                            number=tournament_id))


def player_group(services: Services, runner: Tournaments) -> app_commands.Group:
    """``/pyramid tournament``: ``join``, ``withdraw``, ``standings``."""
    group = app_commands.Group(name=locale_str("tournament"), description=locale_str("This server's tournaments"))
    number = locale_str("The tournament's number (default: this server's newest)")

    @app_commands.describe(tournament=number)
    async def join(interaction: Interaction, tournament: Number = None) -> None:
        await signup.join(runner, interaction, tournament)

    @app_commands.describe(tournament=number)
    async def withdraw(interaction: Interaction, tournament: Number = None) -> None:
        await signup.withdraw(runner, interaction, tournament, sign_up_only=False)

    @app_commands.describe(tournament=number)
    async def standings(interaction: Interaction, tournament: Number = None) -> None:
        await show_standings(services, runner, interaction, tournament)

    group.add_command(app_commands.Command(name=locale_str("join"), callback=join,
                                           description=locale_str("Sign up for a tournament")))
    group.add_command(app_commands.Command(name=locale_str("withdraw"), callback=withdraw,
                                           description=locale_str("Leave a tournament (your running games are "
                                                                  "forfeits)")))
    group.add_command(app_commands.Command(name=locale_str("standings"), callback=standings,
                                           description=locale_str("A tournament's standings")))
    return group


async def show_standings(services: Services, runner: Tournaments, interaction: Interaction,
                         number: int | None) -> None:
    lang = await _lang(services, interaction)
    t = await signup.find(runner, interaction, number, ("signup", "running", "finished"), lang)
    if t is None:
        return
    await interaction.response.send_message(view=card(await runner.card_text(t, lang)), ephemeral=True)

