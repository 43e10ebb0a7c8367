"""Notifications through the emulator (issue #39): each setting of ``/pyramid notify``, the flood cap
(twenty turns in one minute), muting, the reminder interval with its 🔕 button, the heads-up, and the
daily digest across servers (another's private game never in it; quiet hours on the digest hour).

A player is "buzzed" by a message that pings them (Discord's ``pinged``: a mention let through by
``allowed_mentions``, not @silent) or by a DM that is not @silent."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from emulator.harness import Harness
from emulator.limits import SUPPRESS_NOTIFICATIONS
from emulator.model import Channel, Message, User
from tests.bot.clock import FakeClock
from tests.bot.e2e.driver import boards, card_text, session_of, start_flaming


def buzzes(harness: Harness, user: User) -> list[Message]:
    """Every message that buzzed ``user``, oldest first."""
    dm = harness.world.dm_channel(user, create=False)
    found = []
    for message in harness.world.messages.values():
        if message.deleted or message.ephemeral or message.author.id == user.id:
            continue
        if user.id in message.pinged or (dm is not None and message.channel_id == dm.id
                                         and not message.flags & SUPPRESS_NOTIFICATIONS):
            found.append(message)
    return sorted(found, key=lambda m: m.id)


def text_of(message: Message) -> str:
    return card_text(message)


async def turn_to(harness: Harness, game_id: int, users: dict[int, User], channel: Channel, wanted: User) -> None:
    """Play the first suggested moves until it is ``wanted``'s turn."""
    for _ in range(60):
        session = await session_of(harness, game_id)
        actor = users[session.to_act]
        if actor.id == wanted.id:
            return
        choices = await harness.autocomplete(actor, channel, "pyramid play", "move", "", game=game_id)
        answer = await harness.slash(actor, channel, "pyramid play", move=choices[0]["value"], game=game_id)
        assert "✅" in answer.text, answer.text
        await harness.settle()
    raise AssertionError("the turn never came")


async def fresh_turn(harness: Harness, game_id: int, users: dict[int, User], channel: Channel, wanted: User) -> None:
    """A new turn of ``wanted``'s: if it is theirs already, they play it first."""
    if users[(await session_of(harness, game_id)).to_act].id == wanted.id:
        await pass_turn(harness, game_id, users, channel)
    await turn_to(harness, game_id, users, channel, wanted)


async def pass_turn(harness: Harness, game_id: int, users: dict[int, User], channel: Channel) -> None:
    """The player to act plays until the turn is someone else's."""
    actor = users[(await session_of(harness, game_id)).to_act]
    for _ in range(60):
        session = await session_of(harness, game_id)
        if users[session.to_act].id != actor.id:
            return
        choices = await harness.autocomplete(actor, channel, "pyramid play", "move", "", game=game_id)
        answer = await harness.slash(actor, channel, "pyramid play", move=choices[0]["value"], game=game_id)
        assert "✅" in answer.text, answer.text
        await harness.settle()
    raise AssertionError("the turn never passed")


async def two_player_game(emulator: Any, harness: Harness, *, channel: Channel | None = None,
                          players: tuple[User, User] | None = None) -> tuple[dict[int, User], Channel, int]:
    alice, bob = players or (await harness.add_user("alice"), await harness.add_user("bob"))
    if not harness.bots:
        await harness.start_bot()
    thread, game_id = await start_flaming(emulator, harness, [alice, bob], channel=channel)
    session = await session_of(harness, game_id)
    users = {s.seat: (alice if s.user_id == alice.id else bob) for s in session.seats}
    return users, thread, game_id


def gate(harness: Harness) -> Any:
    """The notification sweep (batches, digests), which the bot runs every half minute."""
    return harness.bot.client.notify_sweep


async def test_how_moves_the_ping_between_board_dm_and_digest(emulator: Any, harness: Harness,
                                                               clock: FakeClock) -> None:
    users, thread, game_id = await two_player_game(emulator, harness)
    bob = next(u for u in users.values() if u.username == "bob")
    shown = await harness.slash(bob, thread, "pyramid notify")
    assert shown.ephemeral and "a ping on the board and a DM" in shown.text and "6 pings an hour" in shown.text
    set_dm = await harness.slash(bob, thread, "pyramid notify", how="dm")
    assert "Saved" in set_dm.text and "Your turn: a DM." in set_dm.text
    clock.advance(minutes=5)
    before = len(buzzes(harness, bob))
    await fresh_turn(harness, game_id, users, thread, bob)
    new = buzzes(harness, bob)[before:]
    assert len(new) == 1 and new[0].channel_id == harness.dm_channel(bob).id  # the hand DM, not the board
    assert f"<@{bob.id}>" in text_of(boards(harness, thread)[-1]) and boards(harness, thread)[-1].pinged == set()

    await harness.slash(bob, thread, "pyramid notify", how="board")
    clock.advance(minutes=5)
    before = len(buzzes(harness, bob))
    await fresh_turn(harness, game_id, users, thread, bob)
    new = buzzes(harness, bob)[before:]
    assert len(new) == 1 and new[0].channel_id == thread.id and bob.id in new[0].pinged

    await harness.slash(bob, thread, "pyramid notify", how="digest")
    clock.advance(minutes=5)
    before = len(buzzes(harness, bob))
    await fresh_turn(harness, game_id, users, thread, bob)
    assert buzzes(harness, bob)[before:] == []  # the digest tells them; the clock runs all the same
    clock.advance(hours=80)
    assert f"timeout:{game_id}:ai" in await harness.bot.client.host.reminders.sweep()
    harness.assert_no_bot_errors()


async def test_twenty_turns_in_one_minute_buzz_once_then_one_message(emulator: Any, harness: Harness,
                                                                     clock: FakeClock) -> None:
    alice, bob = await harness.add_user("alice"), await harness.add_user("bob")
    await harness.start_bot()
    await harness.slash(bob, emulator.general, "pyramid notify", how="dm")
    await harness.slash(alice, emulator.general, "pyramid-admin settings", max_open_games=25)
    games = []
    for i in range(20):
        room = await harness.add_channel(f"room-{i}")
        users, thread, game_id = await two_player_game(emulator, harness, players=(alice, bob), channel=room)
        games.append((users, thread, game_id))
    clock.advance(minutes=10)  # the starts' pings are old news: now all twenty turns come within one minute
    await gate(harness).sweep()  # (the sweep that ran meanwhile sent the starts' batch)
    clock.advance(minutes=2)
    before = len(buzzes(harness, bob))
    for users, thread, game_id in games:
        await fresh_turn(harness, game_id, users, thread, bob)  # bob's turn already: he plays, it comes back
    in_the_minute = buzzes(harness, bob)[before:]
    assert len(in_the_minute) == 1  # the first turn's hand DM; the other nineteen wait for the minute's end
    assert await gate(harness).sweep() == []  # still the same minute
    clock.advance(minutes=1, seconds=1)
    assert await gate(harness).sweep() == [f"batch:{bob.id}"]
    batch = buzzes(harness, bob)[before + 1:]
    assert len(batch) == 1 and batch[0].channel_id == harness.dm_channel(bob).id
    told = text_of(batch[0])
    assert sum(bool(re.search(rf"#{g}\b", told)) for _u, _t, g in games) == 19
    assert await gate(harness).sweep() == []  # told once
    harness.assert_no_bot_errors()


async def test_a_muted_game_never_buzzes_and_its_clock_runs(emulator: Any, harness: Harness,
                                                            clock: FakeClock) -> None:
    users, thread, game_id = await two_player_game(emulator, harness)
    bob = next(u for u in users.values() if u.username == "bob")
    refused = await harness.slash(bob, thread, "pyramid notify", mute=True)
    assert "Name the game to mute" in refused.text
    muted = await harness.slash(bob, thread, "pyramid notify", game=game_id, mute=True)
    assert f"game #{game_id}" in muted.text and "Muted" in muted.text
    clock.advance(minutes=5)
    before = len(buzzes(harness, bob))
    await fresh_turn(harness, game_id, users, thread, bob)
    assert buzzes(harness, bob)[before:] == []
    clock.advance(hours=24)  # the clock's low-bank reminder comes, silently
    assert f"reminder:{game_id}" in await harness.bot.client.host.reminders.sweep()
    assert buzzes(harness, bob)[before:] == []
    clock.advance(hours=48)
    assert f"timeout:{game_id}:ai" in await harness.bot.client.host.reminders.sweep()
    harness.assert_no_bot_errors()


async def test_reminders_every_interval_up_to_the_cap_and_the_button_stops_them(
        emulator: Any, harness: Harness, clock: FakeClock) -> None:
    users, thread, game_id = await two_player_game(emulator, harness)
    bob = next(u for u in users.values() if u.username == "bob")
    alice = next(u for u in users.values() if u.username == "alice")
    await harness.slash(bob, thread, "pyramid notify", every=4, cap=2)
    await turn_to(harness, game_id, users, thread, bob)
    sweep = harness.bot.client.host.reminders.sweep
    clock.advance(hours=3, minutes=59)
    assert await sweep() == []
    clock.advance(minutes=1)
    assert await sweep() == [f"repeat:{game_id}"]
    first = [m for m in harness.messages(thread) if "still your turn" in text_of(m)]
    assert len(first) == 1 and bob.id in first[0].pinged and "(1 of 2)" in text_of(first[0])
    clock.advance(hours=4)
    assert await sweep() == [f"repeat:{game_id}"]
    clock.advance(hours=4)
    assert await sweep() == []  # the cap: two a turn
    # The next turn: the first repeat, and 🔕 on it. Someone else's click is refused; bob's stops them.
    await fresh_turn(harness, game_id, users, thread, bob)
    clock.advance(hours=4)
    assert await sweep() == [f"repeat:{game_id}"]
    card = [m for m in harness.messages(thread) if "still your turn" in text_of(m)][-1]
    other = await harness.click(alice, card, label="🔕 No more pings this turn")
    assert "whose turn it is" in other.text
    stopped = await harness.click(bob, card, label="🔕 No more pings this turn")
    assert stopped.ephemeral and "No more reminders this turn" in stopped.text
    clock.advance(hours=4)
    assert await sweep() == []
    harness.assert_no_bot_errors()


async def test_heads_up_when_the_player_before_is_to_move(emulator: Any, harness: Harness, clock: FakeClock) -> None:
    alice, bob, carol = [await harness.add_user(n) for n in ("alice", "bob", "carol")]
    await harness.start_bot()
    for user in (alice, bob, carol):
        await harness.slash(user, emulator.general, "pyramid notify", heads_up=True)
    thread, game_id = await start_flaming(emulator, harness, [alice, bob, carol])
    session = await session_of(harness, game_id)
    users = {s.seat: next(u for u in (alice, bob, carol) if u.id == s.user_id) for s in session.seats}
    order = [users[n] for n in sorted(users)]
    for _ in range(3):
        clock.advance(minutes=5)
        session = await session_of(harness, game_id)
        actor = users[session.to_act]
        following = order[(order.index(actor) + 1) % 3]
        told = [m for m in harness.dm(following) if "You're next in game" in text_of(m)]
        assert told, f"{following.username} heard nothing while {actor.username} moves"
        assert not told[-1].flags & SUPPRESS_NOTIFICATIONS
        await pass_turn(harness, game_id, users, thread)
    harness.assert_no_bot_errors()


async def test_the_digest_lists_turns_across_servers_and_never_anothers_private_game(
        emulator: Any, harness: Harness, clock: FakeClock) -> None:
    clock.now = datetime(2027, 3, 1, 6, 30, tzinfo=UTC)  # 07:30 in Berlin
    alice, bob, carol = [await harness.add_user(n) for n in ("alice", "bob", "carol")]
    await harness.start_bot()
    other = await harness.add_guild("other", members=[alice, bob])
    users_a, thread_a, game_a = await two_player_game(emulator, harness, players=(alice, bob))
    users_b, thread_b, game_b = await two_player_game(emulator, harness, players=(alice, bob),
                                                      channel=harness.channel("general", guild=other))
    await turn_to(harness, game_a, users_a, thread_a, bob)
    await turn_to(harness, game_b, users_b, thread_b, bob)
    # Carol's game of a shared deal in the same server: hers alone.
    post = (await harness.slash(carol, emulator.general, "pyramid new", game="continuous-pyramid",
                                challenge=True)).message
    assert post is not None
    await harness.click(carol, post, label="▶ Play this deal")
    private = max(g.id for g in await harness.bot.services.store.all_games())
    set_up = await harness.slash(bob, emulator.general, "pyramid notify", digest=8, timezone="Europe/Berlin")
    assert "Daily digest at 08:00 (Europe/Berlin)" in set_up.text
    assert await gate(harness).sweep() == []  # 07:30 in Berlin: not yet
    clock.now = datetime(2027, 3, 1, 7, 1, tzinfo=UTC)  # 08:01 in Berlin
    assert f"digest:{bob.id}" in await gate(harness).sweep()
    digest = [m for m in harness.dm(bob) if "daily digest" in text_of(m)]
    assert len(digest) == 1
    said = text_of(digest[0])
    assert f"#{game_a}" in said and f"#{game_b}" in said and f"#{private}" not in said
    assert f"/channels/{other.id}/" in said and "left" in said
    assert await gate(harness).sweep() == []  # one a day
    clock.advance(hours=24)
    assert f"digest:{bob.id}" in await gate(harness).sweep()
    harness.assert_no_bot_errors()


async def test_quiet_hours_on_the_digest_hour_hold_it_until_they_end(emulator: Any, harness: Harness,
                                                                     clock: FakeClock) -> None:
    clock.now = datetime(2027, 3, 1, 5, 0, tzinfo=UTC)  # 06:00 in Berlin
    users, thread, game_id = await two_player_game(emulator, harness)
    bob = next(u for u in users.values() if u.username == "bob")
    await turn_to(harness, game_id, users, thread, bob)
    await harness.slash(bob, thread, "pyramid quiet", options={"from": "22:00", "to": "08:00",
                                                               "timezone": "Europe/Berlin"})
    await harness.slash(bob, thread, "pyramid notify", digest=7)  # the quiet hours' zone
    clock.now = datetime(2027, 3, 1, 6, 0, tzinfo=UTC)  # 07:00 in Berlin: the digest hour, in quiet hours
    assert await gate(harness).sweep() == []
    clock.now = datetime(2027, 3, 1, 7, 0, tzinfo=UTC)  # 08:00: they end
    assert await gate(harness).sweep() == [f"digest:{bob.id}"]
    assert [m for m in harness.dm(bob) if "daily digest" in text_of(m)]
    harness.assert_no_bot_errors()


async def test_bad_settings_are_refused_in_words(emulator: Any, harness: Harness) -> None:
    users, thread, game_id = await two_player_game(emulator, harness)
    bob = next(u for u in users.values() if u.username == "bob")
    assert "covers all your games" in (await harness.slash(bob, thread, "pyramid notify", game=game_id,
                                                           digest=9)).text
    assert "don't know the time zone" in (await harness.slash(bob, thread, "pyramid notify",
                                                              timezone="Mars/Olympus")).text
    assert "no game #" in (await harness.slash(bob, thread, "pyramid notify", game=99999, mute=True)).text
    assert "Your turn: a ping on the board and a DM." in (await harness.slash(bob, thread, "pyramid notify")).text
    harness.assert_no_bot_errors()


async def test_a_digest_to_closed_dms_is_said_once_where_they_next_use_the_bot(
        emulator: Any, harness: Harness, clock: FakeClock) -> None:
    clock.now = datetime(2027, 3, 1, 9, 0, tzinfo=UTC)
    alice, bob = await harness.add_user("alice"), await harness.add_user("bob", dms_open=False)
    await harness.start_bot()
    users, thread, game_id = await two_player_game(emulator, harness, players=(alice, bob))
    await turn_to(harness, game_id, users, thread, bob)
    await harness.slash(bob, thread, "pyramid notify", digest=9)  # UTC: no zone, no quiet hours
    assert await gate(harness).sweep() == []  # due, but the DM is refused
    first = await harness.slash(bob, thread, "pyramid notify")
    said = [m for m in first.messages if "could not reach you" in text_of(m)]
    assert len(said) == 1 and said[0].ephemeral
    again = await harness.slash(bob, thread, "pyramid notify")
    assert not [m for m in again.messages if "could not reach you" in text_of(m)]  # once
    harness.assert_no_bot_errors()


async def test_the_settings_form_shows_and_saves_the_players_choices(emulator: Any, harness: Harness) -> None:
    bob = await harness.add_user("bob")
    await harness.start_bot()
    await harness.slash(bob, emulator.general, "pyramid notify", how="dm", every=8)
    shown = await harness.slash(bob, emulator.general, "pyramid settings")
    assert shown.message is not None
    opened = await harness.click(bob, shown.message, label="🔔 Notifications in a form")
    assert opened.modal is not None
    fields = {c["label"]: c["component"] for c in opened.modal["components"] if c["type"] == 18}
    assert [o["value"] for o in fields["How you learn it's your turn"]["options"] if o.get("default")] == ["dm"]
    assert [o["value"] for o in fields["Remind me again every"]["options"] if o.get("default")] == ["8"]
    ids = {label: f["custom_id"] for label, f in fields.items()}
    refused = await harness.submit_modal(bob, opened, {ids["Daily digest at (local hour)"]: "25"})
    assert "Nothing was changed" in refused.text
    assert "digest_hour" not in await harness.bot.client.gate.store.settings(bob.id)
    again = await harness.click(bob, shown.message, label="🔔 Notifications in a form")
    saved = await harness.submit_modal(bob, again, {
        ids["How you learn it's your turn"]: "board", ids["Remind me again every"]: "4",
        ids["Reminders per turn, at most"]: "5", ids["Tell me when I'm next"]: "on",
        ids["Daily digest at (local hour)"]: "7"})
    assert "Saved" in saved.text and "every 4 h" in saved.text and "at most 5 a turn" in saved.text
    assert "Daily digest at 07:00" in saved.text and "Heads-up when you're next: on" in saved.text
    harness.assert_no_bot_errors()


async def test_a_group_dm_card_says_when_reminders_cant_reach_the_player(emulator: Any, harness: Harness) -> None:
    """Where only the user install reaches, reminders go by DM; a player whose DMs are closed reads on
    the card that they can't reach them."""
    from tests.bot.e2e.test_anywhere import move_by_clicks

    world = harness.world
    ana, ben = world.add_user("ana"), world.add_user("ben", dms_open=False)
    harness.install_app(ana)
    harness.install_app(ben)
    await harness.start_bot()
    gdm = harness.add_group_dm(ana, ben)
    lobby = (await harness.slash(ana, gdm, "pyramid new", game="flaming-pyramids")).message
    assert lobby is not None
    await harness.click(ben, lobby, label="Join")
    await harness.click(ana, lobby, label="Start")
    game_id = max(g.id for g in await harness.bot.services.store.all_games())
    users = {0: ana, 1: ben}
    for _ in range(12):
        session = await session_of(harness, game_id)
        if (users[session.to_act] is ben and session.version > 0  # a card drawn since his hand DM was refused
                and await harness.bot.services.store.dm_status(ben.id) == "closed"):
            break
        await move_by_clicks(harness, users[session.to_act], harness.message(lobby.id), game_id)
    await harness.click(ana, harness.message(lobby.id), label="🔄 Latest board")
    said = card_text(harness.message(lobby.id))
    assert "reminders can't reach you here" in said
    harness.assert_no_bot_errors()


async def test_the_clocks_reminder_goes_by_dm_when_the_player_chose_dms(emulator: Any, harness: Harness,
                                                                        clock: FakeClock) -> None:
    users, thread, game_id = await two_player_game(emulator, harness)
    bob = next(u for u in users.values() if u.username == "bob")
    await harness.slash(bob, thread, "pyramid notify", how="digest")  # even the digest alone: it always comes
    await harness.slash(bob, thread, "pyramid notify", game=game_id, how="dm")  # this game: by DM
    await fresh_turn(harness, game_id, users, thread, bob)
    clock.advance(hours=23)
    await gate(harness).sweep()  # (the sweeps that ran meanwhile sent what the minute held)
    clock.advance(hours=1)
    assert f"reminder:{game_id}" in await harness.bot.client.host.reminders.sweep()
    assert not [m for m in harness.messages(thread) if "⏰" in text_of(m)]
    told = [m for m in harness.dm(bob) if "⏰" in text_of(m)]
    assert len(told) == 1 and not told[0].flags & SUPPRESS_NOTIFICATIONS and f"#{game_id}" in text_of(told[0])
    harness.assert_no_bot_errors()
