"""A private game never leaves private places, whatever rescues it (issue #37).

A challenge's game is played in a private thread of its entrant's: its boards tell the
face-down stock others are about to meet. When that thread is deleted, the game goes on
in a new *private* thread with its player in it, or, where none can be opened, in the
player's DMs; never in a public thread or the channel, and the channel is told nothing
(no link, no mention)."""

from __future__ import annotations

from typing import Any

from emulator.harness import Harness
from emulator.model import Channel, User
from tests.bot.clock import FakeClock
from tests.bot.e2e.driver import session_of, versions
from tests.bot.e2e.test_daily_privacy import first_move

PRIVATE_THREAD = 12
ADMINISTRATOR, MANAGE_THREADS = 1 << 3, 1 << 34
#: A member as most are: no admin, no Manage Threads (who sees every private thread).
MEMBER = (1 << 40) - 1 - ADMINISTRATOR - MANAGE_THREADS


async def entrant_game(emulator: Any, harness: Harness) -> tuple[User, User, Any, Channel]:
    """Ana and Ben enter a challenge; ana's game, and its private thread."""
    ana, ben = await harness.add_user("ana", permissions=MEMBER), await harness.add_user("ben", permissions=MEMBER)
    await harness.start_bot()
    post = (await harness.slash(ana, emulator.general, "pyramid new", game="continuous-pyramid",
                                challenge=True)).message
    assert post is not None
    for user in (ana, ben):
        await harness.click(user, post, label="▶ Play this deal")
    store = harness.bot.services.store
    games = {(await store.seats(g.id))[0].user_id: g for g in await store.all_games() if g.challenge_id}
    record = games[ana.id]
    thread = harness.world.channels[record.thread_id]
    assert thread.type == PRIVATE_THREAD
    return ana, ben, record, thread


async def move_from_dm(harness: Harness, ana: User, game_id: int) -> None:
    move = await first_move(harness, game_id)
    said = await harness.slash(ana, harness.dm_channel(ana), "pyramid play", move=move, game=game_id)
    assert "✅" in said.text, said.text
    await harness.settle()


def public_words_about(harness: Harness, channel: Channel, ana: User, game_id: int, since: int) -> list[str]:
    return [m.text for m in harness.messages(channel)[since:]
            if f"<@{ana.id}>" in m.text or f"#{game_id}" in m.text]


async def test_a_deleted_private_thread_is_replaced_by_a_private_one(emulator: Any, harness: Harness) -> None:
    ana, ben, record, thread = await entrant_game(emulator, harness)
    general = emulator.general
    said_before = len(harness.messages(general))
    await harness.delete_thread(thread)
    await move_from_dm(harness, ana, record.id)

    fresh = await harness.bot.services.store.game_record(record.id)
    assert fresh is not None and fresh.thread_id not in (None, thread.id)
    new = harness.world.channels[fresh.thread_id]
    assert new.type == PRIVATE_THREAD, "a private game's new place is private"
    assert harness.world.can_see(ana, harness.messages(new)[-1]) and not any(
        harness.world.can_see(ben, m) for m in harness.messages(new)), "its player is in it, a rival is not"
    assert versions(harness, new) == [1]
    assert public_words_about(harness, general, ana, record.id, said_before) == [], "the channel is told nothing"
    assert (await session_of(harness, record.id)).version == 1
    harness.assert_no_bot_errors()


async def test_without_private_threads_the_game_goes_on_in_the_players_dms(emulator: Any, harness: Harness) -> None:
    ana, _ben, record, thread = await entrant_game(emulator, harness)
    general = emulator.general
    said_before = len(harness.messages(general))
    await harness.set_bot_permission(general, "create_private_threads", False)
    await harness.delete_thread(thread)
    await move_from_dm(harness, ana, record.id)

    fresh = await harness.bot.services.store.game_record(record.id)
    assert fresh is not None and fresh.thread_id == harness.dm_channel(ana).id, "the game moved to ana's DMs"
    assert versions(harness, harness.dm_channel(ana))[-1:] == [1], "its next board is in ana's DMs"
    assert all(t.type == PRIVATE_THREAD for t in harness.threads(general)), "no public thread was opened"
    assert public_words_about(harness, general, ana, record.id, said_before) == [], "the channel is told nothing"
    # Its board's buttons work there, for its player.
    board = [m for m in harness.dm(ana) if m.png_attachments() and f"game #{record.id}" in m.text][-1]
    latest = await harness.click(ana, board, label="🔄 Latest board")
    assert latest.attachments or any(m.png_attachments() for m in latest.messages), latest.text
    harness.assert_no_bot_errors()


async def test_a_private_game_parked_for_its_lost_thread_is_told_privately(
    emulator: Any, harness: Harness, clock: FakeClock
) -> None:
    ana, _ben, record, thread = await entrant_game(emulator, harness)
    general = emulator.general
    said_before = len(harness.messages(general))
    await harness.delete_thread(thread)
    clock.advance(hours=25)
    await harness.bot.client.host.reminders.sweep()
    await harness.settle()
    store = harness.bot.services.store
    assert await store.parked_reason(record.id) is not None
    assert [m for m in harness.dm(ana) if f"#{record.id}" in m.text and "paused" in m.text], "told by DM"
    assert public_words_about(harness, general, ana, record.id, said_before) == [], "the channel is told nothing"
    harness.assert_no_bot_errors()


async def test_a_blocked_private_board_is_never_reported_in_the_public_channel(emulator: Any, harness: Harness) -> None:
    """The bot may not post in the private thread, and its player takes no DMs: the notice waits for a DM
    (tried again at the next refusal), and is never posted in the public channel."""
    ana = await harness.add_user("ana", permissions=MEMBER, dms_open=False)
    await harness.start_bot()
    general = emulator.general
    post = (await harness.slash(ana, general, "pyramid new", game="continuous-pyramid", challenge=True)).message
    assert post is not None
    await harness.click(ana, post, label="▶ Play this deal")
    record = next(g for g in await harness.bot.services.store.all_games() if g.challenge_id)
    said_before = len(harness.messages(general))
    await harness.set_bot_permission(general, "send_messages_in_threads", False)
    await move_from_dm(harness, ana, record.id)
    assert public_words_about(harness, general, ana, record.id, said_before) == [], "the channel is told nothing"
    harness.assert_no_bot_errors()
