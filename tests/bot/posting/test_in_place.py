"""The tokens kept to edit an in-place game's card (#27, play anywhere): Discord's interaction
tokens last 15 minutes, and one is used for 14 at most, the freshest first."""

from __future__ import annotations

from typing import Any

import discord

from bot.posting.in_place import TOKEN_USE_SECONDS, CardHandles


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def never(**_: Any) -> discord.Message:
    raise AssertionError("not edited here")


async def other(**_: Any) -> discord.Message:
    raise AssertionError("not edited here")


def test_the_freshest_token_is_used_for_fourteen_of_its_fifteen_minutes() -> None:
    clock = Clock()
    handles = CardHandles(clock)
    assert handles.fresh(1) is None
    handles.keep(1, never, 10)
    clock.now = 5 * 60.0
    handles.keep(1, other, 11)  # a later click on the card: its token lasts longer
    handle = handles.fresh(1)
    assert handle is not None and handle.edit is other and handle.message_id == 11
    clock.now = 5 * 60.0 + TOKEN_USE_SECONDS
    assert handles.fresh(1) is not None
    clock.now += 1
    assert handles.fresh(1) is None and TOKEN_USE_SECONDS < 15 * 60
    handles.keep(2, never, None)
    handles.drop(2)
    assert handles.fresh(2) is None


def test_at_most_limit_games_are_remembered() -> None:
    handles = CardHandles(Clock(), limit=3)
    for game in range(5):
        handles.keep(game, never, game)
    assert [g for g in range(5) if handles.fresh(g) is not None] == [2, 3, 4]

