"""The buttons of a board, a hand message and the move chooser."""

from __future__ import annotations

from typing import ClassVar

from bot.discord.items.base import Component, Interaction, chosen_values
from bot.discord.turns import Turns


class TurnComponent(Component):
    turns: ClassVar[Turns]


class YourMoveButton(TurnComponent, actions=("turn",)):
    """▶ Your move: opens the chooser."""

    async def handle(self, interaction: Interaction) -> None:
        await self.turns.open_chooser(interaction, self.cid)


class ChoiceButton(TurnComponent, actions=("pick",)):
    """A step of the chooser; the id carries the path chosen so far."""

    async def handle(self, interaction: Interaction) -> None:
        cid = self.cid
        await self.turns.choose(interaction, cid, cid.arg.split())


class ChoiceSelect(TurnComponent, actions=("sel",)):
    """A step with too many choices for buttons: the chosen value ends the path."""

    async def handle(self, interaction: Interaction) -> None:
        cid = self.cid
        await self.turns.choose(interaction, cid, [*cid.arg.split(), *chosen_values(interaction)[:1]])


class PageButton(TurnComponent, actions=("page",)):
    """More ▶ / ◀ Back through a long select: the id carries ``page|path``."""

    async def handle(self, interaction: Interaction) -> None:
        cid = self.cid
        page, _, path = cid.arg.partition("|")
        await self.turns.choose(interaction, cid, path.split(), int(page) if page.isdigit() else 0)


class MoveButton(TurnComponent, actions=("move",)):
    """A whole move in one click (a fall on the board, ✅ Done here)."""

    async def handle(self, interaction: Interaction) -> None:
        await self.turns.move(interaction, self.cid)


class HandButton(TurnComponent, actions=("hand",)):
    """🂠 My hand."""

    async def handle(self, interaction: Interaction) -> None:
        await self.turns.hand(interaction, self.cid)


class LatestBoardButton(TurnComponent, actions=("board",)):
    """🔄 Latest board."""

    async def handle(self, interaction: Interaction) -> None:
        await self.turns.board(interaction, self.cid)
