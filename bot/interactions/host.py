"""What a feature's commands and components reach between clicks: the ``Host`` as they see it.

:class:`bot.client.host.Host` builds the real one (posting, the game-end followers, the
reminders) and hands it to every handler. Features sit above posting but beside one
another, so they name it by this protocol: the posting parts by their own types, each
feature's follower by the few methods other features call. A feature never imports
``bot.client``, and the folder order stays one way."""

from __future__ import annotations

from typing import Any, Protocol

from bot.clock.clocks import Clocks
from bot.posting.announcer import Announcer
from bot.posting.away import Availability
from bot.posting.channels import Channels
from bot.posting.delivery import Delivery
from i18n import Lang


class LeaderboardSide(Protocol):
    """:class:`bot.leaderboards.leaderboards.Leaderboards`, as challenges and ``/pyramid leaderboard`` use it."""

    async def challenge_text(self, challenge_id: int, lang: Lang | None = None) -> str: ...

    async def refresh(self, challenge_id: int) -> None: ...

    async def server_text(self, guild_id: int | None, channel_id: int | None, lang: Lang | None = None) -> str: ...


class RatingSide(Protocol):
    """:class:`bot.stats.ratings.Ratings`, as ``/pyramid stats`` and the rated leaderboard use it."""

    async def stats_text(self, user_id: int, guild_id: int | None, *, who: str, game: str | None = None,
                         lang: Lang | None = None) -> str: ...

    async def leaderboard_text(self, guild_id: int, kind: str, *, min_games: int = ...,
                               lang: Lang | None = None) -> str: ...


class ResignationSide(Protocol):
    """:class:`bot.resignations.resignations.Resignations`, as ``/pyramid resign`` uses it."""

    async def resign(self, game_id: int, user_id: int, *, reason: str, lang: Lang | None = None) -> str: ...


class ReminderSide(Protocol):
    """:class:`bot.reminders.reminders.Reminders`: its availability and clocks, which commands read."""

    @property
    def availability(self) -> Availability: ...

    @property
    def clocks(self) -> Clocks: ...


class Host(Protocol):
    @property
    def channels(self) -> Channels: ...

    @property
    def announcer(self) -> Announcer: ...

    @property
    def delivery(self) -> Delivery: ...

    @property
    def leaderboards(self) -> LeaderboardSide: ...

    @property
    def ratings(self) -> RatingSide: ...

    @property
    def resignations(self) -> ResignationSide: ...

    @property
    def reminders(self) -> ReminderSide: ...

    @property
    def daily(self) -> Any:
        """:class:`bot.daily.deals.DailyDeals`: only the daily feature uses it, and names its type there."""
