"""Announcements survive trouble: the durable outbox, retries, closed DMs, parked games.

Each test breaks something the way Discord or a server admin would (a deleted
thread, a denied permission, a locked thread, a rate limit that outlasts
discord.py's own retries, closed DMs) and checks that no move is lost or shown
twice, that the game does not stall, and that the players are told the truth.
"""

from __future__ import annotations

from typing import Any

from emulator.harness import Harness
from tests.bot.clock import FakeClock
from tests.bot.e2e.driver import (
    HEADER,
    boards,
    flaming_game_of,
    latest_game_id,
    session_of,
    start_flaming,
    versions,
)

#: Editing a message (taking a superseded board's buttons off, as the bot no longer does).
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


async def move_without_a_click(harness: Harness, game_id: int) -> None:
    """The seat to act moves through the session service (as an AI or a timeout would), then it is announced."""
    session = await session_of(harness, game_id)
    seat = session.to_act
    assert seat is not None
    await harness.bot.services.sessions.make_move(
        game_id, session.game.legal_moves(session.state)[0], user_id=None, seat=seat
    )
    await harness.bot.client.host.delivery.announce(game_id)
    await harness.settle()


async def test_the_reminder_sweep_survives_broken_games_and_parks_them(
    emulator: Any, harness: Harness, clock: FakeClock
) -> None:
    ana, ben, cy, dee, eve, fay, gus, hal = [await harness.add_user(n) for n in
                                             ("ana", "ben", "cy", "dee", "eve", "fay", "gus", "hal")]
    await harness.start_bot()
    gone_thread, gone = await start_flaming(emulator, harness, [ana, ben])
    damaged_thread, damaged = await start_flaming(emulator, harness, [cy, dee])
    other = await harness.add_guild("Second Server", members=[gus, hal])
    odd_settings_thread, odd_settings = await start_flaming(
        emulator, harness, [gus, hal], channel=harness.channel("general", guild=other)
    )
    healthy_thread, healthy = await start_flaming(emulator, harness, [eve, fay])
    store = harness.bot.services.store
    # A thread a moderator deleted; a move log damaged on disk; settings written by hand with an absurd timeout.
    await harness.delete_thread(gone_thread)
    async with store.db.transaction() as conn:
        await conn.execute(
            "INSERT INTO moves (game_id, seq, seat, move, actor_id, created_at) VALUES (?, 1, 0, 'fly away', NULL, ?)",
            (damaged, store.db.now()),
        )
        await conn.execute("DELETE FROM snapshots WHERE game_id = ?", (damaged,))
        await conn.execute("INSERT INTO guild_settings (guild_id, timeout_hours) VALUES (?, 1e308)", (other.id,))
    harness.bot.services.sessions.forget(damaged)

    clock.advance(hours=25)
    done = await harness.bot.client.host.reminders.sweep()
    await harness.settle()

    assert f"reminder:{healthy}" in done, "one broken game must not stop the others' reminders"
    assert f"reminder:{odd_settings}" in done, "damaged settings fall back to the bot's own periods"
    assert "it's your turn" in harness.messages(healthy_thread)[-1].text
    assert await store.parked_reason(gone) is not None
    assert await store.parked_reason(damaged) is not None
    assert await store.parked_reason(healthy) is None and await store.parked_reason(odd_settings) is None
    # The players of a parked game are told, where they can read it: the thread is gone, so its channel.
    told_gone = [m for m in harness.messages(emulator.general) if f"#{gone}" in m.text and "paused" in m.text]
    told_damaged = [m for m in harness.messages(damaged_thread) if "paused" in m.text]
    assert len(told_gone) == 1 and f"<@{ana.id}>" in told_gone[0].text
    assert len(told_damaged) == 1 and f"<@{cy.id}>" in told_damaged[0].text

    clock.advance(hours=60)  # past the timeout: parked games are left alone, the others go on
    done = await harness.bot.client.host.reminders.sweep()
    await harness.settle()
    assert not [d for d in done if d.endswith(f":{gone}") or f":{gone}:" in d or f":{damaged}" in d]
    assert f"timeout:{healthy}:ai" in done
    assert len([m for m in harness.messages(damaged_thread) if "paused" in m.text]) == 1
    assert len(boards(harness, odd_settings_thread)) >= 1


async def test_a_refused_board_neither_stalls_the_ai_nor_misleads_the_mover(
    emulator: Any, harness: Harness, clock: FakeClock
) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    thread, game_id = await start_flaming(emulator, harness, [ana], ai="easy")
    await harness.settle()
    session = await session_of(harness, game_id)
    assert session.to_act == 0
    shown = len(boards(harness, thread))

    # An admin takes away the bot's right to post in threads: boards are refused with 50013 Missing Permissions.
    await harness.set_bot_permission(emulator.general, "send_messages_in_threads", False)
    # Typed in another channel: the board can't come as the command's follow-up, so it is posted (and refused).
    res = await harness.slash(ana, emulator.general, "pyramid play", move=session.game.legal_moves(session.state)[0],
                              game=game_id)
    said = " ".join(m.text for m in res.messages)
    assert "✅" in said and "nothing was changed" not in said, said
    # The AI is to act: this move's board is folded into the next card (after the AI's move), which is the
    # one refused; the mover is promised nothing (the blocked notice tells whoever can fix it).
    await harness.settle()
    store = harness.bot.services.store
    assert await store.move_count(game_id) >= 2, "the AI must play on although no board could be posted"
    assert len(boards(harness, thread)) == shown
    backlog = await harness.bot.services.outbox.backlog()
    assert backlog.blocked >= 1 and backlog.pending >= 1
    [blocked] = [i for i in await harness.bot.services.outbox.pending(game_id) if i.blocked is not None]
    assert blocked.blocked == "missing_permissions" and blocked.attempts == 1

    # Kept, and looked at again every few minutes on the bot's clock while the cause lasts: the
    # board of the latest move is the one still waiting (the earlier ones' stories go into it).
    clock.advance(minutes=4)
    assert await harness.bot.client.host.delivery.deliver_due() == 0
    assert (await harness.bot.services.outbox.pending(game_id, kind="board"))[0].id == blocked.id
    clock.advance(minutes=2)
    await harness.bot.client.host.delivery.deliver_due()
    waiting = await harness.bot.services.outbox.pending(game_id, kind="board")
    assert [i.version for i in waiting] == [await store.move_count(game_id)]
    assert waiting[0].blocked == "missing_permissions" and waiting[0].last_error

    # The admin gives the permission back: the bot is told (CHANNEL_UPDATE) and the board follows at once.
    await harness.set_bot_permission(emulator.general, "send_messages_in_threads", None)
    await harness.settle()
    fresh = boards(harness, thread)[shown:]
    now = await store.move_count(game_id)
    assert [HEADER.search(b.text).group(2) for b in fresh] == [str(now)]  # type: ignore[union-attr]
    assert "🤖" in fresh[0].text, "the board tells the story of the moves it missed, the AI's too"
    assert (await harness.bot.services.outbox.backlog()).pending == 0


async def test_a_final_move_written_but_never_announced_is_shown_after_a_restart(
    emulator: Any, harness: Harness
) -> None:
    _, thread, game_id = await flaming_game_of(emulator, harness, "ana", "ben", turn_limit=1)
    session = await session_of(harness, game_id)
    seat = session.to_act
    assert seat is not None
    # The game's last move is written, and the bot dies before announcing it.
    outcome = await harness.bot.services.sessions.make_move(
        game_id, session.game.legal_moves(session.state)[0], user_id=None, seat=seat
    )
    assert outcome.result is not None
    await harness.restart_bot()
    await harness.settle()
    assert versions(harness, thread) == [0, 1]
    assert "Game over" in boards(harness, thread)[-1].text
    # The superseded board keeps its buttons (a click there is told the board moved on): no edit spent on it.
    assert boards(harness, thread)[0].buttons() and not emulator.requests_to(EDIT)


async def test_a_board_post_that_keeps_failing_is_retried_with_backoff(
    emulator: Any, harness: Harness, clock: FakeClock
) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    await harness.slash(ana, emulator.general, "pyramid new", game="continuous-pyramid")  # solo: a board, no DMs
    thread, game_id = harness.threads(emulator.general)[-1], await latest_game_id(harness)
    session = await session_of(harness, game_id)
    # Five 429s in a row: more than discord.py retries by itself.
    emulator.rate_limit("POST /channels/{channel_id}/messages", count=5, retry_after=0.01)
    # Typed in another channel: the board can't come as the command's follow-up, so it is posted (and refused).
    res = await harness.slash(ana, emulator.general, "pyramid play", move=session.game.legal_moves(session.state)[0],
                              game=game_id)
    said = " ".join(m.text for m in res.messages)
    assert "✅" in said and "board will follow" in said
    await harness.settle()
    assert versions(harness, thread) == [0]
    [waiting] = [i for i in await harness.bot.services.outbox.pending(game_id) if i.kind == "board"]
    assert waiting.attempts == 1 and waiting.last_error and "429" in waiting.last_error
    clock.advance(seconds=1)
    assert await harness.bot.client.host.delivery.deliver_due() == 0, "not due yet: it backs off"
    clock.advance(seconds=5)
    await harness.bot.client.host.delivery.deliver_due()
    await harness.settle()
    assert versions(harness, thread) == [0, 1]
    assert (await harness.bot.services.outbox.backlog()).pending == 0


async def test_a_board_for_a_locked_thread_follows_when_it_reopens(emulator: Any, harness: Harness) -> None:
    _, thread, game_id = await flaming_game_of(emulator, harness, "ana", "ben")
    # A moderator locks the thread, and the bot may not manage threads here: it cannot post there.
    await harness.set_bot_permission(emulator.general, "manage_threads", False)
    await harness.set_thread_state(thread, locked=True)
    await move_without_a_click(harness, game_id)
    await move_without_a_click(harness, game_id)
    assert versions(harness, thread) == [0]
    boards_pending = [i for i in await harness.bot.services.outbox.pending(game_id) if i.kind == "board"]
    assert [i.version for i in boards_pending] == [1, 2]
    assert boards_pending[0].blocked == "thread_locked", "the first waits for the thread; the next waits behind it"
    await harness.set_thread_state(thread, locked=False)
    await harness.settle()
    assert versions(harness, thread) == [0, 2], "one board for the latest move, not one per missed move"
    assert (await harness.bot.services.outbox.backlog()).pending == 0
    assert not emulator.requests_to(EDIT), "old boards keep their buttons: no edits"


async def test_closed_dms_are_tried_again_after_the_player_interacts_or_a_day_later(
    emulator: Any, harness: Harness, clock: FakeClock
) -> None:
    (ana, _), thread, game_id = await flaming_game_of(emulator, harness, "ana", "ben", closed_dms={"ana"})
    await move_without_a_click(harness, game_id)  # in a two-player game ana's hand is due after every move

    def notices() -> int:
        return len([m for m in harness.messages(thread) if "can't send you direct messages" in m.text])

    assert notices() == 1 and harness.dm(ana) == []
    ana.dms_open = True  # she opens her DMs...
    await move_without_a_click(harness, game_id)
    assert harness.dm(ana) == [], "... but the bot does not know yet"
    await harness.slash(ana, thread, "pyramid status")  # her next interaction with the bot
    await move_without_a_click(harness, game_id)
    assert len(harness.dm(ana)) == 1, "after she used the bot, her DMs are tried again"

    ana.dms_open = False
    await move_without_a_click(harness, game_id)
    ana.dms_open = True
    await move_without_a_click(harness, game_id)
    dms = len(harness.dm(ana))
    clock.advance(hours=25)
    await move_without_a_click(harness, game_id)
    assert len(harness.dm(ana)) == dms + 1, "a day later the bot tries her DMs again by itself"
    assert notices() == 2, "told again only because her DMs closed again after being open"


async def test_a_board_is_never_posted_from_an_older_copy_of_the_game(emulator: Any, harness: Harness) -> None:
    """A delivery pass reads the game once; a move made meanwhile queues rows newer than that copy.
    Posting one of them from the old copy would show an old move under the new row's nonce: a board twice."""
    _, thread, game_id = await flaming_game_of(emulator, harness, "ana", "ben")
    before = await session_of(harness, game_id)
    await harness.bot.services.sessions.make_move(
        game_id, before.game.legal_moves(before.state)[0], user_id=None, seat=before.to_act
    )
    [row] = await harness.bot.services.outbox.pending(game_id, kind="board")
    await harness.bot.client.host.announcer.deliver_board(row, later=False, session=before)
    await harness.settle()
    assert versions(harness, thread) == [0, 1]
