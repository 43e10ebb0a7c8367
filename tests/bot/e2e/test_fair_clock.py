"""The findings of issue #25 ("Fair play") on the turn clock, through the emulator: away
and back every 71 hours, quiet hours all day, and the budget of the wrong server each
kept a seat far past its timeout. Each test failed on the code before the
correspondence clock; each now checks the bound the README documents (a turn lasts at
most ``timeout_hours`` + ``away_days`` days of the game's own server)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest

from bot.store import GuildSettings
from emulator.harness import Harness
from tests.bot.clock import FakeClock
from tests.bot.e2e.driver import boards, flaming_game_of, session_of


def texts(harness: Harness, channel: Any, *parts: str) -> list[str]:
    return [m.text for m in harness.messages(channel) if any(part in m.text for part in parts)]


async def actor_of(harness: Harness, game_id: int, users: list[Any]) -> tuple[Any, int]:
    session = await session_of(harness, game_id)
    seat = session.to_act
    return users[seat], seat


@dataclass
class Table:
    """A running Flaming Pyramids game of alice and bob, and the seat whose turn it is."""

    harness: Harness
    users: list[Any]
    thread: Any
    game_id: int
    actor: Any
    seat: int

    async def sweep(self) -> list[str]:
        """The reminder sweep (what it did)."""
        return list(await self.harness.bot.client.host.reminders.sweep())

    async def times_out_after(self, clock: FakeClock, **delta: float) -> None:
        """The seat to act runs out of time exactly ``delta`` from now (not a second
        earlier), and an AI takes it."""
        timeout = f"timeout:{self.game_id}:ai"
        clock.advance(seconds=timedelta(**delta).total_seconds() - 1)
        assert timeout not in await self.sweep()
        clock.advance(seconds=1)
        assert timeout in await self.sweep()
        assert (await session_of(self.harness, self.game_id)).seat(self.seat).is_ai


@pytest.fixture
async def table(emulator: Any, harness: Harness) -> Table:
    users, thread, game_id = await flaming_game_of(emulator, harness, "alice", "bob")
    actor, seat = await actor_of(harness, game_id, users)
    return Table(harness, users, thread, game_id, actor, seat)


async def test_away_and_back_every_71_hours_does_not_keep_a_seat(table: Table, clock: FakeClock) -> None:
    harness, thread, game_id, actor = table.harness, table.thread, table.game_id, table.actor
    turn_began = clock.now
    timed_out_at = None
    for _ in range(9):  # 9 × 71 h = 639 h: what the finding kept a seat for
        for _hour in range(71):  # the sweep looks every hour
            clock.advance(hours=1)
            if f"timeout:{game_id}:ai" in await table.sweep():
                timed_out_at = clock.now
                break
        if timed_out_at is not None:
            break
        gone = await harness.slash(actor, thread, "pyramid away", days=1)
        assert "away until" in gone.text
        back = await harness.slash(actor, thread, "pyramid back")
        assert "Welcome back" in back.text
    # Back never restarted the clock and the away paused it for seconds only: the 72 h bank ran out.
    assert timed_out_at is not None and timed_out_at - turn_began <= timedelta(hours=73)
    assert (await session_of(harness, game_id)).seat(table.seat).is_ai
    # The other player heard of it once a day at most: one away notice, no back notice that day.
    assert len(texts(harness, thread, "is away until", "is back")) == 1


async def test_fifteen_away_and_back_cycles_tell_each_game_once_and_spend_whole_days(
    table: Table, clock: FakeClock
) -> None:
    harness, thread, actor = table.harness, table.thread, table.actor
    answers = []
    for _ in range(15):
        answers.append((await harness.slash(actor, thread, "pyramid away", days=1)).text)
        await harness.slash(actor, thread, "pyramid back")
        clock.advance(minutes=1)
    # Each return early refunds only whole unused days: a minute away counts one day of 14 in 90.
    assert all("away until" in text for text in answers[:14])
    assert "no time away left" in answers[14]
    assert len(texts(harness, thread, "is away until", "is back")) == 1


async def test_quiet_hours_all_day_are_refused_and_quiet_time_counts(table: Table, clock: FakeClock) -> None:
    harness, thread, actor = table.harness, table.thread, table.actor
    refused = await harness.slash(actor, thread, "pyramid quiet", options={"from": "00:00", "to": "23:59",
                                                                           "timezone": "UTC"})
    assert "at most 12 hours" in refused.text
    assert "no quiet hours" in (await harness.slash(actor, thread, "pyramid quiet")).text
    night = await harness.slash(actor, thread, "pyramid quiet", options={"from": "20:00", "to": "08:00",
                                                                         "timezone": "UTC"})
    assert "Quiet hours set" in night.text
    # The clock never stops in quiet hours: the 72 h bank runs out on time (not after 30 days).
    await table.times_out_after(clock, hours=72)


async def test_away_by_dm_pauses_nothing_where_the_server_allows_no_time_away(
    emulator: Any, table: Table, clock: FakeClock
) -> None:
    harness, actor = table.harness, table.actor
    await harness.slash(table.users[0], emulator.general, "pyramid-admin settings", away_days=0)
    gone = await harness.slash(actor, harness.dm_channel(actor), "pyramid away", days=9)
    assert "away until" in gone.text
    assert texts(harness, table.thread, "is away until") == []  # nothing pauses here, so nothing to tell
    await table.times_out_after(clock, hours=72)


async def test_away_in_another_server_pauses_this_game_only_within_this_servers_budget(
    emulator: Any, table: Table, clock: FakeClock
) -> None:
    harness, users, actor = table.harness, table.users, table.actor
    await harness.slash(users[0], emulator.general, "pyramid-admin settings", away_days=1, away_window_days=90)
    other = await harness.add_guild("B", members=users)
    store = harness.bot.services.store
    await store.save_guild_settings(GuildSettings(guild_id=other.id, away_days=60, away_window_days=60))
    gone = await harness.slash(actor, harness.channel("general", guild=other), "pyramid away", days=29)
    assert "away until" in gone.text
    # Server A allows 1 day: its game waits 72 h + 1 day, not 29 days.
    told = texts(harness, table.thread, "is away until")
    assert len(told) == 1 and f"<t:{int((clock.now + timedelta(days=1)).timestamp())}:D>" in told[0]
    await table.times_out_after(clock, hours=72 + 24)


async def play_turn(harness: Harness, user: Any, thread: Any, game_id: int) -> None:
    """``user`` moves until the turn passes on."""
    seat = (await session_of(harness, game_id)).to_act
    while (await session_of(harness, game_id)).to_act == seat:
        choices = await harness.autocomplete(user, thread, "pyramid play", "move", "", game=game_id)
        assert "✅" in (await harness.slash(user, thread, "pyramid play", move=choices[0]["value"],
                                            game=game_id)).text


async def test_the_bank_shows_on_boards_in_games_and_reminders_and_moves_top_it_up(
    table: Table, clock: FakeClock
) -> None:
    harness, thread, game_id, actor = table.harness, table.thread, table.game_id, table.actor
    started = clock.now
    first = boards(harness, thread)[0].text
    assert f"⏱ 3 d left · runs out <t:{int((started + timedelta(hours=72)).timestamp())}:R>" in first
    other = table.users[1 - table.seat]
    listed = await harness.slash(actor, thread, "pyramid games")
    assert "**your turn** · ⏱ 3 d left" in listed.text
    clock.advance(hours=24)
    assert await table.sweep() == [f"reminder:{game_id}"]  # a full bank less reminder_hours (24 h) used
    reminder = texts(harness, thread, "⏰")[-1]
    assert "⏱ 2 d left" in reminder and f"<@{actor.id}>" in reminder
    clock.advance(hours=6)
    await play_turn(harness, actor, thread, game_id)  # 30 h used: 42 h left, + 24 h
    assert "⏱ 3 d left" in boards(harness, thread)[-1].text  # the other seat starts full
    await play_turn(harness, other, thread, game_id)
    board = boards(harness, thread)[-1].text
    assert f"<@{actor.id}>" in board and "⏱ 2 d 18 h left" in board
    # Away: the board's clock shows it standing still.
    await harness.slash(actor, thread, "pyramid away", days=2)
    listed = await harness.slash(actor, thread, "pyramid games")
    assert "⏸ Away: the clock stands at 2 d 18 h left" in listed.text


async def test_admins_set_the_clock_and_bad_values_are_refused_kindly(
    emulator: Any, harness: Harness, table: Table
) -> None:
    admin = table.users[0]
    saved = await harness.slash(admin, emulator.general, "pyramid-admin settings", timeout_hours=48.0,
                                increment_hours=12.0, reminder_hours=40.0)
    assert "Saved" in saved.text and "time bank of **48 h**" in saved.text and "adds **12 h**" in saved.text
    assert "one turn lasts at most **16 d**" in saved.text  # 48 h + 14 days away
    too_much = await harness.slash(admin, emulator.general, "pyramid-admin settings", increment_hours=49.0)
    assert "can't be more than the whole time bank" in too_much.text and "Nothing was changed" in too_much.text
    stored = await harness.bot.services.store.guild_settings(emulator.guild.id)
    assert (stored.timeout_hours, stored.increment_hours, stored.reminder_hours) == (48.0, 12.0, 40.0)
    german = await harness.slash(admin, emulator.general, "pyramid-admin settings", locale="de")
    assert "Zeitkonto von **48 Std.**" in german.text
