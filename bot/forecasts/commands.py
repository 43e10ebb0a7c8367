"""``/pyramid undo`` (take back your own last move, :mod:`bot.forecasts.undo`), ``/pyramid autoplay``
(your forced moves played for you, :mod:`bot.forecasts.autoplay`) and ``/pyramid-admin undo``."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cards.chooser import spot_letters
from bot.core.errors import PlayError
from bot.core.services import Services
from bot.forecasts.autoplay import GRACE
from bot.forecasts.form import ForecastForm
from bot.forecasts.line_pictures import line_pictures
from bot.forecasts.line_preview import preview_line, preview_words
from bot.forecasts.lines import MAX_TEXT, Forecaster
from bot.forecasts.undo import Undos
from bot.interactions.access import manages_server
from bot.interactions.finding import find_game
from bot.interactions.host import Host
from bot.interactions.replies import defer_private, explain, reader, tell
from bot.store.autoplay import AutoplayStore
from bot.store.undos import UndoMode, UndoStore
from engine.core.forecast import Line
from i18n import N_, Lang

Interaction = discord.Interaction[Any]
#: Each mode in words, for the admin's answer.
MODES = {
    "off": N_("Moves can't be taken back in this server."),
    "casual": N_("Players may take back their last move in games that are neither rated nor a shared deal's."),
    "all": N_("Players may take back their last move in every game, rated ones and shared deals included."),
}


class UndoCommands:
    def __init__(self, services: Services, host: Host) -> None:
        self.services = services
        self.host = host
        self.undos = Undos(services.store, services.sessions)
        self.forecaster = Forecaster(services.store, services.sessions)

    def commands(self) -> list[app_commands.Command[Any, ..., Any]]:
        return [
            app_commands.Command(
                name=locale_str("undo"),
                description=locale_str("Take back your last move, before anyone acts after it"),
                callback=self.undo),
            app_commands.Command(
                name=locale_str("forecast"),
                description=locale_str("Line up your next move for what the others may play first"),
                callback=self.forecast),
            app_commands.Command(
                name=locale_str("autoplay"),
                description=locale_str("Have your only legal move played for you after a short wait"),
                callback=self.autoplay),
        ]

    @app_commands.describe(
        lines=locale_str("Lines like: play B7 2,0 | pass -> play R40 1,0; separate lines with ;"),
        game=locale_str("Game number (if you play several here)"),
        clear=locale_str("Drop your forecast in this game"))
    async def forecast(self, interaction: Interaction, lines: app_commands.Range[str, 1, MAX_TEXT] | None = None,
                       game: int | None = None, clear: bool = False) -> None:
        await defer_private(interaction)
        lang = await reader(interaction, self.services.languages)
        try:
            record = await find_game(interaction, self.services, game)
            if clear or lines is None:
                mine = await self.forecaster.mine(record.id, interaction.user.id)
                if clear and mine:
                    await self.forecaster.clear(record.id, interaction.user.id)
                    await tell(interaction, lang.tr("🔮 Your forecast in game #{game} is dropped.", game=record.id))
                elif mine:
                    await tell(interaction, lang.tr("🔮 Your forecast in game #{game}, just for you:", game=record.id)
                               + "\n" + listed(mine))
                else:
                    await tell(interaction, lang.tr(
                        "🔮 You have no forecast in game #{game}. Type lines like `play B7 2,0 | pass -> "
                        "play R40 1,0`: the others' moves in order, then your answer.", game=record.id))
                return
        except PlayError as exc:
            await tell(interaction, f"❌ {explain(exc, lang)}")
            return
        await self.keep(interaction, record.id, lines, lang)

    async def forecast_form(self, interaction: Interaction, game_id: int) -> None:
        """🔮 Forecast: the form, for a player of the game (nobody else learns anything of it)."""
        lang = await reader(interaction, self.services.languages)
        try:
            (await self.services.sessions.load(game_id)).human_seat(interaction.user.id)
        except PlayError as exc:
            await tell(interaction, f"❌ {explain(exc, lang)}")
            return
        mine = await self.forecaster.mine(game_id, interaction.user.id)

        async def submit(answer: Interaction, text: str) -> None:
            await defer_private(answer)
            await self.keep(answer, game_id, text, lang)

        await interaction.response.send_modal(ForecastForm(game_id, mine, lang, submit))

    async def keep(self, interaction: Interaction, game_id: int, text: str, lang: Lang) -> None:
        """Keep the typed lines (none: drop the forecast) and say so, privately."""
        try:
            if not text.strip():
                dropped = await self.forecaster.clear(game_id, interaction.user.id)
                await tell(interaction, lang.tr("🔮 Your forecast in game #{game} is dropped.", game=game_id)
                           if dropped else lang.tr("🔮 You have no forecast in game #{game}.", game=game_id))
                return
            session, kept = await self.forecaster.set_lines(game_id, interaction.user.id, text)
        except PlayError as exc:
            await tell(interaction, f"❌ {explain(exc, lang)}")
            return
        seat = session.human_seat(interaction.user.id).seat
        # from what the player sees only; up to ten lines of re-deals: off the event loop
        previews = await asyncio.to_thread(lambda: [preview_line(session, seat, line, lang) for line in kept])
        said = lang.tr("🔮 Forecast kept for game #{game}, just for you: when the others' moves match a line and its "
                       "answer is legal then, I play it at once; otherwise your turn comes as usual.", game=game_id)
        files = await line_pictures(self.services.renderer, session, kept, previews, lang)
        pictured = [lang.gettext("🖼 Below, the board after each line marked 🖼 and your answer, as far as you can "
                                 "tell.")] if files else []
        text = "\n".join([said, listed(kept), lang.gettext("What each line would do, as far as you can tell:"),
                          *preview_words(previews, lang), *pictured])
        await tell(interaction, text, files=files)  # a card: cut to its 4,000 characters by bot.cards.cards.fit

    @app_commands.describe(enabled=locale_str("On: your forced moves are played for you; off: never"),
                           game=locale_str("Only in this game (its number); without it: all your games"))
    async def autoplay(self, interaction: Interaction, enabled: bool, game: int | None = None) -> None:
        lang = await reader(interaction, self.services.languages)
        choices = AutoplayStore(self.services.db)
        if game is None:
            await choices.choose(interaction.user.id, enabled)
            text = (N_("🤖 From now on, when you have only one legal move, I play it for you after {seconds} "
                       "seconds (not in a game where you chose otherwise).") if enabled
                    else N_("🤖 I won't play your only moves for you any more (unless you turned it on for a game)."))
            await tell(interaction, lang.tr(text, seconds=int(GRACE.total_seconds())))
            return
        try:
            record = await find_game(interaction, self.services, game)
            session = await self.services.sessions.load(record.id)
            session.human_seat(interaction.user.id)
        except PlayError as exc:
            await tell(interaction, f"❌ {explain(exc, lang)}")
            return
        await choices.choose(interaction.user.id, enabled, record.id)
        text = (N_("🤖 In game #{game}, when you have only one legal move, I play it for you after {seconds} "
                   "seconds.") if enabled else N_("🤖 In game #{game}, I won't play your only moves for you."))
        await tell(interaction, lang.tr(text, game=record.id, seconds=int(GRACE.total_seconds())))

    @app_commands.describe(game=locale_str("Game number (if you play several here)"))
    async def undo(self, interaction: Interaction, game: int | None = None) -> None:
        await defer_private(interaction)
        try:
            record = await find_game(interaction, self.services, game)
        except PlayError as exc:
            await tell(interaction, f"❌ {explain(exc, await reader(interaction, self.services.languages))}")
            return
        await self.take_back(interaction, record.id)

    async def take_back(self, interaction: Interaction, game_id: int, move_number: int | None = None) -> None:
        """``/pyramid undo`` and ↩ Take back (``move_number``: the move the button was shown for)."""
        lang = await reader(interaction, self.services.languages)
        try:
            done = await self.undos.take_back(game_id, interaction.user.id, move_number=move_number,
                                              asked_by=interaction.id)
        except PlayError as exc:
            await tell(interaction, f"❌ {explain(exc, lang)}")
            return
        record = done.session.record
        told = done.session.presenter.move_words(done.move, spot_letters(done.session), lang)
        await tell(interaction, lang.tr("↩ You took back {move} in game #{game}; it is your turn again.",
                                        move=told, game=record.id))
        if not await self.host.delivery.announce(record.id):
            await tell(interaction, lang.tr("📋 Your move is taken back; the board will follow as soon as Discord "
                                            "lets me post it."))


async def set_undo_mode(services: Services, interaction: Interaction, mode: UndoMode | None) -> None:
    """``/pyramid-admin undo``: show the server's undo setting, or change it (managers only)."""
    lang = await reader(interaction, services.languages)
    if interaction.guild_id is None:
        await tell(interaction, lang.tr("Settings belong to a server; use this command in one."))
        return
    store = UndoStore(services.db)
    if mode is not None:
        if not manages_server(interaction):
            await tell(interaction, "❌ " + lang.tr("Only members who can manage the server can change these "
                                                    "settings."))
            return
        await store.set_mode(interaction.guild_id, mode)
    current = await store.mode(interaction.guild_id)
    await tell(interaction, f"↩ {lang.gettext(MODES[current])}")


def listed(lines: Sequence[Line]) -> str:
    """A forecast's lines, numbered, for its player's eyes only."""
    return "\n".join(f"{n}. {' → '.join(line.others)} ⇒ **{line.answer}**" for n, line in enumerate(lines, 1))
