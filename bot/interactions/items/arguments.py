"""The one place a component's arguments are read and checked before its handler
runs: what its custom id carries (game, version, path, page, move) and what Discord
sent with the click (the kind of component, the chosen values).

Discord delivers clicks only on components a message has, but a modified client, a
message of an older bot or a damaged id can carry anything. What the bot never
issues is refused here with a sentence (:class:`~bot.interactions.command_input.BadInput`);
what depends on the game as it is now (a page beyond today's list, a choice no longer
possible, a stale board) is checked by the handlers against the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot.cards.chooser import NO_PAGE
from bot.cards.custom_ids import UNRECOGNISED, CustomId
from bot.interactions.command_input import BadInput
from i18n import N_

#: Actions of select menus; every other action is a button.
SELECTS = frozenset({"sel", "addai"})
#: Actions whose argument is the path chosen so far, a page and a path, or a whole move.
PATHS = frozenset({"pick", "sel"})
MOVES = frozenset({"move", "pvok", "pvbk"})
#: The most steps a chooser path has, and the highest page of a long list (25 choices a page).
MAX_STEPS = 12
MAX_PAGE = 99
#: Discord's longest select option value.
MAX_VALUE = 100
#: Discord's component types: a button, a menu of strings.
BUTTON, STRING_SELECT = 2, 3

NO_CHOICE = N_("That menu sent no choice I can read; please choose again.")


@dataclass(frozen=True)
class Arguments:
    """A click, read: its id, the path and page it carries, and the value chosen."""

    cid: CustomId
    path: tuple[str, ...] = ()
    page: int = 0
    value: str | None = None


def read_arguments(cid: CustomId, interaction: discord.Interaction[Any]) -> Arguments:
    """``cid`` and the click's data, checked; :class:`BadInput` for what the bot never sends."""
    return arguments_of(cid, dict(interaction.data or {}))


def arguments_of(cid: CustomId, data: dict[str, Any]) -> Arguments:
    """``cid`` and a click's ``data`` (its component type and chosen values, as Discord sends
    them), checked: also what the chooser's click-reachability test reads its clicks with."""
    kind = data.get("component_type")
    values = data.get("values")
    value: str | None = None
    if cid.action in SELECTS:
        if kind != STRING_SELECT or not isinstance(values, list) or len(values) != 1:
            raise BadInput(NO_CHOICE)
        if not isinstance(values[0], str) or not 0 < len(values[0]) <= MAX_VALUE:
            raise BadInput(NO_CHOICE)
        value = values[0]
    elif kind != BUTTON or values is not None:
        raise BadInput(UNRECOGNISED)
    if cid.action in MOVES and not cid.arg.strip():
        raise BadInput(UNRECOGNISED)
    if cid.action == "page":
        number, bar, rest = cid.arg.partition("|")
        if not bar or not number.isdecimal() or not number.isascii() or int(number) > MAX_PAGE:
            raise BadInput(NO_PAGE)
        path = tuple(rest.split())
        if len(path) > MAX_STEPS:
            raise BadInput(UNRECOGNISED)
        return Arguments(cid, path, int(number))
    if cid.action in PATHS:
        path = tuple(cid.arg.split())
        if len(path) > MAX_STEPS:
            raise BadInput(UNRECOGNISED)
        return Arguments(cid, path, value=value)
    return Arguments(cid, value=value)
