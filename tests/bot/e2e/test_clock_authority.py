"""The clock is the authority at the moment of a move (issue #37): a move made after the
mover's time bank ran out is refused, whatever the sweep did (it is late, the bot has
just restarted, or its first pass has not come yet), and the timeout is applied then and
there, as the sweep would have applied it: the same result and the same words. A sweep
that comes afterwards finds nothing left to do. Each test failed on the code before the
check (``SessionService.make_move`` asked the clock only for the bank it keeps)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.store import GuildSettings
from emulator.harness import Harness
from emulator.model import Channel, User
from tests.bot.clock import FakeClock
from tests.bot.e2e.driver import boards, session_of, start_flaming
from tests.bot.e2e.test_cards import NOT_A_CHOICE


def notes(harness: Harness, channel: Channel) -> list[str]:
    """What the channel was told of timeouts and forfeits."""
    return [m.text for m in harness.messages(channel) if "time bank ran out" in m.text or "timed out" in m.text]


def alike(text: str, late: User, users: list[User]) -> str:
    """``text`` with the late player named "@late", the other "@other", and the game's number left out (the two
    games compared are two games)."""
    for user in users:
        said = "@late" if user.id == late.id else "@other"
        text = text.replace(f"<@{user.id}>", said).replace(user.username, said)
    return re.sub(r"game #\d+", "game #N", text)


async def click_a_move(harness: Harness, user: User, thread: Channel) -> str:
    """``user`` opens ▶ Your move on the newest board and picks through the chooser; what they are told."""
    board = boards(harness, thread)[-1]
    shown = await harness.click(user, board, label="▶ Your move")
    for _ in range(10):
        said = "\n".join([shown.text if shown.message is not None else ""] + [m.text for m in shown.followups])
        if "✅ You played" in said or "❌" in said:
            return said
        message = shown.last
        if message.selects() and not [b for b in message.button_labels if b not in NOT_A_CHOICE]:
            shown = await harness.select(user, message, None, [message.selects()[0]["options"][0]["value"]])
        else:
            shown = await harness.click(user, message, label=next(b for b in message.button_labels
                                                                    if b not in NOT_A_CHOICE))
    raise AssertionError(f"no move was made: {said}")


async def two_games(emulator: Any, harness: Harness) -> tuple[list[User], list[tuple[Channel, int]]]:
    users = [await harness.add_user(name) for name in ("alice", "bob")]
    await harness.start_bot()
    games = [await start_flaming(emulator, harness, users) for _ in range(2)]
    return users, games


@pytest.mark.parametrize("action", ["ai", "forfeit"])
async def test_a_move_after_the_bank_ran_out_is_refused_and_times_out_as_the_sweep_would(
    emulator: Any, harness: Harness, clock: FakeClock, action: str
) -> None:
    users, [(swept, swept_id), (clicked, clicked_id)] = await two_games(emulator, harness)
    if action == "forfeit":
        await harness.bot.services.store.save_guild_settings(GuildSettings(guild_id=emulator.guild.id,
                                                                           timeout_action="forfeit"))
    actor = users[(await session_of(harness, clicked_id)).to_act]
    swept_actor = users[(await session_of(harness, swept_id)).to_act]
    seat = (await session_of(harness, clicked_id)).to_act
    version = (await session_of(harness, clicked_id)).version
    # 72 h and a minute: the bank is empty, and no sweep has looked (late, or the bot just restarted).
    clock.advance(hours=72, minutes=1)
    await harness.restart_bot()
    told = await click_a_move(harness, actor, clicked)
    assert "✅ You played" not in told
    assert "time bank ran out" in told, told
    after = await session_of(harness, clicked_id)
    assert after.version >= version  # nothing of the player's was written: an AI, or nobody, moved since
    store = harness.bot.services.store
    moves = await store.moves(clicked_id)
    assert all(m.actor_id != actor.id for m in moves[version:])
    if action == "ai":
        assert after.seat(seat).is_ai
    else:
        assert after.record.status == "finished" and after.seat(seat).resigned
    # The sweep then applies the other game's timeout only: nothing twice here.
    done = await harness.bot.client.host.reminders.sweep()
    assert f"timeout:{swept_id}:{action}" in done
    assert not [d for d in done if d.startswith(f"timeout:{clicked_id}:")]
    assert len(await harness.bot.services.store.db.read_all(
        "SELECT * FROM seat_departures WHERE game_id = ?", (clicked_id,))) == 1
    # The same words as the sweep's, in each game's channel.
    by_click = [alike(t, actor, users) for t in notes(harness, clicked)]
    by_sweep = [alike(t, swept_actor, users) for t in notes(harness, swept)]
    assert by_click and by_click == by_sweep


async def test_a_move_one_second_before_the_bank_runs_out_is_played_and_topped_up(
    emulator: Any, harness: Harness, clock: FakeClock
) -> None:
    users, [(thread, game_id), _] = await two_games(emulator, harness)
    session = await session_of(harness, game_id)
    actor, seat = users[session.to_act], session.to_act
    clock.advance(hours=72, seconds=-1)
    assert "✅ You played" in await click_a_move(harness, actor, thread)
    bank = await harness.bot.client.host.reminders.clocks.store.bank(game_id, seat)
    assert bank is not None and 0 < bank <= 1 + 24 * 3600 and not (await session_of(harness, game_id)).seat(seat).is_ai


async def test_a_typed_move_after_the_bank_ran_out_is_refused_before_any_sweep(
    emulator: Any, harness: Harness, clock: FakeClock
) -> None:
    users, [(thread, game_id), _] = await two_games(emulator, harness)
    session = await session_of(harness, game_id)
    actor, seat = users[session.to_act], session.to_act
    clock.advance(hours=80)
    move = session.game.legal_moves(session.state)[0]
    told = await harness.slash(actor, thread, "pyramid play", move=move, game=game_id)
    assert "time bank ran out" in told.text and "✅" not in told.text
    assert (await session_of(harness, game_id)).seat(seat).is_ai
    assert f"timeout:{game_id}:ai" not in await harness.bot.client.host.reminders.sweep()
