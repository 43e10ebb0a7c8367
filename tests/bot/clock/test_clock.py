"""The correspondence clock's maths (``bot.clock.clock``, ``bot.clock.clocks``): a bank that
moves top up, pauses only as the game's own server granted, whole days of time away,
and the bound the README documents, checked by property:

    one turn of a seat lasts at most ``timeout_hours`` + ``away_days`` days of the game's
    own server, whatever sequence of away (asked anywhere), back, quiet hours, moves and
    time passing the player strings together;

and, over a whole game, the bank the seat spends is at most the full bank plus one
increment per move. The same sequences also keep every server's budget: the whole days
charged by the aways begun in any ``away_window_days`` never exceed its ``away_days``."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.clock.clock import (
    Budget,
    Charge,
    ClockRules,
    Span,
    TurnClock,
    available_at,
    days_left,
    grant,
)
from bot.clock.clocks import charges_for, pauses_for
from bot.store.availability import AwayRow

START = datetime(2026, 11, 22, 12, tzinfo=UTC)
H = timedelta(hours=1)
D = timedelta(days=1)
RULES = ClockRules(bank=72 * H, increment=24 * H, reminder=24 * H, pause_cap=14 * D)


def test_the_bank_runs_down_pauses_within_the_cap_and_moves_top_it_up() -> None:
    clock = TurnClock(started=START, bank=72 * H, pauses=(), rules=RULES)
    assert clock.left(START + 30 * H) == 42 * H and clock.deadline == START + 72 * H
    assert clock.reminder_due == START + 24 * H  # 48 h left: a full bank less the reminder
    assert clock.after_move(START + 30 * H, passes=True) == 66 * H  # 42 + 24
    assert clock.after_move(START + 1 * H, passes=True) == 72 * H  # never past the full bank
    assert clock.after_move(START + 30 * H, passes=False) == 42 * H  # still its turn: no increment
    assert clock.timed_out(START + 72 * H) and not clock.timed_out(START + 72 * H - timedelta(seconds=1))
    # Low at the start of a turn: the reminder comes half-way through what is left.
    low = TurnClock(started=START, bank=10 * H, pauses=(), rules=RULES)
    assert low.reminder_due == START + 5 * H and low.deadline == START + 10 * H
    # A pause stops it; coming back lets it run on (nothing restarts).
    away = Span(START + 10 * H, START + 40 * H)
    paused = TurnClock(started=START, bank=72 * H, pauses=(away,), rules=RULES)
    assert paused.paused_now(START + 20 * H) and paused.left(START + 20 * H) == 62 * H
    assert not paused.paused_now(START + 41 * H) and paused.left(START + 41 * H) == 61 * H
    assert paused.deadline == START + 102 * H
    # However long the pauses, one turn pauses at most pause_cap (14 days): the bound holds.
    long = TurnClock(started=START, bank=72 * H, pauses=(Span(START, START + 20 * D), Span(START + 21 * D,
                                                                                             START + 40 * D)),
                     rules=RULES)
    assert long.deadline == START + 14 * D + 72 * H == START + RULES.bound
    assert not long.paused_now(START + 15 * D)


def test_whole_days_of_time_away_and_when_they_come_back() -> None:
    budget = Budget(14, 90)
    assert Charge(START, START + 5 * D, 5).charged == 5
    assert Charge(START, START + 1 * H, 5).charged == 1  # back an hour later: 4 whole days refunded
    assert Charge(START, START, 5).charged == 1  # an away begins its first day at once
    assert Charge(START, START + 100 * H, 5).charged == 5  # 4.2 days begun
    assert Charge(START, START + 30 * D, 1).pause == Span(START, START + D)  # only what was granted pauses
    past = [Charge(START - 80 * D, START - 75 * D, 5), Charge(START - 10 * D, START - 9 * D + H, 3)]
    assert days_left(past, START, budget) == 14 - 5 - 2
    assert grant(past, START, budget, 30) == 7 and grant(past, START, budget, 3) == 3
    assert available_at(past, START, budget, 7) == START
    assert available_at(past, START, budget, 12) == START + 10 * D  # when the 5 days leave the window
    assert available_at(past, START, budget, 14) == START + 80 * D
    assert available_at(past, START, budget, 15) is None
    assert grant([], START, Budget(0, 90), 9) == 0


def test_an_away_pauses_each_server_only_by_its_own_grant() -> None:
    a, b = 1, 2
    away = AwayRow(user_id=5, starts_at=START.isoformat(), ends_at=(START + 29 * D).isoformat(), guild_id=b,
                   granted=True, grants={a: 1, b: 29})
    assert pauses_for([away], a) == [Span(START, START + D)]
    assert pauses_for([away], b) == [Span(START, START + 29 * D)]
    assert pauses_for([away], 0) == []  # DM games: no grant, no pause
    assert [c.charged for c in charges_for([away], a)] == [1]
    # An away from before grants pauses everything (the clock's cap still bounds a turn) and counts
    # where it was asked.
    legacy = away.model_copy(update={"granted": False, "grants": {}})
    assert pauses_for([legacy], a) == [Span(START, START + 29 * D)]
    assert charges_for([legacy], a) == [] and [c.charged for c in charges_for([legacy], b)] == [29]


# --- the bound, by property ------------------------------------------------------------------

SERVERS = {1: Budget(14, 90), 2: Budget(60, 60), 0: Budget(14, 90)}  # the game's (1), another, DMs


@dataclass
class Seat:
    """One player with one seat in a game of server 1 (the other servers: their other games)."""

    rules: ClockRules
    budgets: dict[int, Budget]
    now: datetime = START
    turn_started: datetime = START
    bank: timedelta = timedelta()
    aways: list[AwayRow] = field(default_factory=list)
    moves: int = 0
    spent: timedelta = timedelta()
    over: bool = False

    def clock(self) -> TurnClock:
        return TurnClock(self.turn_started, self.bank, tuple(pauses_for(self.aways, 1)), self.rules)

    def away_now(self) -> AwayRow | None:
        return next((a for a in self.aways if a.starts <= self.now < a.ends), None)

    def go_away(self, days: int, where: int | None) -> None:
        """As ``Availability.go_away``: refused over the asking server's budget; else each server grants."""
        if self.away_now() is not None:
            return
        if where is not None:
            budget = self.budgets[where]
            if budget.days <= 0 or days > days_left(charges_for(self.aways, where), self.now, budget):
                return
        grants = {key: grant(charges_for(self.aways, key), self.now, budget, days)
                  for key, budget in self.budgets.items()}
        self.aways.append(AwayRow(user_id=5, starts_at=self.now.isoformat(), ends_at=(self.now + days * D).isoformat(),
                                  guild_id=where, granted=True, grants=grants))

    def come_back(self) -> None:
        away = self.away_now()
        if away is not None:
            self.aways[self.aways.index(away)] = away.model_copy(update={"ends_at": self.now.isoformat()})

    def move(self, opponent: timedelta) -> None:
        clock = self.clock()
        self.spent += clock.used(self.now)
        self.bank = clock.after_move(self.now, passes=True)
        self.moves += 1
        self.now += opponent  # the others' turns
        self.turn_started = self.now

    def sweep(self) -> None:
        """What the reminder sweep checks at every step: the seat times out at zero."""
        clock = self.clock()
        if clock.timed_out(self.now):
            self.spent += clock.bank
            self.over = True

    def check(self) -> None:
        clock = self.clock()
        bound = self.rules.bound
        # The documented bound: this turn cannot outlast it, whatever pauses were granted.
        assert clock.deadline - clock.started <= bound
        assert clock.timed_out(clock.started + bound)
        if not self.over:
            assert self.now - self.turn_started < bound
        assert timedelta() <= self.bank <= self.rules.bank
        # Over the game: the bank spent is at most the full bank and one increment per move.
        assert self.spent <= self.rules.bank + self.moves * self.rules.increment
        # Every server's budget: the whole days charged by aways begun in any window fit its days.
        for key, budget in self.budgets.items():
            charges = charges_for(self.aways, key)
            for last in charges:
                window = [c for c in charges if last.starts - budget.window < c.starts <= last.starts]
                assert sum(c.charged for c in window) <= budget.days


steps = st.lists(st.one_of(
    st.tuples(st.just("wait"), st.one_of(st.integers(1, 6 * 24 * 60), st.integers(1, 30).map(lambda d: d * 24 * 60))),
    st.tuples(st.just("away"), st.integers(1, 60), st.sampled_from([1, 2, None])),
    st.tuples(st.just("back")),
    st.tuples(st.just("quiet")),  # quiet hours never stop the clock: nothing to model
    st.tuples(st.just("move"), st.integers(0, 5 * 24 * 60)),
), max_size=60)
rules = st.builds(
    lambda bank, increment, reminder, away_days, window: (
        ClockRules(bank=bank * H, increment=min(increment, bank) * H, reminder=min(reminder, bank - 1) * H,
                   pause_cap=away_days * D), Budget(away_days, max(window, away_days, 7))),
    st.one_of(st.integers(2, 2160), st.sampled_from([72, 720, 2160])), st.integers(0, 720), st.integers(1, 720),
    st.integers(0, 60), st.one_of(st.integers(7, 365), st.sampled_from([7, 14])))


#: Short windows refill the budget within one long turn: only the per-turn cap keeps the bound.
REFILLS = (ClockRules(bank=2160 * H, increment=24 * H, reminder=24 * H, pause_cap=7 * D), Budget(7, 7))


@settings(max_examples=300, deadline=None)
@given(rules, steps)
@example(REFILLS, [("away", 7, 1), ("wait", 8 * 24 * 60), ("away", 7, 1), ("wait", 8 * 24 * 60), ("away", 7, 1),
                   ("wait", 30 * 24 * 60), ("wait", 30 * 24 * 60), ("wait", 30 * 24 * 60), ("wait", 30 * 24 * 60)])
def test_no_sequence_of_commands_keeps_a_seat_past_the_bound(server: tuple[ClockRules, Budget],
                                                             commands: list[tuple[object, ...]]) -> None:
    clock_rules, budget = server
    seat = Seat(clock_rules, {**SERVERS, 1: budget}, bank=clock_rules.bank)
    for command in commands:
        if seat.over:
            break
        match command:
            case ("wait", int(minutes)):
                seat.now += timedelta(minutes=minutes)
            case ("away", int(days), where):
                seat.go_away(days, where if isinstance(where, int) else None)
            case ("back",):
                seat.come_back()
            case ("move", int(minutes)):
                seat.move(timedelta(minutes=minutes))
        seat.sweep()
        seat.check()


@pytest.mark.parametrize("cycles", [9])
def test_the_findings_sequence_away_and_back_every_71_hours(cycles: int) -> None:
    seat = Seat(RULES, dict(SERVERS), bank=RULES.bank)
    for _ in range(cycles):
        seat.now += 71 * H
        seat.sweep()
        if seat.over:
            break
        seat.go_away(1, 1)
        seat.come_back()
    assert seat.over and seat.now - seat.turn_started == 142 * H  # the sweep after the bank ran out at 72 h
    assert seat.clock().deadline == START + 72 * H
