"""Time away and quiet hours through the emulator: an away player's clock stands still
(no reminder, no timeout) and the others hear it once with the return date; ``back``
lets it run on from where it stood (never afresh); the budget refuses too much and
counts whole days; a reminder due in quiet hours comes at their local end, across a
daylight-saving change, while the clock runs through them."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from emulator.harness import Harness
from emulator.limits import SUPPRESS_NOTIFICATIONS
from tests.bot.clock import FakeClock
from tests.bot.e2e.driver import boards, flaming_game_of, session_of


def stamp(at: datetime, style: str) -> str:
    return f"<t:{int(at.timestamp())}:{style}>"


def texts(harness: Harness, channel: Any, part: str) -> list[str]:
    return [m.text for m in harness.messages(channel) if part in m.text]


async def test_an_away_players_turn_waits_and_the_others_are_told_once(
    emulator: Any, harness: Harness, clock: FakeClock
) -> None:
    (alice, bob), thread, game_id = await flaming_game_of(emulator, harness, "alice", "bob")
    sweep = harness.bot.client.host.reminders.sweep
    session = await session_of(harness, game_id)
    seat = session.to_act
    actor = {0: alice, 1: bob}[seat]

    left_at = clock.now
    gone = await harness.slash(actor, emulator.general, "pyramid away", days=5)
    assert gone.ephemeral and "away until" in gone.text and stamp(left_at + timedelta(days=5), "f") in gone.text
    assert "9 days of time away left" in gone.text  # 14 in any 90, 5 of them taken
    told = texts(harness, thread, "is away until")
    assert len(told) == 1
    assert f"<@{actor.id}>" in told[0] and stamp(left_at + timedelta(days=5), "D") in told[0]

    again = await harness.slash(actor, thread, "pyramid away", days=2)
    assert "away already" in again.text
    assert await sweep() == []  # nothing left to tell, nobody to remind
    assert len(texts(harness, thread, "is away until")) == 1

    # Past the reminder (24 h) and the timeout (72 h): the turn waits for them.
    clock.advance(hours=100)
    assert await sweep() == []
    session = await session_of(harness, game_id)
    assert session.to_act == seat and not session.seat(seat).is_ai and session.version == 0
    assert texts(harness, thread, "⏰") == []

    back = await harness.slash(actor, thread, "pyramid back")
    assert "Welcome back" in back.text and "5 days against this server's budget" in back.text  # 4.2 days begun
    assert len(texts(harness, thread, "is back")) == 1
    assert "not away" in (await harness.slash(actor, thread, "pyramid back")).text
    assert len(texts(harness, thread, "is back")) == 1

    # Too much: 5 whole days of 14 spent, so 9 are left; 14 fit again once this away leaves the 90-day window.
    refused = await harness.slash(actor, thread, "pyramid away", days=14)
    assert "allows 14 days away in any 90 days" in refused.text
    assert "You can take 9 more days right now" in refused.text
    assert stamp(left_at + timedelta(days=90), "f") in refused.text
    assert await harness.bot.client.host.reminders.availability.current_away(actor.id) is None

    # The clock stood still while they were away and runs on from where it stood: all 72 h of the bank were
    # left, so the reminder comes 24 h later (48 h left) and the timeout 72 h later.
    clock.advance(hours=23)
    assert await sweep() == []
    clock.advance(hours=1)
    assert await sweep() == [f"reminder:{game_id}"]
    assert len(texts(harness, thread, "⏰")) == 1
    assert await sweep() == []
    clock.advance(hours=48, seconds=-1)
    assert await sweep() == []
    clock.advance(seconds=1)
    assert await sweep() == [f"timeout:{game_id}:ai"]


async def test_the_server_sets_the_budget_and_hears_of_aways_in_its_language(
    emulator: Any, harness: Harness, clock: FakeClock
) -> None:
    (alice, bob), thread, _game_id = await flaming_game_of(emulator, harness, "alice", "bob")
    shown = await harness.slash(alice, emulator.general, "pyramid-admin settings", away_days=0)
    assert "**0 days** in any **90 days**" in shown.text
    off = await harness.slash(bob, thread, "pyramid away", days=1)
    assert "allows no time away" in off.text
    bad = await harness.slash(alice, emulator.general, "pyramid-admin settings", away_days=10, away_window_days=7)
    assert "must fit in their window" in bad.text
    await harness.slash(alice, emulator.general, "pyramid-admin settings", away_days=3, away_window_days=30)
    store = harness.bot.services.store
    settings = await store.guild_settings(emulator.guild.id)
    await store.save_guild_settings(settings.model_copy(update={"language": "de"}))
    refused = await harness.slash(bob, thread, "pyramid away", days=4)
    assert "allows 3 days away in any 30 days" in refused.text and "You can take 3 more days" in refused.text
    gone = await harness.slash(bob, thread, "pyramid away", days=3)
    assert "away until" in gone.text  # bob's own Discord speaks English
    told = texts(harness, thread, "ist abwesend bis")
    assert len(told) == 1 and stamp(clock.now + timedelta(days=3), "D") in told[0]
    clock.advance(days=1)  # a game hears of a player at most once a day
    await harness.slash(bob, thread, "pyramid back")
    assert len(texts(harness, thread, "ist zurück")) == 1


async def test_a_reminder_due_in_quiet_hours_comes_at_their_local_end_across_a_clock_change(
    emulator: Any, harness: Harness, clock: FakeClock
) -> None:
    # Saturday 24 October 2026, 05:30 UTC (07:30 in Berlin, summer time); that night, at 01:00 UTC,
    # Europe leaves summer time.
    clock.now = moved_at = datetime(2026, 10, 24, 5, 30, tzinfo=UTC)
    (alice, bob), thread, game_id = await flaming_game_of(emulator, harness, "alice", "bob")
    sweep = harness.bot.client.host.reminders.sweep
    session = await session_of(harness, game_id)
    actor = {0: alice, 1: bob}[session.to_act]

    zones = await harness.autocomplete(actor, thread, "pyramid quiet", "timezone", "berl")
    assert zones[0]["value"] == "Europe/Berlin"
    bad = await harness.slash(actor, thread, "pyramid quiet", options={"from": "25:00", "to": "07:00",
                                                                       "timezone": "Europe/Berlin"})
    assert "not a time of day" in bad.text
    unknown = await harness.slash(actor, thread, "pyramid quiet", options={"from": "22:00", "to": "07:00",
                                                                           "timezone": "Mars/Olympus"})
    assert "don't know the time zone" in unknown.text
    quiet = await harness.slash(actor, thread, "pyramid quiet", options={"from": "22:00", "to": "7:00",
                                                                         "timezone": "europe/berlin"})
    assert quiet.ephemeral and "22:00–07:00 (Europe/Berlin)" in quiet.text
    # Tonight's window, shown as Discord timestamps: 22:00 summer time (20:00 UTC) to 07:00 winter time.
    assert stamp(datetime(2026, 10, 24, 20, tzinfo=UTC), "f") in quiet.text
    assert stamp(datetime(2026, 10, 25, 6, tzinfo=UTC), "t") in quiet.text
    assert "22:00–07:00" in (await harness.slash(actor, thread, "pyramid quiet")).text

    # Due 24 h after the move: Sunday 05:30 UTC, 06:30 in Berlin after the change, inside the night.
    clock.now = moved_at + timedelta(hours=24)
    assert await sweep() == []
    clock.now = datetime(2026, 10, 25, 5, 45, tzinfo=UTC)  # past 07:00 had the clocks not changed: still quiet
    assert await sweep() == []
    clock.now = datetime(2026, 10, 25, 5, 59, 59, tzinfo=UTC)
    assert await sweep() == []
    assert texts(harness, thread, "⏰") == []
    clock.now = datetime(2026, 10, 25, 6, tzinfo=UTC)
    assert await sweep() == [f"reminder:{game_id}"]
    assert clock.now.astimezone(ZoneInfo("Europe/Berlin")).time() == time(7, 0)  # the window's local end
    reminders = texts(harness, thread, "⏰")
    assert len(reminders) == 1 and f"<@{actor.id}>" in reminders[0]

    # Quiet hours never stop the clock: the 72 h bank runs out on time, here at 06:30 in Berlin, inside them.
    clock.now = moved_at + timedelta(hours=72, seconds=-1)
    assert await sweep() == []
    clock.now = moved_at + timedelta(hours=72)
    assert clock.now.astimezone(ZoneInfo("Europe/Berlin")).time() == time(6, 30)
    assert await sweep() == [f"timeout:{game_id}:ai"]

    off = await harness.slash(actor, thread, "pyramid quiet", off=True)
    assert "quiet hours are off" in off.text
    assert "no quiet hours" in (await harness.slash(actor, thread, "pyramid quiet", off=True)).text


async def test_quiet_hours_keep_boards_and_dms_from_pinging(emulator: Any, harness: Harness, clock: FakeClock) -> None:
    # Thursday 14 January 2027, 23:00 UTC: midnight in Berlin, inside a 22:00–07:00 window.
    clock.now = datetime(2027, 1, 14, 23, tzinfo=UTC)
    users, thread, game_id = await flaming_game_of(emulator, harness, "alice", "bob")
    session = await session_of(harness, game_id)
    mover = session.to_act
    actor, sleeper = users[mover], users[1 - mover]
    assert boards(harness, thread)[0].pinged == {actor.id}  # outside anyone's quiet hours, a board pings
    await harness.slash(sleeper, thread, "pyramid quiet", options={"from": "22:00", "to": "07:00",
                                                                   "timezone": "Europe/Berlin"})
    dms_before = len(harness.dm(sleeper))
    while (await session_of(harness, game_id)).to_act == mover:
        choices = await harness.autocomplete(actor, thread, "pyramid play", "move", "", game=game_id)
        assert "✅" in (await harness.slash(actor, thread, "pyramid play", move=choices[0]["value"],
                                            game=game_id)).text
    board = boards(harness, thread)[-1]
    assert f"<@{sleeper.id}>" in board.content and board.pinged == frozenset()
    hand_dms = harness.dm(sleeper)[dms_before:]
    assert hand_dms and all(m.flags & SUPPRESS_NOTIFICATIONS for m in hand_dms)

    # Morning in Berlin: the sleeper's own move, then the actor's, ping again.
    clock.now = datetime(2027, 1, 15, 7, tzinfo=UTC)
    while (await session_of(harness, game_id)).to_act != mover:
        choices = await harness.autocomplete(sleeper, thread, "pyramid play", "move", "", game=game_id)
        await harness.slash(sleeper, thread, "pyramid play", move=choices[0]["value"], game=game_id)
    assert boards(harness, thread)[-1].pinged == {actor.id}
    while (await session_of(harness, game_id)).to_act == mover:
        choices = await harness.autocomplete(actor, thread, "pyramid play", "move", "", game=game_id)
        await harness.slash(actor, thread, "pyramid play", move=choices[0]["value"], game=game_id)
    assert boards(harness, thread)[-1].pinged == {sleeper.id}
    assert not harness.dm(sleeper)[-1].flags & SUPPRESS_NOTIFICATIONS
