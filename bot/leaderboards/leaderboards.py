"""Continuous Pyramid challenges' leaderboards, and wins per player in a server.

A challenge is one Continuous Pyramid deal that everyone in a channel plays, each in
a game of their own (so nobody sees another's choices). Its message in the channel
is a leaderboard, edited as results come in: ranked by tiles placed, then fewest
undos, then who finished first. It is said in the server's language.
"""

from __future__ import annotations

import logging

import discord

from bot.cards.cards import note
from bot.cards.components import button
from bot.cards.custom_ids import CustomId
from bot.core.languages import Languages
from bot.core.session import Session
from bot.games.catalogue import Catalogue
from bot.games.presenter import ENGLISH
from bot.store import GameRecord, GameStore
from bot.store.tallies import server_board
from i18n import Lang

log = logging.getLogger(__name__)

#: The game a challenge deals (challenges store no kind: they were always this one).
CHALLENGE_KIND = "continuous-pyramid"
#: Tiles in a Continuous Pyramid deal: placing them all wins.
TILES = 144
#: Players listed under "Wins in this server", and entrants on a challenge's leaderboard.
SERVER_LINES = 15
CHALLENGE_LINES = 20


def challenge_view(challenge_id: int, lang: Lang | None = None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(button(CustomId("chal", challenge_id, 0), (lang or ENGLISH).gettext("▶ Play this deal"),
                         discord.ButtonStyle.success))
    return view


def rank_key(record: GameRecord) -> tuple[float, float, str]:
    details = (record.result or {}).get("details", {}) or {}
    scores = (record.result or {}).get("scores", []) or [0]
    placed = float(details.get("tiles_placed", scores[0] if scores else 0))
    undos = float(details.get("undos", 0))
    return (-placed, undos, record.updated_at)


def leader_line(rank: int, record: GameRecord, name: str, lang: Lang) -> str:
    """One finished game's line on its challenge's leaderboard: "1. 🏆 ana — 144/144 tiles, 1 undo"."""
    details = (record.result or {}).get("details", {}) or {}
    placed = int(-rank_key(record)[0])
    undos = int(details.get("undos", 0))
    return lang.tr("{rank}. {won}{name} — {placed}/{total} tiles, {undos}", rank=rank,
                   won="🏆 " if placed >= TILES else "", name=name, placed=placed, total=TILES,
                   undos=lang.trn("{count} undo", "{count} undos", undos, count=undos))


class Leaderboards:
    def __init__(self, store: GameStore, catalogue: Catalogue, client: discord.Client,
                 languages: Languages | None = None) -> None:
        self.store = store
        self.catalogue = catalogue
        self.client = client
        #: Who reads which language (None: English).
        self.languages = languages

    async def server_lang(self, guild_id: int | None) -> Lang:
        """The language of a server's channels."""
        return await self.languages.for_guild(guild_id) if self.languages is not None else ENGLISH

    async def challenge_text(self, challenge_id: int, lang: Lang | None = None) -> str:
        """The challenge's message, in ``lang`` (default: its server's language)."""
        challenge = await self.store.get_challenge(challenge_id)
        if challenge is None:
            return (lang or ENGLISH).gettext("That challenge no longer exists.")
        lang = lang or await self.server_lang(challenge.guild_id)
        # The challenge's entrants (one read, by its index) and their names (one more), whatever the history.
        games = await self.store.challenge_games(challenge_id)
        entrants = await self.store.challenge_first_seats(challenge_id)
        finished = sorted((g for g in games if g.status == "finished"), key=rank_key)
        playing = [g for g in games if g.status == "active"]
        p = self.catalogue.presenter(CHALLENGE_KIND)
        # The deal is named by the challenge, never by its seed: the seed rebuilds the
        # face-down stock (CP-3), so it stays secret until the games are over.
        lines = [lang.tr("{emoji} **{title} challenge #{number}**", emoji=p.emoji, title=p.title, number=challenge.id),
                 lang.gettext("Everyone plays the same deal. Press **▶ Play this deal** to take part."), ""]
        if finished:
            lines.append(lang.gettext("**Leaderboard** (tiles placed, then fewest undos, then first to finish)"))
            for rank, record in enumerate(finished[:CHALLENGE_LINES], start=1):
                entrant = entrants.get(record.id)
                lines.append(leader_line(rank, record, entrant.display if entrant is not None else "?", lang))
        else:
            lines.append(lang.gettext("No results yet."))
        if playing:
            lines.append("\n" + lang.trn("{count} player still playing.", "{count} players still playing.",
                                          len(playing), count=len(playing)))
        return "\n".join(lines)[:2000]

    async def refresh(self, challenge_id: int) -> None:
        """Edit the challenge's message to the leaderboard as it stands."""
        challenge = await self.store.get_challenge(challenge_id)
        if challenge is None or challenge.message_id is None:
            return
        lang = await self.server_lang(challenge.guild_id)
        text = await self.challenge_text(challenge_id, lang)
        try:
            await self.client.get_partial_messageable(challenge.channel_id).get_partial_message(
                challenge.message_id).edit(content=None,  # a plain one from before the cards becomes one
                                           view=note(text, controls=challenge_view(challenge_id, lang).children),
                                           allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.warning("could not update challenge %s leaderboard: %s", challenge_id, exc)

    async def game_finished(self, session: Session) -> None:
        """Whatever follows a game's end: a challenge game's result joins its leaderboard."""
        if session.record.challenge_id is not None:
            await self.refresh(session.record.challenge_id)

    async def server_text(self, guild_id: int | None, channel_id: int | None, lang: Lang | None = None) -> str:
        """The latest challenge in this channel, then wins per player in this server,
        in ``lang`` (default: the server's language)."""
        lang = lang or await self.server_lang(guild_id)
        parts: list[str] = []
        if channel_id is not None:
            latest = await self.store.latest_challenge(channel_id)
            if latest is not None:
                parts.append(await self.challenge_text(latest, lang))
        # Kept as games finish (bot.store.tallies): a few rows by an index, however long the history.
        board = await server_board(self.store.db, guild_id, SERVER_LINES) if guild_id is not None else []
        if board:
            lines = [lang.gettext("**Wins in this server**")]
            lines += [lang.tr("{rank}. {mention} — {wins} won of {played}", rank=i, mention=f"<@{row.user_id}>",
                              wins=row.wins, played=row.played) for i, row in enumerate(board, 1)]
            parts.append("\n".join(lines))
        return "\n\n".join(parts)[:2000] or lang.gettext("No finished games here yet.")
