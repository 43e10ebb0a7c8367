"""``/pyramid``: the players' command, its subcommands gathered from the areas
(lobby, play, info), each a class built with what its handlers need."""

from __future__ import annotations

from typing import Any, Protocol

from discord import app_commands
from discord.app_commands import locale_str


class CommandArea(Protocol):
    """A set of ``/pyramid`` subcommands, built per client."""

    def commands(self) -> list[app_commands.Command[Any, ..., Any]]: ...


class PyramidCommands(app_commands.Group, name=locale_str("pyramid"),
                      description=locale_str("Pyramid tile games: Flaming Pyramids and friends")):
    def __init__(self, *areas: CommandArea) -> None:
        super().__init__()
        for area in areas:
            for command in area.commands():
                self.add_command(command)
