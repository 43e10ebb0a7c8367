"""The sign-up card's Join and Leave (``pb:tjoin|tleave:<tournament>:0``): each click goes
through :mod:`bot.tournaments.signup`, the command's own path."""

from __future__ import annotations

from typing import ClassVar

from bot.cards.custom_ids import UNRECOGNISED, BadCustomId
from bot.interactions.items.base import Component, Interaction
from bot.tournaments import signup
from bot.tournaments.runner import Tournaments


class TournamentComponent(Component):
    tournaments: ClassVar[Tournaments]

    def number(self) -> int:
        """The tournament the id names; an id the bot never sends (a version, an argument) is refused."""
        if self.cid.version != 0 or self.cid.arg:
            raise BadCustomId(UNRECOGNISED)
        return self.cid.game_id


class JoinTournamentButton(TournamentComponent, actions=("tjoin",)):
    async def handle(self, interaction: Interaction) -> None:
        await signup.join(self.tournaments, interaction, self.number())


class LeaveTournamentButton(TournamentComponent, actions=("tleave",)):
    async def handle(self, interaction: Interaction) -> None:
        await signup.withdraw(self.tournaments, interaction, self.number(), sign_up_only=True)
