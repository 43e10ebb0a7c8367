"""The bot on a real server (issue #15): permissions taken away halfway through a
game, threads that archive, get locked or deleted while a game lasts for days.

Each test breaks something the way a server (or Discord itself) would and checks
that the game goes on, that someone who can fix it is told once, and that every
move is shown in the end.
"""

from __future__ import annotations

from typing import Any

from emulator.harness import Harness
from emulator.model import Channel, User
from tests.bot.clock import FakeClock
from tests.bot.e2e.driver import boards, flaming_game_of, session_of, versions


async def play_one(harness: Harness, emulator: Any, game_id: int, users: dict[int, User]) -> str:
    """The player to act moves with /pyramid play from the game's channel (slash
    commands are unavailable in an archived thread); returns what they were told."""
    session = await session_of(harness, game_id)
    user = users[session.to_act]
    move = session.game.legal_moves(session.state)[0]
    res = await harness.slash(user, emulator.general, "pyramid play", move=move, game=game_id)
    await harness.settle()
    return " ".join(m.text for m in res.messages)


def notices_to(harness: Harness, user: User, game_id: int) -> list[str]:
    return [m.text for m in harness.dm(user) if f"Game #{game_id}" in m.text and "can't be posted" in m.text]


async def test_a_revoked_permission_is_reported_once_and_the_missed_boards_follow(
    emulator: Any, harness: Harness, clock: FakeClock
) -> None:
    (ana, ben), thread, game_id = await flaming_game_of(emulator, harness, "ana", "ben")
    users = {0: ana, 1: ben}
    assert versions(harness, thread) == [0]

    # An admin takes Attach Files away from the bot in the game's channel, mid-game.
    await harness.set_bot_permission(emulator.general, "attach_files", False)
    acknowledged = 0
    said = await play_one(harness, emulator, game_id, users)
    assert "✅" in said and "nothing was changed" not in said, said
    assert "board will follow" in said, "the mover is told the truth: the move counts, the board comes later"
    acknowledged += 1
    for _ in range(3):  # two hours pass, the bot retries every few minutes, the players play on
        clock.advance(minutes=40)
        await harness.advance(minutes=40)
        await harness.bot.client.host.delivery.deliver_due()
        await harness.settle()
        said = await play_one(harness, emulator, game_id, users)
        assert "✅" in said, said
        acknowledged += 1
    assert versions(harness, thread) == [0], "no board could be posted"

    told = notices_to(harness, ana, game_id)
    assert len(told) == 1, [m.text for m in harness.dm(ana)]
    assert "Attach Files" in told[0] and f"<#{thread.id}>" in told[0] and "goes on" in told[0]
    assert notices_to(harness, ben, game_id) == [], "only the game's opener is told"

    # A restart does not repeat the notice.
    await harness.restart_bot()
    await harness.settle()
    clock.advance(minutes=10)
    await harness.bot.client.host.delivery.deliver_due()
    await harness.settle()
    assert len(notices_to(harness, ana, game_id)) == 1

    # The admin gives the permission back: the missed board follows at once, telling the whole story.
    await harness.set_bot_permission(emulator.general, "attach_files", None)
    await harness.settle()
    moves = await harness.bot.services.store.move_count(game_id)
    assert moves == acknowledged, "no move lost"
    shown = versions(harness, thread)
    # (After the restart a pending board counts as possibly sent, so the last one before it may come too.)
    assert shown[0] == 0 and shown[-1] == moves and shown == sorted(set(shown)), shown
    assert boards(harness, thread)[0].buttons(), "old boards keep their buttons (a click there is told so)"
    assert (await harness.bot.services.outbox.backlog()).pending == 0
    assert len(notices_to(harness, ana, game_id)) == 1
    assert not await harness.bot.services.outbox.pending(game_id)


async def test_the_opener_with_closed_dms_is_told_in_the_channel(
    emulator: Any, harness: Harness, clock: FakeClock
) -> None:
    (ana, ben), thread, game_id = await flaming_game_of(emulator, harness, "ana", "ben", closed_dms={"ana"})
    await harness.set_bot_permission(thread_parent(emulator), "send_messages_in_threads", False)
    await play_one(harness, emulator, game_id, {0: ana, 1: ben})
    clock.advance(minutes=10)
    await harness.bot.client.host.delivery.deliver_due()
    await harness.settle()
    told = [m for m in harness.messages(emulator.general) if f"Game #{game_id}" in m.text and "can't be posted"
            in m.text]
    assert len(told) == 1 and f"<@{ana.id}>" in told[0].text
    assert "Send Messages in Threads" in told[0].text
    await harness.set_bot_permission(emulator.general, "send_messages_in_threads", None)
    await harness.settle()
    assert versions(harness, thread)[-1] == await harness.bot.services.store.move_count(game_id)


async def test_a_game_lasting_weeks_outlives_its_thread_archiving(
    emulator: Any, harness: Harness, clock: FakeClock
) -> None:
    (ana, ben), thread, game_id = await flaming_game_of(emulator, harness, "ana", "ben")
    users = {0: ana, 1: ben}
    # A bank longer than the idle week below: the clock refuses a move made after the bank ran out (#37).
    set_bank = await harness.slash(ana, emulator.general, "pyramid-admin settings", timeout_hours=240)
    assert "240" in set_bank.text, set_bank.text
    assert thread.auto_archive_duration == 10080, "threads are opened with the longest auto-archive Discord allows"
    archived_times = 0
    for day in range(1, 9):  # a move a day for eight days, the thread archiving when idle for a week
        clock.advance(days=1 if day < 8 else 8)
        archived = await harness.advance(days=1 if day < 8 else 8)
        archived_times += thread in archived or any(c.id == thread.id for c in archived)
        session = await session_of(harness, game_id)
        if session.over:
            break
        said = await play_one(harness, emulator, game_id, users)
        assert "✅" in said and "board will follow" not in said, said
        moves = await harness.bot.services.store.move_count(game_id)
        assert versions(harness, thread)[-1] == moves, f"day {day}: the board of move {moves} is shown"
        assert boards(harness, thread)[-1].buttons(), "the latest board has its buttons (old ones keep theirs)"
    assert archived_times >= 1, "the thread auto-archived at least once"
    assert (await harness.bot.services.outbox.backlog()).pending == 0


async def test_a_board_posted_into_an_archived_thread_reopens_it(emulator: Any, harness: Harness) -> None:
    (ana, ben), thread, game_id = await flaming_game_of(emulator, harness, "ana", "ben")
    await harness.set_thread_state(thread, archived=True)
    said = await play_one(harness, emulator, game_id, {0: ana, 1: ben})
    assert "board will follow" not in said, said
    assert versions(harness, thread) == [0, 1]
    assert (await harness.bot.services.outbox.backlog()).pending == 0


async def test_a_board_for_an_archived_thread_the_bot_cannot_reopen_waits(
    emulator: Any, harness: Harness
) -> None:
    (ana, ben), thread, game_id = await flaming_game_of(emulator, harness, "ana", "ben")
    await harness.set_thread_state(thread, archived=True)
    await harness.set_bot_permission(emulator.general, "send_messages_in_threads", False)
    said = await play_one(harness, emulator, game_id, {0: ana, 1: ben})
    assert "✅" in said and "board will follow" in said, said
    pending = [i for i in await harness.bot.services.outbox.pending(game_id) if i.kind == "board"]
    assert len(pending) == 1 and pending[0].blocked is not None, "blocked, not lost"
    await harness.set_bot_permission(emulator.general, "send_messages_in_threads", None)
    await harness.settle()
    assert versions(harness, thread) == [0, 1]
    assert (await harness.bot.services.outbox.backlog()).pending == 0


async def test_a_deleted_thread_is_replaced_and_the_game_goes_on(emulator: Any, harness: Harness) -> None:
    (ana, ben), thread, game_id = await flaming_game_of(emulator, harness, "ana", "ben")
    await harness.delete_thread(thread)
    await play_one(harness, emulator, game_id, {0: ana, 1: ben})
    await harness.settle()
    record = await harness.bot.services.store.game_record(game_id)
    assert record is not None and record.thread_id not in (None, thread.id)
    new = harness.threads(emulator.general)[-1]
    assert new.id == record.thread_id
    assert versions(harness, new) == [1], "the next move's board appears in the new thread"
    links = [m for m in harness.messages(emulator.general) if f"<#{new.id}>" in m.text]
    assert len(links) == 1 and f"<@{ana.id}>" in links[0].text and f"<@{ben.id}>" in links[0].text
    said = await play_one(harness, emulator, game_id, {0: ana, 1: ben})
    assert "board will follow" not in said
    assert versions(harness, new) == [1, 2]
    assert (await harness.bot.services.outbox.backlog()).pending == 0


async def test_a_thread_locked_for_good_is_replaced(emulator: Any, harness: Harness, clock: FakeClock) -> None:
    (ana, ben), thread, game_id = await flaming_game_of(emulator, harness, "ana", "ben")
    await harness.set_bot_permission(emulator.general, "manage_threads", False)
    await harness.set_thread_state(thread, locked=True)
    await play_one(harness, emulator, game_id, {0: ana, 1: ben})
    assert versions(harness, thread) == [0]
    record = await harness.bot.services.store.game_record(game_id)
    assert record is not None and record.thread_id == thread.id, "a moderator may lock it for a moment: wait"
    clock.advance(hours=2)
    await harness.advance(hours=2)
    await harness.bot.client.host.delivery.deliver_due()
    await harness.settle()
    record = await harness.bot.services.store.game_record(game_id)
    assert record is not None and record.thread_id not in (None, thread.id)
    new = harness.threads(emulator.general)[-1]
    assert versions(harness, new) == [1]
    assert [m for m in harness.messages(emulator.general) if f"<#{new.id}>" in m.text]
    assert (await harness.bot.services.outbox.backlog()).pending == 0


def thread_parent(emulator: Any) -> Channel:
    return emulator.general  # type: ignore[no-any-return]

