"""The queue across servers through the emulator (issue #40; on the code before it ``across_servers:``
did not exist, and no game was played across two players' DMs): two players of two servers who
opted in are matched and play in their own DMs with the bot, each DM showing every board with its
buttons and its own seat's hand alone; a third who did not opt in is not matched across; a click
in one DM acts for its clicker alone; a restart mid-game keeps it going; a player the bot cannot
DM makes no game."""

from __future__ import annotations

from typing import Any

import pytest

from bot.cards.cards import seat_colour
from bot.ratings import EVERYWHERE
from bot.seeks.store import Entry
from emulator.harness import Harness
from emulator.model import Channel, Message, User
from tests.bot.clock import FakeClock
from tests.bot.e2e.driver import HEADER, boards, card_text, session_of, versions
from tests.bot.e2e.test_cards import NOT_A_CHOICE, choose_to_the_end
from tests.bot.e2e.test_hardening_forged import click_forged
from tests.bot.e2e.test_seeks import rate, seeks


def accents(message: Message) -> set[int]:
    """The accent colours of a card's containers."""
    found: set[int] = set()

    def walk(components: list[Any]) -> None:
        for c in components:
            if isinstance(c, dict):
                if c.get("type") == 17 and c.get("accent_color") is not None:
                    found.add(int(c["accent_color"]))
                walk(c.get("components") or [])

    walk(message.components)
    return found


def hands(harness: Harness, user: User) -> list[Message]:
    return [m for m in harness.dm(user) if "your hand after move" in card_text(m)]


async def matched_across(emulator: Any, harness: Harness) -> tuple[User, User, User, int]:
    """Ana (the emulator's server) and Ben (server "two") queue across servers and are matched; Cat
    (server "two" too, far from Ben in its ratings) queued in her server alone and waits on."""
    ana = await harness.add_user("ana")
    await harness.start_bot()
    two = await harness.add_guild("two")
    ben = await harness.add_user("ben", guild=two)
    cat = await harness.add_user("cat", guild=two)
    await rate(harness, two.id, cat, 30.0)  # too far from Ben for a match in their own server
    general, general_two = emulator.general, harness.channel("general", guild=two)
    res = await harness.slash(ana, general, "pyramid queue", game="pyrinoes", across_servers=True)
    assert "Across servers too" in res.text, res.text
    again = await harness.slash(ana, general, "pyramid queue", game="pyrinoes")
    assert "in the queue for Pyrinoes already" in again.text, again.text  # one entry per game
    await harness.slash(cat, general_two, "pyramid queue", game="pyrinoes")  # her server only
    await harness.settle()
    assert await harness.bot.services.store.all_games() == []  # Cat did not opt in: never matched across
    await harness.slash(ben, general_two, "pyramid queue", game="pyrinoes", across_servers=True)
    await harness.settle()
    games = await harness.bot.services.store.all_games()
    assert len(games) == 1, games
    record = games[0]
    assert record.seat_dms and record.guild_id is None and record.status == "active"
    seats = await harness.bot.services.store.seats(record.id)
    assert {s.user_id for s in seats} == {ana.id, ben.id}
    assert [e.user_id for e in await seeks(harness).store.waiting()] == [cat.id]
    for user in (ana, ben):
        told = [card_text(m) for m in harness.dm(user)]
        assert any("Matched across servers for Pyrinoes" in t for t in told), told
        assert boards(harness, harness.dm_channel(user)), f"{user.username}'s DM shows no board"
    assert not [m for m in harness.messages(general) if "started" in card_text(m)]  # no channel is told
    return ana, ben, cat, record.id


async def move_in_dm(harness: Harness, users: dict[int, User], game_id: int) -> None:
    """The player to act plays one move from the newest board in their own DM: ▶ Your move and the chooser."""
    session = await session_of(harness, game_id)
    user = users[session.to_act]
    board = boards(harness, harness.dm_channel(user))[-1]
    shown = HEADER.search(card_text(board))
    assert shown is not None and int(shown.group(2)) == session.version, card_text(board)
    label = "▶ Your move" if "▶ Your move" in board.button_labels else next(
        b for b in board.button_labels if b not in NOT_A_CHOICE)
    played = await choose_to_the_end(harness, user, await harness.click(user, board, label=label))
    assert "✅ You played" in played.text, played.text


def assert_own_hands_only(harness: Harness, users: dict[int, User]) -> None:
    """Each DM holds hand cards in its own seat's colour only: nobody sees the other's hand."""
    for seat, user in users.items():
        mine = hands(harness, user)
        assert mine, f"{user.username} got no hand"
        for message in mine:
            assert accents(message) == {seat_colour(seat)}, (user.username, accents(message))


async def test_two_servers_players_are_matched_and_play_in_their_dms(emulator: Any, harness: Harness,
                                                                     clock: FakeClock) -> None:
    ana, ben, _cat, game_id = await matched_across(emulator, harness)
    session = await session_of(harness, game_id)
    users = {s.seat: next(u for u in (ana, ben) if u.id == s.user_id) for s in session.seats}
    waiting = users[1 - session.to_act]
    # a click in the waiting player's DM acts for them alone: not their turn
    board = boards(harness, harness.dm_channel(waiting))[-1]
    refused = await harness.click(waiting, board, label="▶ Your move")
    assert "not your turn" in refused.text, refused.text
    for _ in range(3):
        await move_in_dm(harness, users, game_id)
        await harness.settle()
    session = await session_of(harness, game_id)
    assert session.version >= 3
    for user in (ana, ben):  # every move's board reaches both DMs
        shown = {int(m.group(2)) for b in boards(harness, harness.dm_channel(user))
                 if (m := HEADER.search(card_text(b)))}
        assert session.version in shown, (user.username, shown)
    assert_own_hands_only(harness, users)
    for user in (ana, ben):  # a board buzzes only the DM of the player it calls to act
        for board in boards(harness, harness.dm_channel(user)):
            if f"<@{user.id}>" not in card_text(board):
                assert board.silent, (user.username, card_text(board))
    # a restart mid-game: the game goes on from the DMs
    await harness.restart_bot()
    await move_in_dm(harness, users, game_id)
    await harness.settle()
    assert (await session_of(harness, game_id)).version == session.version + 1
    # resigning ends it: the final card reaches both DMs; a rematch is refused clearly
    session = await session_of(harness, game_id)
    res = await harness.slash(users[session.to_act], harness.dm_channel(users[session.to_act]), "pyramid resign",
                              game=game_id)
    await harness.settle()
    record = await harness.bot.services.store.game_record(game_id)
    assert record is not None and record.status == "finished", (res.text, record)
    for user in (ana, ben):
        finals = [m for m in harness.dm(user) if "🔁 Rematch" in m.button_labels]
        assert finals, f"{user.username}'s DM has no final card"
    rematch = await harness.click(ana, [m for m in harness.dm(ana) if "🔁 Rematch" in m.button_labels][-1],
                                  label="🔁 Rematch")
    assert "played across servers" in rematch.text, rematch.text
    # rated across servers alone: no server's ratings count it
    scopes = {int(r[0]) for r in await harness.bot.services.db.read_all(
        "SELECT DISTINCT scope FROM ratings WHERE user_id IN (?, ?)", (ana.id, ben.id))}
    assert scopes <= {EVERYWHERE}, scopes


@pytest.mark.slow
async def test_an_across_game_is_played_by_clicks_to_its_end_card(emulator: Any, harness: Harness,
                                                                  clock: FakeClock) -> None:
    ana, ben, _cat, game_id = await matched_across(emulator, harness)
    session = await session_of(harness, game_id)
    users = {s.seat: next(u for u in (ana, ben) if u.id == s.user_id) for s in session.seats}
    for _ in range(400):
        session = await session_of(harness, game_id)
        if session.over:
            break
        await move_in_dm(harness, users, game_id)
        await harness.settle()
    assert session.over
    for user in (ana, ben):
        last = boards(harness, harness.dm_channel(user))[-1]
        assert "🔁 Rematch" in last.button_labels, card_text(last)
        gifs = [m for m in harness.dm(user) if any(a.filename.endswith(".gif") for a in m.attachments)]
        assert len(gifs) == 1 and gifs[0].silent, user.username  # the replay, in each DM, buzzing nobody
    assert_own_hands_only(harness, users)
    # rated across servers alone: neither server's ratings nor wins count it
    scopes = {int(r[0]) for r in await harness.bot.services.db.read_all(
        "SELECT DISTINCT scope FROM ratings WHERE user_id IN (?, ?)", (ana.id, ben.id))}
    assert scopes == {EVERYWHERE}, scopes
    assert await harness.bot.services.db.read_all("SELECT * FROM server_wins") == []


async def test_a_player_the_bot_cannot_dm_makes_no_game(emulator: Any, harness: Harness, clock: FakeClock) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    two = await harness.add_guild("two")
    ben = await harness.add_user("ben", guild=two, dms_open=False)
    await harness.slash(ana, emulator.general, "pyramid queue", game="pyrinoes", across_servers=True)
    await harness.slash(ben, harness.channel("general", guild=two), "pyramid queue", game="pyrinoes",
                        across_servers=True)
    await harness.settle()
    games = await harness.bot.services.store.all_games()
    assert all(g.status == "cancelled" for g in games), games  # nothing started
    waiting: list[Entry] = await seeks(harness).store.waiting()
    assert [e.user_id for e in waiting] == [ana.id]  # Ana keeps her place; Ben, unreachable, is out
    told = [card_text(m) for m in harness.dm(ana)]
    assert any("is off" in t and "back in the queue" in t for t in told), told  # she was told of the match first


async def test_leaving_the_queue_across_servers_from_another_server(emulator: Any, harness: Harness,
                                                                    clock: FakeClock) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    two = await harness.add_guild("two", members=[ana])
    await harness.slash(ana, emulator.general, "pyramid queue", game="pyrinoes", across_servers=True)
    other: Channel = harness.channel("general", guild=two)
    twice = await harness.slash(ana, other, "pyramid queue", game="pyrinoes")
    assert "already" in twice.text, twice.text  # an entry across servers is the only one for its game
    left = await harness.slash(ana, other, "pyramid queue", game="pyrinoes", leave=True)
    assert "You left the queue" in left.text, left.text
    assert await seeks(harness).store.waiting() == []


async def test_clock_reminders_time_outs_and_lookups_of_an_across_game(emulator: Any, harness: Harness,
                                                                       clock: FakeClock) -> None:
    """The clock's reminder goes to the DM of the player to act alone; a time-out is told in both DMs and
    an AI plays on there; /pyramid games, status and history answer from a DM; a forged click carrying
    the other player's chooser choice is refused."""
    ana, ben, _cat, game_id = await matched_across(emulator, harness)
    session = await session_of(harness, game_id)
    users = {s.seat: next(u for u in (ana, ben) if u.id == s.user_id) for s in session.seats}
    actor, waiting = users[session.to_act], users[1 - session.to_act]
    # the waiting player forges a click with the actor's own chooser choice, from their own DM
    hand = [m for m in hands(harness, actor) if [b for b in m.button_labels if b not in NOT_A_CHOICE]][-1]
    button = next(b for b in hand.buttons() if str(b.get("label") or "") not in NOT_A_CHOICE)
    forged = await click_forged(harness, waiting, harness.dm_channel(waiting), button,
                                {"custom_id": button["custom_id"], "component_type": 2})
    said = "\n".join(card_text(m) for m in forged.messages)
    assert "not your turn" in said and (await session_of(harness, game_id)).version == session.version, said
    for command in ("pyramid games", "pyramid status", "pyramid history"):
        options = {} if command == "pyramid games" else {"game": game_id}
        res = await harness.slash(waiting, harness.dm_channel(waiting), command, **options)
        assert f"#{game_id}" in res.text or "Pyrinoes" in res.text, (command, res.text)
        if command == "pyramid games":  # its link opens the waiting player's own DM, where their copy is
            assert f"https://discord.com/channels/@me/{harness.dm_channel(waiting).id}" in res.text, res.text
    sweep = harness.bot.client.host.reminders.sweep
    clock.advance(hours=60)
    await sweep()
    await harness.settle()
    reminded = [card_text(m) for m in harness.dm(actor) if "it's your turn in game" in card_text(m)]
    assert reminded, [card_text(m) for m in harness.dm(actor)]
    other = f"https://discord.com/channels/@me/{harness.dm_channel(waiting).id}"
    assert not any(other in text for text in reminded), reminded  # never the other seat's DM: nobody may open it
    assert not [m for m in harness.dm(waiting) if "it's your turn in game" in card_text(m)]
    clock.advance(hours=12, minutes=1)
    await sweep()
    await harness.settle()
    for user in (ana, ben):
        assert any("time bank ran out" in card_text(m) for m in harness.dm(user)), user.username
    after = await session_of(harness, game_id)
    assert after.version > session.version  # the AI moved in the seat
    shown = {int(m.group(2)) for b in boards(harness, harness.dm_channel(waiting))
             if (m := HEADER.search(card_text(b)))}
    assert after.version in shown or after.over, shown


async def test_a_match_the_bot_stopped_inside_is_started_by_the_next_sweep(emulator: Any, harness: Harness,
                                                                           clock: FakeClock) -> None:
    """The bot stopped after writing a match across servers and before starting it: after a restart, the
    sweep starts it (once), and not while a match may still be telling its players."""
    ana = await harness.add_user("ana")
    await harness.start_bot()
    two = await harness.add_guild("two")
    ben = await harness.add_user("ben", guild=two)
    store = seeks(harness).store
    now = harness.bot.services.clock()
    first = Entry(harness.guild.id, "pyrinoes", ana.id, "ana", emulator.general.id, 0.0, now, True, 0.0)
    second = Entry(two.id, "pyrinoes", ben.id, "ben", harness.channel("general", guild=two).id, 0.0, now, True, 0.0)
    assert await store.enter(first) and await store.enter(second)
    announcer = harness.bot.client.host.announcer
    dms = (await announcer.dm_channel(ana.id), await announcer.dm_channel(ben.id))
    game_id = await store.match_across(first, second, {}, 7, dms)
    assert game_id is not None and await store.waiting() == []
    await harness.restart_bot()
    assert await seeks(harness).sweep() == []  # it may still be telling its players
    clock.advance(minutes=1, seconds=1)
    assert await seeks(harness).sweep() == [f"queue-started:{game_id}"]
    await harness.settle()
    record = await harness.bot.services.store.game_record(game_id)
    assert record is not None and record.status == "active" and record.seat_dms
    for user in (ana, ben):
        assert versions(harness, harness.dm_channel(user)) == [0], user.username
    assert await harness.bot.services.outbox.pending(game_id) == []  # every board went out
    assert await seeks(harness).sweep() == []  # started once


async def test_each_dm_reads_its_own_players_language(emulator: Any, harness: Harness, clock: FakeClock) -> None:
    """Ana reads English, Ben German: each one's DM shows the board (and its picture's words) in theirs."""
    ana = await harness.add_user("ana")
    await harness.start_bot()
    two = await harness.add_guild("two")
    ben = await harness.add_user("ben", guild=two, locale="de")
    await harness.slash(ana, emulator.general, "pyramid queue", game="pyrinoes", across_servers=True)
    res = await harness.slash(ben, harness.channel("general", guild=two), "pyramid queue", game="pyrinoes",
                              across_servers=True)
    assert "serverübergreifend" in res.text.lower() or "Auch serverübergreifend" in res.text, res.text
    await harness.settle()
    [record] = await harness.bot.services.store.all_games()
    english = [card_text(m) for m in harness.dm(ana) if m.png_attachments()]
    german = [card_text(m) for m in harness.dm(ben) if m.png_attachments()]
    assert any(f"game #{record.id} · move 0" in t for t in english), english
    assert any(f"Spiel #{record.id} · Zug 0" in t for t in german), german
    assert any("Serverübergreifend zusammengebracht" in card_text(m) for m in harness.dm(ben))


@pytest.mark.parametrize("seat", [0, 1])
async def test_a_player_who_closes_their_dms_does_not_stop_the_others_boards(emulator: Any, harness: Harness,
                                                                             clock: FakeClock, seat: int) -> None:
    """Seat 0's DM is the game's channel (its boards are the recorded ones), seat 1's gets copies: either
    closing their DMs leaves the other's boards coming."""
    ana, ben, _cat, game_id = await matched_across(emulator, harness)
    session = await session_of(harness, game_id)
    users = {s.seat: next(u for u in (ana, ben) if u.id == s.user_id) for s in session.seats}
    if session.to_act == seat:  # the closing player moves first, then waits
        await move_in_dm(harness, users, game_id)
        await harness.settle()
        session = await session_of(harness, game_id)
    closing, actor = users[seat], users[1 - seat]
    closing.dms_open = False  # the waiting player closes their DMs
    await move_in_dm(harness, users, game_id)
    await harness.settle()
    after = await session_of(harness, game_id)
    assert after.version == session.version + 1
    assert after.version in versions(harness, harness.dm_channel(actor))  # the mover's DM shows it all the same
    assert await harness.bot.services.outbox.pending(game_id, kind="board") == []  # nothing stuck


async def test_a_parked_game_in_dms_is_told_in_each_dm(emulator: Any, harness: Harness, clock: FakeClock) -> None:
    ana, ben, _cat, game_id = await matched_across(emulator, harness)
    record = await harness.bot.services.store.game_record(game_id)
    assert record is not None
    await harness.bot.client.host.reminders.park(record, "its saved moves are damaged", "test: damaged")
    await harness.settle()
    for user in (ana, ben):
        assert any(f"Game #{game_id} is paused" in card_text(m) for m in harness.dm(user)), user.username


async def test_time_away_is_told_in_the_other_players_dm(emulator: Any, harness: Harness, clock: FakeClock) -> None:
    ana, ben, _cat, _game_id = await matched_across(emulator, harness)

    def said(user: User, words: str) -> list[str]:
        return [card_text(m) for m in harness.dm(user) if words in card_text(m)]

    for away, other in ((ana, ben), (ben, ana)):
        before = len(said(other, "is away until")), len(said(other, "is back")), len(said(away, "is away until"))
        gone = await harness.slash(away, harness.dm_channel(away), "pyramid away", days=2)
        assert "away until" in gone.text, gone.text
        await harness.settle()
        told = said(other, "is away until")
        assert len(told) == before[0] + 1 and f"<@{away.id}>" in told[-1], told
        assert len(said(away, "is away until")) == before[2]  # not told about themselves
        clock.advance(hours=25)  # back a day later (a notice within a day of the last is not repeated)
        await harness.slash(away, harness.dm_channel(away), "pyramid back")
        await harness.settle()
        assert len(said(other, "is back")) == before[1] + 1
