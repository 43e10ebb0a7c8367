"""The one rule of when a player may be pinged, as pure functions (issue #39).

Every message that could buzz a player (a board's mention, a hand DM saying it is their
turn, a reminder, a heads-up, a notice about their game) asks :func:`decide` first, through
:class:`bot.notifications.gate.NotificationGate`, which keeps the history in the store.

The invariant, per player and across all their games and servers:

- **at most** :data:`CAP_PER_HOUR` **buzzes in any hour** (a sliding window). Six: one every ten
  minutes on average, which follows a live game's rhythm (a player who plays live is looking
  anyway) and keeps a player in twenty slow games from hearing the bot more than six times an
  hour; Discord's own mobile app groups more than that into one badge anyway;
- **what comes in the same minute is one message**: after a buzz, whatever comes within
  :data:`BATCH` is held, and the held notices go out together as one message once the minute
  is over (and the hour has room);
- **every turn that started is told, or the player chose not to be told**: a turn is told by
  its own buzz, or in the batch that follows; it is not told, by the player's choice, when
  they muted the game, chose the digest alone, are in their quiet hours (the board still shows
  their name, silently), or pressed "no more pings this turn". A held notice whose turn is over
  (the player moved) is dropped: they knew.

Nothing here touches a clock: a notice held or dropped never changes a deadline.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

#: The most buzzes a player gets from the bot in any hour.
CAP_PER_HOUR = 6
HOUR = timedelta(hours=1)
#: Notices that come this soon after a buzz are held and sent together.
BATCH = timedelta(minutes=1)

#: How a player learns it is their turn.
Mode = Literal["board", "dm", "both", "digest"]
MODES: tuple[Mode, ...] = ("board", "dm", "both", "digest")
#: Where a turn's notice is shown: the board's mention in the channel, or the hand DM.
Place = Literal["board", "dm"]
#: What is being told. ``turn``: it is your turn (board or hand DM); ``heads_up``: you are next;
#: ``repeat``: the reminder at the player's own interval; ``reminder``: the clock's low-bank reminder
#: (it always comes, whatever the mode and interval); ``notice``: news about their game (away,
#: resignations, time-outs, trouble).
Kind = Literal["turn", "heads_up", "repeat", "reminder", "notice"]
Verdict = Literal["buzz", "hold", "silent"]

#: The reminder interval's bounds, in hours (0: off), and the most repeats a turn may get.
INTERVALS = (0, 1, 2, 4, 8, 12, 24)
MOST_REPEATS = 10


@dataclass(frozen=True)
class Settings:
    """A player's settings for one game: their own, with the game's override laid over them.

    Defaults: the board's ping and the hand DM (as before notifications could be set), no
    repeats, no heads-up (the issue's default), not muted, no digest."""

    mode: Mode = "both"
    #: Hours between repeated reminders while it is their turn (0: off).
    interval_hours: int = 0
    #: The most repeated reminders a turn gets.
    cap: int = 3
    heads_up: bool = False
    muted: bool = False
    #: The local hour of the daily digest (None: no digest unless the mode is ``digest``: then 9).
    digest_hour: int | None = None

    def places(self) -> tuple[Place, ...]:
        """Where a turn's notice buzzes."""
        places: dict[Mode, tuple[Place, ...]] = {"board": ("board",), "dm": ("dm",), "both": ("board", "dm"),
                                                 "digest": ()}
        return places[self.mode]

    @property
    def digest_at(self) -> int | None:
        """The local hour the digest comes at (None: no digest)."""
        if self.digest_hour is not None:
            return self.digest_hour
        return 9 if self.mode == "digest" else None


@dataclass(frozen=True)
class Event:
    """One notice for one player: ``(game, version, kind)`` names it, so the board and the hand DM
    of the same turn ask once and hear the same verdict."""

    game_id: int
    version: int
    kind: Kind


@dataclass(frozen=True)
class Circumstances:
    """What else decides, besides settings and history: the player's quiet hours now, and
    whether they said "no more pings" for this turn."""

    quiet: bool = False
    stopped: bool = False


def chosen_silence(settings: Settings, event: Event, now: Circumstances) -> bool:
    """The player chose not to hear this notice (it is then neither buzzed nor held)."""
    if settings.muted:
        return True
    if event.kind == "reminder":
        return False  # the clock's reminder always comes (the sweep already waits for quiet hours' end)
    if now.quiet:
        return True
    if event.kind == "turn":
        return settings.mode == "digest"
    if event.kind == "heads_up":
        return not settings.heads_up or settings.mode == "digest"
    if event.kind == "repeat":
        return now.stopped or settings.interval_hours == 0
    return False


def buzzes_in_hour(buzzes: Iterable[datetime], now: datetime) -> int:
    return sum(1 for at in buzzes if now - HOUR < at <= now)


def decide(settings: Settings, event: Event, now: datetime, buzzes: Sequence[datetime], held: int,
           circumstances: Circumstances = Circumstances()) -> Verdict:
    """The verdict on one notice: ``buzz`` it now, ``hold`` it for the next batch, or keep it
    ``silent`` (the player chose so). ``buzzes``: the player's buzzes so far (any age);
    ``held``: how many of their notices wait for a batch."""
    if chosen_silence(settings, event, circumstances):
        return "silent"
    if held or any(now - BATCH < at <= now for at in buzzes):
        return "hold"
    if buzzes_in_hour(buzzes, now) >= CAP_PER_HOUR:
        return "hold"
    return "buzz"


def batch_due(now: datetime, buzzes: Sequence[datetime], held_since: datetime | None) -> bool:
    """Whether the held notices go out now, as one message: there are some, a minute has passed
    since they began to be held and since the last buzz, and the hour has room."""
    if held_since is None or now - held_since < BATCH:
        return False
    if any(now - BATCH < at <= now for at in buzzes):
        return False
    return buzzes_in_hour(buzzes, now) < CAP_PER_HOUR


def repeat_due(settings: Settings, started: datetime, repeats: int, now: datetime) -> bool:
    """Whether a turn that began at ``started`` is due its next repeated reminder."""
    if settings.interval_hours <= 0 or repeats >= settings.cap:
        return False
    return now - started >= timedelta(hours=settings.interval_hours) * (repeats + 1)


def merge(own: Settings, override: dict[str, object]) -> Settings:
    """The player's settings with one game's override laid over them (None fields keep theirs)."""
    fields = {k: v for k, v in override.items() if v is not None and k in Settings.__dataclass_fields__}
    return Settings(**{**own.__dict__, **fields})


@dataclass
class Ledger:
    """One player's notices as the gate keeps them: when they buzzed, and what waits for a batch.
    The gate loads it from the store, asks it, and writes back what changed, in one transaction."""

    buzzes: list[datetime]
    held: list[tuple[Event, datetime]]

    def notice(self, settings: Settings, event: Event, now: datetime,
               circumstances: Circumstances = Circumstances()) -> Verdict:
        """Decide on one notice and note it: a buzz is counted, a held notice waits."""
        verdict = decide(settings, event, now, self.buzzes, len(self.held), circumstances)
        if verdict == "buzz":
            self.buzzes.append(now)
        elif verdict == "hold":
            self.held.append((event, now))
        return verdict

    def flush(self, now: datetime, live: Iterable[Event]) -> list[Event] | None:
        """The held notices that go out now as one message (counted as one buzz), or None when
        none is due. Notices whose turn is over (not in ``live``) are dropped: the player knew."""
        still = set(live)
        self.held = [(e, at) for e, at in self.held if e in still]
        if not batch_due(now, self.buzzes, min((at for _e, at in self.held), default=None)):
            return None
        batch = [e for e, _at in self.held]
        self.held = []
        self.buzzes.append(now)
        return batch
