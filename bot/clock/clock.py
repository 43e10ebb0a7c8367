"""The correspondence clock, as pure functions of instants (no store, no Discord).

Each seat of a game has a **time bank**. It starts full (``bank``, the server's
``timeout_hours``) and runs down while it is the seat's turn. When the seat's turn
passes on, its move tops the bank up by ``increment``, never past ``bank``. At zero
the seat times out. Nothing else stops it:

- quiet hours only keep the bot from pinging; the bank runs through them;
- time away pauses it, but only as far as the budget of the game's *own* server
  granted (:class:`Charge`), and never by more than ``pause_cap`` (that server's
  ``away_days``) in one turn;
- coming back ends the pause; it does not restart anything.

So one turn of a seat (the time from its turn starting to its move or timeout)
lasts at most ``bank + pause_cap``: :attr:`ClockRules.bound`, the bound the README
documents and the property tests check.

Time away is counted in whole days against each server's budget (``days`` away in
any ``window_days``): an away charges the days its server granted, and a return
early refunds only the whole days not begun (:attr:`Charge.charged`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

DAY = timedelta(days=1)
ZERO = timedelta()


@dataclass(frozen=True)
class ClockRules:
    """A server's clock settings, as periods."""

    #: The full bank: where every seat starts, and the most a move tops it up to.
    bank: timedelta
    #: What a move that passes the turn on adds to the seat's bank.
    increment: timedelta
    #: The reminder comes once the turn has used this much of a full bank.
    reminder: timedelta
    #: The most time away that pauses one turn (the server's ``away_days``).
    pause_cap: timedelta

    @property
    def bound(self) -> timedelta:
        """The longest any one turn of a seat can last, whatever the player does."""
        return self.bank + self.pause_cap


@dataclass(frozen=True)
class Span:
    """A pause, ``[starts, ends)`` in UTC."""

    starts: datetime
    ends: datetime

    def active(self, at: datetime) -> bool:
        return self.starts <= at < self.ends


@dataclass(frozen=True)
class Budget:
    """At most ``days`` away within any ``window_days`` days (a server's setting)."""

    days: int
    window_days: int

    @property
    def window(self) -> timedelta:
        return timedelta(days=self.window_days)


@dataclass(frozen=True)
class Charge:
    """One time away as one server's budget sees it: the player left at ``starts``,
    planned (or, back early, came) back at ``ends``, and the server granted ``days``."""

    starts: datetime
    ends: datetime
    days: int

    @property
    def charged(self) -> int:
        """Whole days spent: those granted, less the whole days not begun at the return
        (an away begins its first day at once, so even one ended in the same second costs a day)."""
        used = max(self.ends - self.starts, ZERO)
        return min(self.days, max(1, math.ceil(used / DAY)))

    @property
    def pause(self) -> Span:
        """What it pauses in this server's games: from leaving, for the days granted at most."""
        return Span(self.starts, min(self.ends, self.starts + self.days * DAY))


def days_left(charges: Iterable[Charge], now: datetime, budget: Budget) -> int:
    """Whole days of time away the server still grants from ``now``: its ``days``
    less what aways that began in the last ``window_days`` charged."""
    spent = sum(c.charged for c in charges if c.starts > now - budget.window and c.starts <= now)
    return max(0, budget.days - spent)


def grant(charges: Iterable[Charge], now: datetime, budget: Budget, asked: int) -> int:
    """The days of an away of ``asked`` days from ``now`` that the server grants."""
    return max(0, min(asked, days_left(charges, now, budget)))


def available_at(charges: Sequence[Charge], now: datetime, budget: Budget, asked: int) -> datetime | None:
    """The earliest moment from which ``asked`` days fit the budget (the player
    staying put until then); None when they never can (more than the budget)."""
    if asked > budget.days:
        return None
    if days_left(charges, now, budget) >= asked:
        return now
    recent = sorted((c for c in charges if c.starts > now - budget.window and c.starts <= now),
                    key=lambda c: c.starts)
    spent = sum(c.charged for c in recent)
    for charge in recent:  # the oldest leave the window first, each at its start + window
        spent -= charge.charged
        if budget.days - spent >= asked:
            return charge.starts + budget.window
    return None  # unreachable: once all have left, the whole budget is free


# --- one turn's clock ------------------------------------------------------------------

def _merged(pauses: Iterable[Span], since: datetime) -> list[Span]:
    """The pauses from ``since`` on, sorted, overlaps merged."""
    spans = sorted((Span(max(p.starts, since), p.ends) for p in pauses if p.ends > since), key=lambda s: s.starts)
    merged: list[Span] = []
    for span in spans:
        if span.ends <= span.starts:
            continue
        if merged and span.starts <= merged[-1].ends:
            merged[-1] = Span(merged[-1].starts, max(merged[-1].ends, span.ends))
        else:
            merged.append(span)
    return merged


@dataclass(frozen=True)
class TurnClock:
    """A seat's clock on its running turn: it began at ``started`` with ``bank`` left."""

    started: datetime
    bank: timedelta
    #: The pauses its server granted (:attr:`Charge.pause`), in any order.
    pauses: tuple[Span, ...]
    rules: ClockRules

    def paused(self, now: datetime) -> timedelta:
        """Pause credited to this turn up to ``now``: at most ``pause_cap``."""
        total = ZERO
        for span in _merged(self.pauses, self.started):
            if span.starts >= now:
                break
            total += min(span.ends, now) - span.starts
        return min(total, self.rules.pause_cap)

    def used(self, now: datetime) -> timedelta:
        """Bank spent on this turn by ``now``."""
        return max(now - self.started, ZERO) - self.paused(now)

    def left(self, now: datetime) -> timedelta:
        """What is left of the bank at ``now`` (below zero once it ran out)."""
        return self.bank - self.used(now)

    def paused_now(self, now: datetime) -> bool:
        """The clock stands still right now (away, within the grant and the turn's cap)."""
        return (any(p.active(now) for p in _merged(self.pauses, self.started))
                and self.paused(now) < self.rules.pause_cap)

    def when_used(self, need: timedelta) -> datetime:
        """The moment this turn will have used ``need`` of the bank (the pauses as planned)."""
        at, credit = self.started, self.rules.pause_cap
        need = max(need, ZERO)
        for span in _merged(self.pauses, self.started):
            if credit <= ZERO:
                break
            if span.starts > at:
                if span.starts - at >= need:
                    return at + need
                need -= span.starts - at
                at = span.starts
            take = min(span.ends - at, credit)
            credit -= take
            at += take
        return at + need

    @property
    def deadline(self) -> datetime:
        """When the bank runs out (the pauses as planned)."""
        return self.when_used(self.bank)

    @property
    def reminder_due(self) -> datetime:
        """When to remind: once the turn has used ``reminder`` of a full bank, i.e. at
        ``bank − reminder`` left; a turn that starts below that, half-way through."""
        low = self.rules.bank - self.rules.reminder
        need = self.bank - low if self.bank > low else self.bank / 2
        return self.when_used(need)

    def timed_out(self, now: datetime) -> bool:
        return self.left(now) <= ZERO

    def after_move(self, now: datetime, *, passes: bool) -> timedelta:
        """The seat's bank once it moves at ``now``: what is left, topped up by the
        increment when the turn passes on, never past the full bank. An empty bank
        stays empty: a move at that moment is refused anyway (``timed_out``), and the
        increment is for time left, never a way back from none."""
        left = self.left(now)
        if left <= ZERO:
            return ZERO
        return min(self.rules.bank, left + self.rules.increment if passes else left)
