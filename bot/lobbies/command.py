"""``/pyramid new``: open a lobby (a solo game starts at once), or a challenge.

Its options are built per client from the catalogue it was given
(:mod:`bot.lobbies.options`), so a game added to the catalogue is a
``game:`` choice with its own options, with no code here naming it."""

from __future__ import annotations

import inspect
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.core.services import Services
from bot.interactions.permission_checks import permission_refusal
from bot.interactions.replies import explain, reader, tell
from bot.interactions.surfaces import surface_of
from bot.interactions.translator import composed
from bot.leaderboards.leaderboards import CHALLENGE_KIND
from bot.lobbies.challenges import Challenges
from bot.lobbies.handlers import Lobbies, Rematch
from bot.lobbies.options import lobby_options, refusal, signature
from engine.core import EngineError
from engine.core.options import offered
from i18n import N_

Interaction = discord.Interaction[Any]
CHALLENGE = N_("everyone in this channel plays the same deal, with a leaderboard")


class LobbyCommands:
    def __init__(self, services: Services, lobbies: Lobbies, challenges: Challenges) -> None:
        self.services = services
        self.lobbies = lobbies
        self.challenges = challenges

    def commands(self) -> list[app_commands.Command[Any, ..., Any]]:
        return [self._new_command()]

    def _new_command(self) -> app_commands.Command[Any, ..., Any]:
        catalogue = self.services.catalogue
        options = lobby_options(catalogue)
        challenge_title = catalogue.presenter(CHALLENGE_KIND).title

        async def new(interaction: Interaction, game: app_commands.Choice[str], **chosen: Any) -> None:
            challenge = bool(chosen.pop("challenge", False))
            await self.new(interaction, game.value, chosen, challenge=challenge)

        Param = inspect.Parameter
        new.__signature__ = signature(  # type: ignore[attr-defined]
            [Param("interaction", Param.POSITIONAL_OR_KEYWORD, annotation=Interaction),
             Param("game", Param.POSITIONAL_OR_KEYWORD, annotation=app_commands.Choice[str])],
            options,
            [Param("challenge", Param.KEYWORD_ONLY, default=False, annotation=bool)],
        )
        described = app_commands.describe(
            game=locale_str("Which game"), **{o.name: o.locale_description for o in options},
            challenge=composed(f"{challenge_title}: {CHALLENGE}",
                               lambda gettext: f"{gettext(challenge_title)}: {gettext(CHALLENGE)}"),
        )(new)
        chosen_game = app_commands.choices(
            game=[app_commands.Choice(name=p.title, value=p.kind) for p in catalogue])(described)
        return app_commands.Command(name=locale_str("new"),
                                    description=locale_str("Open a lobby for a new game (solo games start at once)"),
                                    callback=chosen_game)

    async def new(self, interaction: Interaction, kind: str, given: dict[str, Any], *, challenge: bool,
                  rematch: Rematch | None = None) -> None:
        """``/pyramid new``: every check it makes, then the lobby (or the challenge). 🔁 Rematch comes
        through here too (``rematch``: what the lobby carries over), so it can skip none of them."""
        catalogue = self.services.catalogue
        lang = await reader(interaction, self.services.languages)
        try:
            presenter = catalogue.presenter(kind)
        except EngineError as exc:
            await tell(interaction, f"❌ {explain(exc, lang)}")
            return
        offers = offered(presenter.game.options_model)
        known = {o.name for o in offers}
        options = {k: v for k, v in given.items() if v is not None and k in known}
        ignored = [k for k, v in given.items() if v is not None and k not in known]
        if ignored:
            await tell(interaction, "❌ " + lang.tr("{title} has no option {names}.",
                                                    title=lang.gettext(presenter.title),
                                                    names=", ".join(lang.gettext(k) for k in ignored)))
            return
        refused = refusal(offers, options, lang)
        if refused is not None:
            await tell(interaction, "❌ " + lang.tr("{reason} Nothing was opened.", reason=refused))
            return
        lacking = await permission_refusal(interaction, self.services.store, lang)
        if lacking is not None:
            await tell(interaction, lacking)
            return
        if challenge:
            if surface_of(interaction) == "interactions":  # its entrants play in private threads of the bot's
                await tell(interaction, "❌ " + lang.tr(
                    "Challenges are played in a server that added the bot: each entrant gets a private thread "
                    "there. Here you can play any game with `/pyramid new` without a challenge."))
                return
            if kind != CHALLENGE_KIND:
                await tell(interaction, "❌ " + lang.tr("Only {title} is played as a channel challenge.",
                                                        title=lang.gettext(catalogue.presenter(CHALLENGE_KIND).title)))
                return
            await self.challenges.open(interaction, options, lang)
            return
        await self.lobbies.open(interaction, presenter, options, lang, rematch=rematch)
