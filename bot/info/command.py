"""Looking things up: ``/pyramid games``, ``rules``, ``history`` and ``leaderboard``."""

from __future__ import annotations

import io
import json
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cards.boards import status_line
from bot.cards.cards import card
from bot.cards.links import game_link
from bot.core.errors import PlayError
from bot.core.services import Services
from bot.interactions.access import seen_by
from bot.interactions.finding import find_seen, refuse_unknown_game
from bot.interactions.host import Host
from bot.interactions.replies import defer_private, explain, reader, show_card, tell
from bot.records.build import record_of
from bot.stats.command import leaderboard_command
from bot.store import CorruptRecord
from engine.core import EngineError

Interaction = discord.Interaction[Any]

#: ``/pyramid games`` lists this many of the player's newest games (it reads no more).
GAMES_LISTED = 20


class InfoCommands:
    def __init__(self, services: Services, host: Host) -> None:
        self.services = services
        self.host = host

    def commands(self) -> list[app_commands.Command[Any, ..., Any]]:
        return [
            app_commands.Command(name=locale_str("games"),
                                 description=locale_str("Your games in this server and whose turn it is"),
                                 callback=self.games),
            self._rules_command(),
            app_commands.Command(name=locale_str("history"),
                                 description=locale_str("The move log, and the game record as a file"),
                                 callback=self.history),
            leaderboard_command(self.services.catalogue, self.leaderboard),
        ]

    def _rules_command(self) -> app_commands.Command[Any, ..., Any]:
        """Its ``game:`` choices are the catalogue's games."""

        async def rules(interaction: Interaction, game: app_commands.Choice[str]) -> None:
            await self.rules(interaction, game.value)

        choices = [app_commands.Choice(name=p.title, value=p.kind) for p in self.services.catalogue]
        return app_commands.Command(name=locale_str("rules"), description=locale_str("The rules of a game, briefly"),
                                    callback=app_commands.choices(game=choices)(rules))

    async def games(self, interaction: Interaction) -> None:
        services = self.services
        await defer_private(interaction)
        lang = await reader(interaction, services.languages)
        records = await services.store.games_of_user(interaction.user.id, interaction.guild_id, ("lobby", "active"),
                                                     newest=GAMES_LISTED)
        if not records:
            await tell(interaction, lang.tr("You are not in any running game here. Start one with `/pyramid new`."))
            return
        lines = []
        for record in records:
            p = services.catalogue.presenter(record.kind)
            title = lang.gettext(p.title)
            reader_dm = await self.host.announcer.dm_channel(interaction.user.id) if record.seat_dms else None
            link = game_link(record, reader_dm=reader_dm)
            if record.status == "lobby":
                lines.append(lang.tr("{emoji} **#{game} {title}** — lobby, waiting for players · {link}",
                                     emoji=p.emoji, game=record.id, title=title, link=link))
                continue
            try:  # the caller's own games: the visibility rule lets them see each (asked all the same)
                await seen_by(services.store, record, interaction)
                session = await services.sessions.load(record.id)
            except PlayError:
                continue
            seat = session.seat_of(interaction.user.id)
            turn = (lang.tr("**your turn**") if seat is not None and session.to_act == seat.seat
                    else status_line(session, lang))
            clock = await self.host.reminders.clocks.line(session, lang)
            if clock is not None:
                turn = f"{turn} · {clock}"
            lines.append(lang.tr("{emoji} **#{game} {title}** (move {move}) — {turn} · {link}", emoji=p.emoji,
                                 game=record.id, title=title, move=session.version, turn=turn, link=link))
        await tell(interaction, "\n".join(lines), allowed_mentions=discord.AllowedMentions.none())

    async def rules(self, interaction: Interaction, kind: str) -> None:
        lang = await reader(interaction, self.services.languages)
        try:
            p = self.services.catalogue.presenter(kind)
        except EngineError as exc:
            await tell(interaction, f"❌ {explain(exc, lang)}")
            return
        footer = "-# " + lang.tr("Moves can be typed with /pyramid play using the notation shown in autocomplete.")
        await show_card(interaction, card([f"## {p.emoji} {lang.gettext(p.title)}"],
                                          accent=discord.Colour.gold().value, after=[p.rules_text(lang), footer]))

    async def history(self, interaction: Interaction, game: int | None = None) -> None:
        """The move log, and the game record as a file (``bot.records``, docs/game-record.md)."""
        services = self.services
        lang = await reader(interaction, services.languages)
        try:
            seen = await find_seen(interaction, services, game, statuses=("active", "finished"))
            record = seen.record
            rules = services.catalogue.presenter(record.kind).game
        except (PlayError, EngineError) as exc:
            await tell(interaction, f"❌ {explain(exc, lang)}")
            return
        await defer_private(interaction)
        try:
            # The seed and salt are in it only once they may be shown (bot.records.build.deal_is_public):
            # the game is over, and it is no challenge's deal that others may still be playing (CP-3).
            document = await record_of(services.store, rules, record.id)
        except CorruptRecord as exc:
            await tell(interaction, f"❌ {explain(exc, lang)}")
            return
        who = [p.name for p in document.players]
        lines = [f"{m.seq}. {who[m.seat] if m.seat < len(who) else m.seat}: `{m.move}`" for m in document.moves]
        text = "\n".join(lines[-40:]) or lang.tr("No moves yet.")
        if len(lines) > 40:
            earlier = len(lines) - 40
            text = lang.trn("… {n} earlier move in the file.", "… {n} earlier moves in the file.", earlier,
                            n=earlier) + "\n" + text
        about = lang.tr("The file is the game record: `pyramid-bot verify` checks it and `pyramid-bot replay` "
                        "draws it.")
        data = json.dumps(document.model_dump(mode="json"), indent=1).encode()
        file = discord.File(io.BytesIO(data), filename=f"game-{record.id}.json")
        head = lang.tr("**Game #{game}** move log:", game=record.id)
        await tell(interaction, f"{head}\n{text}"[:1990 - len(about)] + "\n" + about, file=file)

    async def leaderboard(self, interaction: Interaction, game: str | None = None, min_games: int = 3) -> None:
        """Without ``game``: the channel's latest challenge and wins in this server; with
        it: the server's rating leaderboard of that game (players with ``min_games``)."""
        if interaction.guild_id is None:  # wins are counted per server; a DM would show every server's
            lang = await reader(interaction, self.services.languages)
            await tell(interaction, lang.tr("Leaderboards belong to a server; use this command in one."))
            return
        if await refuse_unknown_game(interaction, self.services, game):
            return
        await defer_private(interaction)
        lang = await reader(interaction, self.services.languages)
        if game is None:
            text = await self.host.leaderboards.server_text(interaction.guild_id, interaction.channel_id, lang)
        else:
            text = await self.host.ratings.leaderboard_text(interaction.guild_id, game, min_games=min_games,
                                                            lang=lang)
        await tell(interaction, text, allowed_mentions=discord.AllowedMentions.none())
