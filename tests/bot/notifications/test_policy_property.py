"""The notification invariant by property (issue #39): whatever the settings and the sequence of
turns, moves, quiet hours and waits, a player gets at most ``CAP_PER_HOUR`` buzzes in any hour,
never two within a minute (what comes in the same minute is one message), and every turn that
started is told (its own buzz, or the batch after it) unless the player chose not to hear it or
moved before it could be told."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.notifications.policy import (
    BATCH,
    CAP_PER_HOUR,
    HOUR,
    INTERVALS,
    MODES,
    Circumstances,
    Event,
    Ledger,
    Settings,
    chosen_silence,
    merge,
)

START = datetime(2027, 3, 1, 12, tzinfo=UTC)
GAMES = 20

game_settings = st.builds(
    Settings, mode=st.sampled_from(MODES), interval_hours=st.sampled_from(INTERVALS), cap=st.integers(1, 10),
    heads_up=st.booleans(), muted=st.booleans(), digest_hour=st.none() | st.integers(0, 23))
step = st.one_of(
    st.tuples(st.just("turn"), st.integers(0, GAMES - 1)),
    st.tuples(st.just("move"), st.integers(0, GAMES - 1)),
    st.tuples(st.just("wait"),
              st.sampled_from([0, 5, 30, 59, 61, 90, 300, 600, 3600, 7200]) | st.integers(0, 3 * 3600)),
    st.tuples(st.just("quiet"), st.booleans()),
    st.tuples(st.just("stop"), st.integers(0, GAMES - 1)),
    st.tuples(st.just("notice"), st.integers(0, GAMES - 1)),
)


def check_cap(buzzes: list[datetime]) -> None:
    ordered = sorted(buzzes)
    for i, at in enumerate(ordered):
        in_hour = [b for b in ordered[i:] if b < at + HOUR]
        assert len(in_hour) <= CAP_PER_HOUR, (at, in_hour)
        if i:
            assert at - ordered[i - 1] >= BATCH, "two buzzes within a minute"


@settings(max_examples=300, deadline=None)
@given(per_game=st.lists(game_settings, min_size=GAMES, max_size=GAMES), steps=st.lists(step, max_size=160))
def test_cap_batching_and_every_turn_told(per_game: list[Settings], steps: list[tuple[str, object]]) -> None:
    ledger = Ledger([], [])
    now = START
    version = [0] * GAMES
    running: dict[int, Event] = {}  # game → the turn running in it
    stopped: set[Event] = set()
    quiet = False
    fate: dict[Event, str] = {}  # each turn: buzz, batch, chosen, moved (or still waiting)

    def flush() -> None:
        live = [e for e in running.values() if fate.get(e) == "hold"] + [
            e for e, f in fate.items() if e.kind == "notice" and f == "hold"]
        batch = ledger.flush(now, live)
        for event in batch or ():
            fate[event] = "batch"

    for kind, arg in steps:
        if kind == "wait":
            assert isinstance(arg, int)
            end = now + timedelta(seconds=arg)
            while now < end:  # the sweep looks every minute
                now = min(end, now + BATCH)
                flush()
            continue
        if kind == "quiet":
            quiet = bool(arg)
            continue
        assert isinstance(arg, int)
        if kind == "move":
            turn = running.pop(arg, None)
            if turn is not None and fate[turn] == "hold":
                fate[turn] = "moved"
            continue
        if kind == "stop":
            if arg in running:
                stopped.add(running[arg])
            continue
        if kind == "turn":
            old = running.pop(arg, None)
            if old is not None and fate[old] == "hold":
                fate[old] = "moved"
            version[arg] += 1
            event = Event(arg, version[arg], "turn")
            running[arg] = event
        else:
            event = Event(arg, version[arg], "notice")
        circumstances = Circumstances(quiet=quiet, stopped=event in stopped)
        verdict = ledger.notice(per_game[arg], event, now, circumstances)
        if verdict == "silent":
            assert chosen_silence(per_game[arg], event, circumstances)
            fate[event] = "chosen"
        else:
            fate[event] = verdict
        # The board and the hand DM of one turn ask once: a second place hears the same.
        flush()
    for _ in range(3 * 60):  # time enough for every held notice to find room in an hour
        now += BATCH
        flush()
    check_cap(ledger.buzzes)
    untold = [e for e, f in fate.items() if f == "hold"]
    assert untold == []
    assert set(fate.values()) <= {"buzz", "batch", "chosen", "moved"}


def test_twenty_turns_in_one_minute_are_one_buzz_and_one_batch() -> None:
    ledger = Ledger([], [])
    verdicts = [ledger.notice(Settings(mode="dm"), Event(g, 1, "turn"), START + timedelta(seconds=g * 2))
                for g in range(20)]
    assert verdicts == ["buzz"] + ["hold"] * 19
    live = [Event(g, 1, "turn") for g in range(20)]
    assert ledger.flush(START + timedelta(seconds=59), live) is None  # still within the minute
    batch = ledger.flush(START + timedelta(seconds=100), live)
    assert batch is not None and len(batch) == 19
    assert len(ledger.buzzes) == 2


def test_the_cap_holds_the_seventh_notice_of_an_hour() -> None:
    ledger = Ledger([], [])
    at = [START + timedelta(minutes=5 * i) for i in range(7)]
    verdicts = [ledger.notice(Settings(), Event(i, 1, "turn"), t) for i, t in enumerate(at)]
    assert verdicts == ["buzz"] * CAP_PER_HOUR + ["hold"]
    live = [Event(6, 1, "turn")]
    assert ledger.flush(START + timedelta(minutes=59), live) is None
    assert ledger.flush(START + timedelta(minutes=60, seconds=1), live) == live  # the first buzz left the hour


def test_a_game_override_lays_over_the_players_settings() -> None:
    own = Settings(mode="dm", interval_hours=8)
    assert merge(own, {"muted": True, "mode": None}) == Settings(mode="dm", interval_hours=8, muted=True)
    assert Settings(mode="digest").digest_at == 9 and Settings().digest_at is None


@settings(max_examples=200, deadline=None)
@given(burst=st.lists(st.tuples(st.integers(0, GAMES - 1), st.integers(0, 900)), min_size=1, max_size=200),
       mode=st.sampled_from(("board", "dm", "both")))
def test_a_dense_stream_of_turns_never_passes_the_cap(burst: list[tuple[int, int]], mode: str) -> None:
    """Players who hear everything (no mute, no digest, no quiet hours), turns arriving seconds to minutes apart
    and the sweep looking every minute: the cap and the minute's batch hold, and every turn is told or moved."""
    ledger = Ledger([], [])
    now = START
    version = [0] * GAMES
    running: dict[int, Event] = {}
    fate: dict[Event, str] = {}
    swept = START
    for game, gap in burst:
        now += timedelta(seconds=gap)
        while swept + BATCH <= now:  # the sweeps between
            swept += BATCH
            for event in ledger.flush(swept, [e for e in running.values() if fate.get(e) == "hold"]) or ():
                fate[event] = "batch"
        old = running.pop(game, None)
        if old is not None and fate[old] == "hold":
            fate[old] = "moved"  # a new turn in that game: the player moved in the old one
        version[game] += 1
        event = Event(game, version[game], "turn")
        running[game] = event
        fate[event] = ledger.notice(Settings(mode=mode), event, now)  # type: ignore[arg-type]
        assert fate[event] in ("buzz", "hold")
    for _ in range(3 * 60):
        now += BATCH
        for event in ledger.flush(now, [e for e in running.values() if fate.get(e) == "hold"]) or ():
            fate[event] = "batch"
    check_cap(ledger.buzzes)
    assert [e for e, f in fate.items() if f == "hold"] == []
