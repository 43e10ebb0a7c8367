"""One look (#27): a whole game of each of the four kinds, played the ways people play (the board's ▶ Your move and
the chooser step by step, a move previewed and confirmed, 🂠 My hand, the hand DM's chooser, typed moves), then
looked back at (stats, replay and its ⏮ ◀ ▶ ⏭, games, history, leaderboard, rules). Every message the bot sent on
the way, public, private or by DM, in every version an edit left, is a Components V2 card: the flag set, no content
and no embeds; every picture it uploaded is shown in the card (a V2 message shows only what its components name),
and (the directory's fixture) every picture has its alt text."""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.cards.boards import player_view
from bot.cards.chooser import chooser
from emulator.harness import Harness, InteractionResult
from emulator.model import Channel, User
from render import render_hand
from tests.bot.e2e.driver import boards, latest_game_id, play_out, session_of, start_flaming

#: Buttons that do not choose a move.
NOT_A_CHOICE = ("⬅ Back", "More ▶", "◀ Back", "🂠 My hand", "🔄 Latest board", "↩ Back")
#: Verbs the typed moves prefer, per game (Pyramido: build, draw, end; the others: whatever comes first).
PYRAMIDO_PREFER = ("place", "discard", "end")


def plain_messages(harness: Harness) -> list[str]:
    """The bot's messages (and earlier versions of them) that are not cards, or carry content or embeds."""
    emulator = harness.emu
    found = []
    for message in emulator.world.messages.values():
        if message.author.id != emulator.bot.id:
            continue
        where = f"message {message.id} ({message.text[:70]!r})"
        if not message.is_card:
            found.append(f"not a card: {where}")
        if message.content or message.embeds:
            found.append(f"content or embeds: {where}")
        for old in message.history:
            if old.get("content") or old.get("embeds"):
                found.append(f"an earlier version with content or embeds: {where}")
    return found


def hidden_pictures(harness: Harness) -> list[str]:
    """Pictures the bot uploaded with a card that its components do not show (nobody would see them)."""
    emulator = harness.emu
    found = []
    for message in emulator.world.messages.values():
        if message.author.id != emulator.bot.id or not message.is_card:
            continue
        shown = {id(a) for a, _ in message.media() if a is not None}
        found += [f"{a.filename} of message {message.id}" for a in message.attachments
                  if a.is_image and id(a) not in shown]
    return found


def assert_quiet_news(harness: Harness, users: dict[int, User]) -> None:
    """A hand DM buzzes only when it is its reader's turn (it carries the chooser's buttons); the game's replay at
    its end is news for readers, sent silently."""
    for user in users.values():
        for dm in harness.dm(user):
            if "your hand after move" in dm.text and not dm.buttons():
                assert dm.silent, dm.text
    emulator = harness.emu
    gifs = [m for m in emulator.world.messages.values()
            if m.author.id == emulator.bot.id and any(a.filename.endswith(".gif") for a in m.attachments)]
    assert gifs and all(m.silent for m in gifs)


def assert_all_cards(harness: Harness) -> None:
    plain = plain_messages(harness)
    assert not plain, "\n".join(plain[:10])
    hidden = hidden_pictures(harness)
    assert not hidden, hidden
    # something of each kind was seen: boards with their pictures, private cards, DMs
    mine = [m for m in harness.emu.world.messages.values() if m.author.id == harness.emu.bot.id]
    assert any(m.ephemeral for m in mine) and any(m.media() for m in mine)


async def choose_to_the_end(harness: Harness, user: User, shown: InteractionResult) -> InteractionResult:
    """Click the first choice of the chooser (or ✅ Confirm of a preview) until a move is played."""
    for _ in range(10):
        if "✅ You played" in shown.text or "❌" in shown.text:
            return shown
        message = shown.last
        assert message.is_card, message.text
        if message.selects() and not [b for b in message.button_labels if b not in NOT_A_CHOICE]:
            option = message.selects()[0]["options"][0]["value"]
            shown = await harness.select(user, message, None, [option])
            continue
        choice = next(b for b in message.button_labels if b not in NOT_A_CHOICE)
        shown = await harness.click(user, message, label=choice)
    raise AssertionError(f"the chooser made no move: {shown.text}")


async def move_from_board(harness: Harness, users: dict[int, User], game_id: int, thread: Channel) -> None:
    """The player to act plays one move from the latest board: ▶ Your move (or a move button) and the chooser."""
    session = await session_of(harness, game_id)
    user = users[session.to_act]
    board = boards(harness, thread)[-1]
    assert board.is_card
    label = "▶ Your move" if "▶ Your move" in board.button_labels else next(
        b for b in board.button_labels if b not in NOT_A_CHOICE)
    played = await choose_to_the_end(harness, user, await harness.click(user, board, label=label))
    assert "✅ You played" in played.text, played.text


async def move_from_hand(harness: Harness, users: dict[int, User], game_id: int, thread: Channel) -> bool:
    """The player to act plays one move from their newest hand card with a chooser (a DM, or the private hand that
    came with their last move's answer); False if they have none."""
    session = await session_of(harness, game_id)
    user = users[session.to_act]
    hands = [m for m in harness.dm(user) + harness.visible_messages(user, thread)
             if (m.ephemeral or m.channel_id != thread.id) and m.attachments and "your hand after move" in m.text]
    if not hands:
        return False
    hand = max(hands, key=lambda m: m.id)
    choices = [b for b in hand.button_labels if b not in NOT_A_CHOICE]
    if not choices or f"after move {session.version}" not in hand.text:
        return False
    step = await harness.click(user, hand, label=choices[0])
    if "✅ You played" not in step.text and step.message is not None and step.message.id == hand.id:
        assert step.message.media(), "the hand keeps its picture while its chooser steps"
    played = await choose_to_the_end(harness, user, step)
    assert "✅ You played" in played.text, played.text
    return True


async def look_around(harness: Harness, users: dict[int, User], game_id: int, thread: Channel) -> None:
    """🂠 My hand and 🔄 Latest board on the newest board, and /pyramid hand, by each player."""
    session = await session_of(harness, game_id)
    board = boards(harness, thread)[-1]
    for user in users.values():
        if session.presenter.has_hand:
            looked = await harness.click(user, board, label="🂠 My hand")
            assert looked.is_card and looked.last.media(), looked.text
        latest = await harness.click(user, board, label="🔄 Latest board")
        assert latest.is_card


async def previews_off(harness: Harness, users: dict[int, User], thread: Channel) -> None:
    """Typed moves of a player with previews on are previewed, not played: off before the rest is typed."""
    for user in users.values():
        assert (await harness.slash(user, thread, "pyramid settings", preview=False)).is_card


async def look_back(harness: Harness, user: User, game_id: int, where: Channel) -> None:
    """What a player reads after the game: stats, the replay and its steps, games, history, leaderboard, rules."""
    stats = await harness.slash(user, where, "pyramid stats")
    assert stats.is_card and stats.ephemeral
    replay = await harness.slash(user, where, "pyramid replay", game=game_id)
    assert replay.is_card and replay.last.media(), replay.text
    first = await harness.click(user, replay.last, label="⏮ Start")
    assert first.is_card and "move 0 of" in first.text, first.text
    step = await harness.click(user, first.last, label="Next ▶")
    assert "move 1 of" in step.text and step.last.media(), step.text
    for command, options in (("pyramid games", {}), ("pyramid history", {"game": game_id}),
                             ("pyramid leaderboard", {}),
                             ("pyramid rules", {"game": (await session_of(harness, game_id)).record.kind})):
        answer = await harness.slash(user, where, command, **options)
        assert answer.is_card, (command, answer.text)


async def test_flaming_pyramids_is_cards_throughout(emulator: Any, harness: Harness) -> None:
    ana, ben = await harness.add_user("ana"), await harness.add_user("ben")
    await harness.start_bot()
    thread, game_id = await start_flaming(emulator, harness, [ana, ben], turn_limit=8)
    users = {0: ana, 1: ben}
    session = await session_of(harness, game_id)
    previewer = users[(session.to_act + 1) % 2]  # the second mover previews
    assert (await harness.slash(previewer, thread, "pyramid settings", preview=True)).is_card
    await move_from_board(harness, users, game_id, thread)
    await move_from_board(harness, users, game_id, thread)  # previewed: ✅ Confirm is the chooser's last click
    await look_around(harness, users, game_id, thread)
    assert await move_from_hand(harness, users, game_id, thread), "a move from the hand card's chooser"
    await previews_off(harness, users, thread)
    final = await play_out(harness, game_id, users, thread)
    assert final.result is not None
    await harness.settle()
    await look_back(harness, ana, game_id, thread)
    assert_all_cards(harness)
    assert_quiet_news(harness, users)


async def test_continuous_pyramid_is_cards_throughout(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    started = await harness.slash(ana, emulator.general, "pyramid new", game="continuous-pyramid", undo=False)
    assert started.is_card
    game_id = await latest_game_id(harness)
    thread = harness.threads(emulator.general)[0]
    users = {0: ana}
    await move_from_board(harness, users, game_id, thread)
    assert (await harness.slash(ana, thread, "pyramid settings", preview=True)).is_card
    await move_from_board(harness, users, game_id, thread)
    await look_around(harness, users, game_id, thread)
    await previews_off(harness, users, thread)
    final = await play_out(harness, game_id, users, thread, give_up_when_stuck=True)
    assert final.record.status == "finished"
    await harness.settle()
    await look_back(harness, ana, game_id, thread)
    assert_all_cards(harness)


async def test_pyrinoes_is_cards_throughout(emulator: Any, harness: Harness) -> None:
    ana, ben = await harness.add_user("ana"), await harness.add_user("ben")
    await harness.start_bot()
    lobby = await harness.slash(ana, emulator.general, "pyramid new", game="pyrinoes", target=10)
    assert lobby.message is not None and lobby.is_card
    await harness.click(ben, lobby.message, label="Join")
    await harness.click(ana, lobby.message, label="Start")
    game_id = await latest_game_id(harness)
    thread = harness.threads(emulator.general)[0]
    users = {0: ana, 1: ben}
    assert (await harness.slash(ben, thread, "pyramid settings", preview=True)).is_card
    await move_from_board(harness, users, game_id, thread)
    await look_around(harness, users, game_id, thread)
    assert await move_from_hand(harness, users, game_id, thread), "a move from the hand card's chooser"
    await previews_off(harness, users, thread)
    final = await play_out(harness, game_id, users, thread)
    assert final.result is not None
    await harness.settle()
    await look_back(harness, ben, game_id, thread)
    assert_all_cards(harness)


async def test_pyramido_is_cards_throughout(emulator: Any, harness: Harness) -> None:
    ana, ben = await harness.add_user("ana"), await harness.add_user("ben")
    await harness.start_bot()
    lobby = await harness.slash(ana, emulator.general, "pyramid new", game="pyramido", mode="coop", size=4)
    assert lobby.message is not None and lobby.is_card
    await harness.click(ben, lobby.message, label="Join")
    await harness.click(ana, lobby.message, label="Start")
    game_id = await latest_game_id(harness)
    thread = harness.threads(emulator.general)[0]
    users = {0: ana, 1: ben}
    await move_from_board(harness, users, game_id, thread)
    assert (await harness.slash(ana, thread, "pyramid settings", preview=True)).is_card
    await look_around(harness, users, game_id, thread)
    assert await move_from_hand(harness, users, game_id, thread), "a move from the hand card's chooser"
    await previews_off(harness, users, thread)
    final = await play_out(harness, game_id, users, thread, prefer=PYRAMIDO_PREFER)
    assert final.result is not None
    await harness.settle()
    await look_back(harness, ana, game_id, thread)
    assert_all_cards(harness)


async def test_a_plain_hand_dm_from_before_the_cards_becomes_one_when_its_chooser_is_clicked(
    emulator: Any, harness: Harness
) -> None:
    """A hand DM sent before the bot spoke in cards (content, a picture, a legacy row of the chooser's buttons) is
    edited into a card by its first click: with its content cleared and without the files it was sent with, as
    Discord's Edit Message documentation asks (footnote *), so the strict emulator accepts every edit."""
    ana, ben = await harness.add_user("ana"), await harness.add_user("ben")
    await harness.start_bot()
    _, game_id = await start_flaming(emulator, harness, [ana, ben], turn_limit=8)
    users = {0: ana, 1: ben}
    session = await session_of(harness, game_id)
    user = users[session.to_act]
    client = harness.bot.client
    shown = chooser(session, ())
    old = render_hand(player_view(session, session.to_act), art=session.presenter.art)
    dm = await (await client.fetch_user(user.id)).create_dm()
    await dm.send("🂠 your hand after move 0 (as the bot sent it before the cards)",
                  file=discord.File(io.BytesIO(old), filename="hand.png", description="a hand"), view=shown.view)
    plain = harness.dm(user)[-1]
    assert not plain.is_card and plain.attachments
    choice = next(b for b in plain.button_labels if b not in NOT_A_CHOICE)
    step = await harness.click(user, plain, label=choice)
    edited = harness.message(plain.id)
    assert edited.is_card and not edited.content and not edited.attachments, edited
    played = await choose_to_the_end(harness, user, step)
    assert "✅ You played" in played.text, played.text
