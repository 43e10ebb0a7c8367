"""Playing by command: ``/pyramid play`` (with autocomplete), ``hand``, ``status`` and
``resign``. Each one defers before slow work and answers privately."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cards.chooser import spot_letters
from bot.cards.descriptions import board_words
from bot.core.errors import PlayError, StaleBoard
from bot.core.services import Services
from bot.interactions.finding import find_game, find_seen
from bot.interactions.host import Host
from bot.interactions.move_replies import move_reply
from bot.interactions.replies import defer_private, explain, reader, tell
from bot.turns.handlers import Turns
from engine.core import MoveRejected
from engine.core.notation import MAX_MOVE_LENGTH

Interaction = discord.Interaction[Any]
#: The longest move text the bot reads (Discord's max_length on ``move:``, checked
#: again here since a forged interaction skips it); real moves are under 30.
MAX_MOVE_TEXT = MAX_MOVE_LENGTH


class PlayCommands:
    def __init__(self, services: Services, host: Host, turns: Turns) -> None:
        self.services = services
        self.host = host
        self.turns = turns

    def commands(self) -> list[app_commands.Command[Any, ..., Any]]:
        play: app_commands.Command[Any, ..., Any] = app_commands.Command(
            name=locale_str("play"), description=locale_str("Make a move in the rules notation"),
            callback=self.play)
        play.autocomplete("move")(self.complete_move)
        return [
            play,
            app_commands.Command(name=locale_str("hand"), description=locale_str("Your private hand, just for you"),
                                 callback=self.hand),
            app_commands.Command(name=locale_str("status"),
                                 description=locale_str("The current board of the game here"), callback=self.status),
            app_commands.Command(name=locale_str("resign"),
                                 description=locale_str("Leave a running game (an AI takes over your seat in bigger "
                                                        "games)"), callback=self.resign),
        ]

    @app_commands.describe(move=locale_str("Your move, e.g. play R40 1,0"),
                           game=locale_str("Game number (if you play several here)"))
    async def play(self, interaction: Interaction, move: app_commands.Range[str, 1, MAX_MOVE_TEXT],
                   game: int | None = None) -> None:
        sessions = self.services.sessions
        lang = await reader(interaction, self.services.languages)
        if len(move) > MAX_MOVE_TEXT:
            await tell(interaction, "❌ " + lang.tr("That move is too long: moves are at most {n} characters.",
                                                    n=MAX_MOVE_TEXT))
            return
        await defer_private(interaction)
        try:
            record = await find_game(interaction, self.services, game)
            # The engine would take the move from a seat an AI now plays: refuse first.
            before = await sessions.load(record.id)
            before.human_seat(interaction.user.id)
            if await self.turns.previews.wanted(interaction.user.id):  # see before you commit
                await self.turns.previews.show(interaction, before, move)
                return
            outcome = await sessions.make_move(record.id, move, user_id=interaction.user.id)
        except StaleBoard:
            await tell(interaction, "⌛ " + lang.tr("Someone moved at the same moment; please try again."))
            return
        except (PlayError, MoveRejected) as exc:
            await tell(interaction, f"❌ {explain(exc, lang)}")
            return
        told = before.presenter.move_words(outcome.move, spot_letters(before), lang)  # the letters it was made by
        await tell(interaction, lang.tr("✅ You played {move} in game #{game}.", move=told, game=record.id))
        if not await self.host.delivery.announce(record.id, move_reply(interaction, outcome.session.version)):
            await tell(interaction, lang.tr("📋 Your move is saved; the board will follow as soon as Discord lets me "
                                            "post it."))

    async def complete_move(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        if len(current) > MAX_MOVE_TEXT:
            return []
        number = getattr(interaction.namespace, "game", None)
        try:
            record = await find_game(interaction, self.services, number if isinstance(number, int) else None)
            session = await self.services.sessions.load(record.id)
            seat = session.human_seat(interaction.user.id)
        except PlayError:
            return []
        if session.to_act != seat.seat:
            return []
        text = current.strip().lower()
        moves = session.game.legal_moves(session.state)
        starts = [m for m in moves if m.lower().startswith(text)]
        contains = [m for m in moves if text in m.lower() and m not in starts]
        return [app_commands.Choice(name=m, value=m) for m in (starts + contains)[:25]]

    async def hand(self, interaction: Interaction, game: int | None = None) -> None:
        try:
            seen = await find_seen(interaction, self.services, game)
            session = await self.services.sessions.load(seen.game_id)
        except PlayError as exc:
            await tell(interaction, f"❌ {explain(exc, await reader(interaction, self.services.languages))}")
            return
        await self.turns.show_hand(interaction, session, seen)

    @app_commands.describe(game=locale_str("Game number (if you play several here)"),
                           text=locale_str("Describe the board in words instead of a picture"))
    async def status(self, interaction: Interaction, game: int | None = None, text: bool = False) -> None:
        lang = await reader(interaction, self.services.languages)
        try:
            seen = await find_seen(interaction, self.services, game, statuses=("active", "finished"))
            session = await self.services.sessions.load(seen.game_id)
        except PlayError as exc:
            await tell(interaction, f"❌ {explain(exc, lang)}")
            return
        await defer_private(interaction)
        note = lang.tr("Game #{game}:", game=seen.game_id)
        if text:  # the picture's alt text as a message (a screen reader, no pictures)
            await tell(interaction, board_words(session, lang, note, seen=seen),
                       allowed_mentions=discord.AllowedMentions.none())
            return
        await self.turns.send_current_board(interaction, session, note, lang, seen=seen)

    async def resign(self, interaction: Interaction, game: int | None = None) -> None:
        await defer_private(interaction)
        lang = await reader(interaction, self.services.languages)
        try:
            record = await find_game(interaction, self.services, game)
            message = await self.host.resignations.resign(record.id, interaction.user.id, reason="resigned",
                                                          lang=lang)
        except PlayError as exc:
            await tell(interaction, f"❌ {explain(exc, lang)}")
            return
        await tell(interaction, message)
