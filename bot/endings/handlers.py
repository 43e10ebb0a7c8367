"""The buttons of a game's first and last cards: 🔐 Fair deal and 🔁 Rematch.

🔐 Fair deal answers its clicker privately with the deal's seal, and once the game is over its
seed and salt and how to check them (:mod:`bot.cards.fair_deals`): the card stays short.
🔁 Rematch opens a new lobby of the finished game's kind and options where the card is, its
people invited and its AIs seated, through ``/pyramid new``'s own path (``LobbyCommands.new``:
options, permissions, the opener's cap on open games), so it can skip none of its checks.
Both are public controls: they answer only in the game's own channel or thread.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, Protocol

import discord

from bot.cards.fair_deals import fair_deal_text
from bot.core.errors import PlayError
from bot.core.services import Services
from bot.interactions.access import check_at_game, seen_by
from bot.interactions.replies import explain, reader, tell
from bot.lobbies.handlers import Rematch
from bot.store import GameRecord
from engine.core.options import offered
from i18n import N_, Lang

Interaction = discord.Interaction[Any]
GONE = N_("That game no longer exists.")


class NewGame(Protocol):
    """``/pyramid new``'s handler (``bot.lobbies.command.LobbyCommands.new``)."""

    def __call__(self, interaction: Interaction, kind: str, given: dict[str, Any], *, challenge: bool,
                 rematch: Rematch | None = None) -> Awaitable[None]: ...


class Endings:
    def __init__(self, services: Services, new: NewGame) -> None:
        self.services = services
        self.new = new

    async def _record(self, interaction: Interaction, game_id: int, lang: Lang) -> GameRecord | None:
        """The game the button names, if the click comes from its place and the visibility rule
        (:mod:`bot.core.visibility`) lets the clicker see it; else the clicker is told."""
        record = await self.services.store.game_record(game_id)
        try:
            if record is None:
                raise PlayError(GONE)
            check_at_game(interaction, record)  # a forged id can name any game from anywhere
            await seen_by(self.services.store, record, interaction)  # the one visibility rule (a rival's shared deal)
        except PlayError as exc:
            await tell(interaction, f"❌ {explain(exc, lang)}")
            return None
        return record

    async def fair_deal(self, interaction: Interaction, game_id: int) -> None:
        """🔐 Fair deal: the seal, and a finished game's seed and salt, privately."""
        lang = await reader(interaction, self.services.languages)
        record = await self._record(interaction, game_id, lang)
        if record is None:
            return
        session = await self.services.sessions.load(record.id)
        text = fair_deal_text(session, lang)
        await tell(interaction, text or lang.tr("This game was created before deals were sealed: it has no seal."))

    async def rematch(self, interaction: Interaction, game_id: int) -> None:
        """🔁 Rematch: a new lobby like game ``game_id``'s, for one of its players, once it is over."""
        lang = await reader(interaction, self.services.languages)
        record = await self._record(interaction, game_id, lang)
        if record is None:
            return
        store = self.services.store
        seats = await store.seats(record.id)
        refusal = None
        if record.status != "finished":
            refusal = lang.tr("Game #{game} is not over yet: a rematch opens once it has ended.", game=record.id)
        elif record.challenge_id is not None:
            refusal = lang.tr("Game #{game} was a shared deal's: it has no rematch. Open a new game with "
                              "`/pyramid new`.", game=record.id)
        elif record.seat_dms:  # no channel both players share to open it in
            refusal = lang.tr("Game #{game} was played across servers, in your direct messages: it has no rematch "
                              "button. Queue again with `/pyramid queue across_servers:True`.", game=record.id)
        elif not any(s.user_id == interaction.user.id for s in seats):
            refusal = lang.tr("Only the players of game #{game} can ask for a rematch.", game=record.id)
        if refusal is not None:
            await tell(interaction, f"❌ {refusal}")
            return
        presenter = self.services.catalogue.presenter(record.kind)
        settable = {o.name for o in offered(presenter.game.options_model)}
        options = {k: v for k, v in record.options.items() if k in settable}
        people = tuple(dict.fromkeys(s.user_id for s in seats if s.user_id is not None))
        ais = tuple(s.ai_level for s in seats if s.user_id is None and s.ai_level is not None)
        await self.new(interaction, record.kind, options, challenge=False,
                       rematch=Rematch(of=record.id, invited=people, ais=ais))
