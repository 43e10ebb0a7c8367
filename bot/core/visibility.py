"""Who may see which game: the one rule every path that shows a game asks.

Its board (picture, alt text, ``/pyramid status`` in words), a hand, its move history
and game record, its replay and the stale-click answer that is a copy of its board are
shown to a *viewer* (a user, asking from a server's channel, a DM or a group DM) only
when :func:`admit` says so. Nothing Discord sends proves more than who clicks and where
they are: a command may name any game number, and a modified client may click any
custom id, so the rule reads only those and the game's own record:

1. From a server, only that server's games are seen: a game of another server is
   answered as no game at all (nothing about other servers leaks).
2. A game's players (every seat it has had, resigned ones too) see it, from its server
   or by DM; their hands are theirs alone (the hand's own check, on top of this rule).
3. Anyone else sees a game only where its public messages are seen anyway: a server's
   game by its members who can see its channel (a public channel's board is public to the
   server; a game in a staff channel is not a member's who cannot open it), a game of no
   server (a group DM, a DM) only from its own channel. A stranger by DM sees nothing.
4. A game of a shared deal (a challenge's, the daily deal's) is its player's alone until
   the deal is settled (:mod:`bot.core.shared_deals`): its boards tell the
   face-down stock others are about to meet. The daily deal is never settled.

What the rule admits comes back as a :class:`Seen`, which only :func:`admit` makes; the
functions that show a game take one, so a path that never asked cannot show anything
(``tests/bot/core/test_visibility_paths.py`` walks every handler to check this).

:func:`private_place` says where such a game may ever be played: a game of a shared deal
lives only in private places, whatever moves it (``bot.posting.rescue``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum

from bot.core.errors import PlayError
from bot.core.shared_deals import settled
from bot.store import GameRecord, GameStore
from i18n import N_

#: Said to anyone but its player who names a game of a shared deal that is not settled.
SHARED_DEAL = N_("Game #{number} plays a shared deal that others may still be playing, so only its player sees it "
                 "until the challenge closes.")
#: Said by DM about a game the user does not play (or that does not exist): the same words either way.
NOT_BY_DM = N_("You have no game #{number}: by DM you can only reach games you play in.")
#: Said in a server about a game of another server (or none): the same words either way.
NOT_HERE = N_("There is no game #{number} in this server.")

_MINT = object()


@dataclass(frozen=True)
class Viewer:
    """Who asks to see a game, and from where (what Discord vouches for in an interaction)."""

    user_id: int
    #: The server asked from; None for a DM or a group DM.
    guild_id: int | None
    #: The channel (or thread) asked from.
    channel_id: int | None
    #: Whether they may open a channel of that server (Discord's View Channel): None when it cannot be told.
    can_view: Callable[[int], bool | None] | None = field(default=None, compare=False, repr=False)

    def cannot_view(self, channel_id: int) -> bool:
        """Known not to see ``channel_id`` (asked from elsewhere, and Discord's permissions say so)."""
        if channel_id == self.channel_id or self.can_view is None:
            return False
        return self.can_view(channel_id) is False


class Verdict(Enum):
    SEEN = "seen"
    #: The viewer may not reach the game from where they are (nor learn that it exists).
    UNREACHABLE = "unreachable"
    #: A shared deal's game, its player's alone for now.
    SHARED_DEAL = "shared_deal"


@dataclass(frozen=True)
class Seen:
    """Proof that :func:`admit` let ``user_id`` see ``record``'s game. Made by :func:`admit`
    alone: the functions that show a game take one, and check it names their game."""

    record: GameRecord
    user_id: int
    player: bool
    _mint: object = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self._mint is not _MINT:
            raise TypeError("a Seen is made by bot.core.visibility.admit alone")

    @property
    def game_id(self) -> int:
        return self.record.id

    def covers(self, game_id: int, user_id: int | None = None) -> None:
        """Refuse to show game ``game_id`` (to ``user_id``) on this proof unless it was given for that very
        game (and viewer): a proof for one game never shows another."""
        if game_id != self.record.id or (user_id is not None and user_id != self.user_id):
            raise PlayError(N_("That is not a game you can see from here."))


def places(record: GameRecord) -> set[int]:
    """The channels a game's public messages live in: its channel and its thread."""
    return {c for c in (record.channel_id, record.thread_id) if c is not None}


def private_place(record: GameRecord) -> bool:
    """Whether the game may only ever be played in private places (a private thread of its
    player's, a DM): a game of a shared deal, whose boards tell the face-down stock."""
    return record.challenge_id is not None


async def judge(store: GameStore, record: GameRecord, viewer: Viewer, now: datetime) -> Verdict:
    """The rule (see the module's docstring), without raising."""
    return (await _judge(store, record, viewer, now))[0]


async def _judge(store: GameStore, record: GameRecord, viewer: Viewer, now: datetime) -> tuple[Verdict, bool]:
    """The verdict, and whether the viewer plays the game."""
    if viewer.guild_id is not None and viewer.guild_id != record.guild_id:
        return Verdict.UNREACHABLE, False
    if any(s.user_id == viewer.user_id for s in await store.seats(record.id)):
        return Verdict.SEEN, True
    if viewer.guild_id is None and (record.guild_id is not None or viewer.channel_id not in places(record)):
        return Verdict.UNREACHABLE, False
    if viewer.channel_id not in places(record) and viewer.cannot_view(record.channel_id):
        return Verdict.UNREACHABLE, False  # a channel of the server hidden from them
    if not await settled(store, record, now):
        return Verdict.SHARED_DEAL, False
    return Verdict.SEEN, False


async def admit(store: GameStore, record: GameRecord, viewer: Viewer, now: datetime | None = None) -> Seen:
    """A :class:`Seen` for ``viewer`` and ``record``, or a :class:`PlayError` a player can read
    that tells nothing about a game they may not reach."""
    verdict, player = await _judge(store, record, viewer, now or store.db.clock())
    if verdict is Verdict.SEEN:
        return Seen(record, viewer.user_id, player, _MINT)
    raise refusal(verdict, record.id, viewer)


def refusal(verdict: Verdict, number: int, viewer: Viewer) -> PlayError:
    """What a viewer is told when the rule refuses (or the game does not exist: the same words)."""
    if verdict is Verdict.SHARED_DEAL:
        return PlayError(SHARED_DEAL, number=number)
    return PlayError(NOT_BY_DM if viewer.guild_id is None else NOT_HERE, number=number)


__all__ = ["NOT_BY_DM", "NOT_HERE", "SHARED_DEAL", "Seen", "Verdict", "Viewer", "admit", "judge", "places",
           "private_place", "refusal"]
