"""The buttons of a board, a hand message and the move chooser."""

from __future__ import annotations

from typing import ClassVar

from bot.interactions.items.base import Component, Interaction
from bot.turns.handlers import Turns, acknowledge


class TurnComponent(Component):
    turns: ClassVar[Turns]

    async def callback(self, interaction: Interaction) -> None:
        """Every turn button and menu is answered at once (:func:`bot.turns.handlers.acknowledge`), within
        Discord's 3 seconds however busy the machine, before the game is read."""
        await acknowledge(interaction)
        await super().callback(interaction)


class YourMoveButton(TurnComponent, actions=("turn",)):
    """▶ Your move: opens the chooser."""

    async def handle(self, interaction: Interaction) -> None:
        await self.turns.open_chooser(interaction, self.cid)


class ChoiceButton(TurnComponent, actions=("pick",)):
    """A step of the chooser; the id carries the path chosen so far."""

    async def handle(self, interaction: Interaction) -> None:
        await self.turns.choose(interaction, self.cid, self.args.path)


class ChoiceSelect(TurnComponent, actions=("sel",)):
    """A step with too many choices for buttons: the chosen value ends the path."""

    async def handle(self, interaction: Interaction) -> None:
        args = self.args
        await self.turns.choose(interaction, args.cid, [*args.path, *([args.value] if args.value else [])])


class PageButton(TurnComponent, actions=("page",)):
    """More ▶ / ◀ Back through a long select: the id carries ``page|path``."""

    async def handle(self, interaction: Interaction) -> None:
        args = self.args
        await self.turns.choose(interaction, args.cid, args.path, args.page)


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
