"""What a message that may buzz a player needs: a :class:`Ping`, issued by the notification gate.

The gate itself (``bot.notifications.gate.NotificationGate``: the player's settings, the hourly
cap, the minute's batch) is built by the client and handed to the host, so what runs between
clicks asks it without importing it. Every send in ``bot/core`` and ``bot/notifications`` that
could buzz someone takes its ``silent=`` and ``allowed_mentions=`` from a Ping
(``tests/bot/notifications/test_ping_paths.py`` reads the code and fails on one that does not):
a new path can't skip the gate.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Literal, Protocol

import discord

if TYPE_CHECKING:
    from bot.core.session import Session

#: Where a turn's notice shows: the board's mention in the channel, or the hand DM.
Place = Literal["board", "dm"]


@dataclass(frozen=True)
class Ping:
    """Whom one message may buzz (nobody: it goes out silently, mentions shown but not pinging)."""

    users: tuple[int, ...] = ()

    @property
    def buzz(self) -> bool:
        return bool(self.users)

    @property
    def silent(self) -> bool:
        """For discord.py's ``silent=`` (Discord's @silent flag: no push, no sound)."""
        return not self.users

    @property
    def mentions(self) -> discord.AllowedMentions:
        """For ``allowed_mentions=``: the users granted, and nobody else."""
        if not self.users:
            return discord.AllowedMentions.none()
        return discord.AllowedMentions(users=[discord.Object(u) for u in self.users], roles=False, everyone=False)


#: A message that buzzes nobody.
QUIET = Ping()


class Pings(Protocol):
    """The gate, as what runs between clicks sees it."""

    async def turn(self, session: Session, place: Place) -> Ping:
        """The notice that it is the player to act's turn (``session``'s version), shown on the board
        or in their hand DM: both places hear one verdict."""
        ...

    async def reminder(self, session: Session, user_id: int) -> Ping:
        """The clock's low-bank reminder of the seat to act."""
        ...

    async def notice(self, game_id: int, version: int, users: Sequence[int], what: str) -> Ping:
        """News about a game for ``users`` (``what`` names it: a rescued thread, a parked game…)."""
        ...

    async def repeat(self, session: Session, started: datetime, now: datetime) -> list[str]:
        """The player's own reminder interval for the running turn (begun at ``started``): sends what is
        due and says what it sent."""
        ...

    async def by_dm(self, user_id: int, game_id: int) -> bool:
        """Whether the player wants their notices of this game by DM rather than on the board."""
        ...


__all__ = ["QUIET", "Ping", "Pings", "Place"]
