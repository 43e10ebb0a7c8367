"""Taking a move back (issue #41), through the emulator: a 3-player Flaming Pyramids game
where a misclick is taken back before the next player moves (the board card replaced by a
fresh one, the hand DM corrected, the clock and the log as before the move), and an undo
refused after a draw, after the next player acted, a second time in one turn, and where
the server does not allow it."""

from __future__ import annotations

from typing import Any

import pytest

from bot.forecasts.undo import Undos
from bot.store.clocks import ClockStore
from bot.store.undos import UndoStore
from emulator.harness import Harness
from emulator.model import User
from engine.core.undo import Revealed, revealed
from tests.bot.clock import FakeClock
from tests.bot.e2e.driver import HEADER, boards, card_text, flaming_game_of, group_dm_game, session_of

#: Typed moves before a position with both kinds of move is given up on (the deal is the harness's).
MAX_MOVES = 120


async def allow_undo_everywhere(harness: Harness, guild_id: int) -> None:
    await UndoStore(harness.bot.services.db).set_mode(guild_id, "all")


async def type_move(harness: Harness, user: User, thread: Any, game_id: int, move: str) -> None:
    res = await harness.slash(user, thread, "pyramid play", move=move, game=game_id)
    assert "✅" in res.text, res.text
    await harness.settle()


async def position_with(harness: Harness, game_id: int, users: dict[int, User], thread: Any,
                        wanted: Revealed | None) -> tuple[Any, str]:
    """Play on (moves that keep the game running) until the seat to act has a move whose
    ``revealed`` is ``wanted``; returns the position and that move."""
    for _ in range(MAX_MOVES):
        session = await session_of(harness, game_id)
        assert not session.over
        seat = session.to_act
        moves = session.game.legal_moves(session.state)
        for move in moves:
            if revealed(session.game, session.state, seat, move) is wanted:
                return session, move
        await type_move(harness, users[seat], thread, game_id, moves[0])
    raise AssertionError(f"no move that reveals {wanted} within {MAX_MOVES} moves")


async def test_a_misclick_is_taken_back_before_the_next_player_moves(
        emulator: Any, harness: Harness, clock: FakeClock) -> None:
    (ana, ben, cy), thread, game_id = await flaming_game_of(emulator, harness, "ana", "ben", "cy")
    shown = await harness.slash(ana, emulator.general, "pyramid-admin undo")
    assert "neither rated nor" in shown.text, shown.text  # the default: casual games only
    allowed = await harness.slash(ana, emulator.general, "pyramid-admin undo", mode="all")
    assert "every game" in allowed.text, allowed.text
    users = {0: ana, 1: ben, 2: cy}
    before, move = await position_with(harness, game_id, users, thread, None)
    mover = users[before.to_act]
    clocks = ClockStore(harness.bot.services.db)
    bank = await clocks.bank(game_id, before.to_act)
    log = await harness.bot.services.store.moves(game_id)
    cards = len(boards(harness, thread))

    clock.advance(hours=3)  # three hours spent on the misclick...
    await type_move(harness, mover, thread, game_id, move)
    assert await clocks.bank(game_id, before.to_act) != bank
    misclick = boards(harness, thread)[-1]
    assert misclick.buttons(), "the misclick's card came with its buttons"

    done = await harness.slash(mover, thread, "pyramid undo", game=game_id)
    assert "↩ You took back" in done.text, done.text
    await harness.settle()
    after = await session_of(harness, game_id)
    assert after.version == before.version
    assert after.game.to_position(after.state) == before.game.to_position(before.state)
    for seat in [None, 0, 1, 2]:
        assert after.game.view(after.state, seat) == before.game.view(before.state, seat)
    assert await harness.bot.services.store.moves(game_id) == log, "the log as before: records never see it"
    assert await clocks.bank(game_id, before.to_act) == bank, "the bank as it stood"
    fresh = boards(harness, thread)
    assert len(fresh) == cards + 2, "the misclick's card, then a fresh one"
    assert "took back their move" in card_text(fresh[-1])
    assert f"move {before.version}" in card_text(fresh[-1])
    assert not harness.message(misclick.id).buttons(), "the misclick's card lost its buttons"
    tile = move.split()[1]
    hand = [m for m in harness.dm(mover) if "your hand after move" in card_text(m)][-1]
    assert f"after move {before.version}" in card_text(hand) and hand.png_attachments(), "the hand DM corrected"
    assert tile in before.game.view(after.state, before.to_act)["hands"][before.to_act]

    # Played again, differently or not: the new move is announced afresh, and one undo per turn.
    await type_move(harness, mover, thread, game_id, move)
    assert (await session_of(harness, game_id)).version == before.version + 1
    assert f"move {before.version + 1}" in card_text(boards(harness, thread)[-1])
    again = await harness.slash(mover, thread, "pyramid undo", game=game_id)
    assert "one undo per turn" in again.text, again.text
    assert (await session_of(harness, game_id)).version == before.version + 1
    assert (await harness.bot.services.outbox.backlog()).pending == 0


async def test_undo_is_refused_after_a_draw_and_after_the_next_player_acted(
        emulator: Any, harness: Harness) -> None:
    (ana, ben, cy), thread, game_id = await flaming_game_of(emulator, harness, "ana", "ben", "cy")
    users = {0: ana, 1: ben, 2: cy}
    session, move = await position_with(harness, game_id, users, thread, Revealed.HIDDEN)
    mover = users[session.to_act]
    await type_move(harness, mover, thread, game_id, move)

    rated = await harness.slash(mover, thread, "pyramid undo", game=game_id)
    assert "rated games" in rated.text, "a rated game: not unless the server allows it"
    await allow_undo_everywhere(harness, emulator.guild.id)
    drew = await harness.slash(mover, thread, "pyramid undo", game=game_id)
    assert "showed something hidden" in drew.text, drew.text
    assert (await session_of(harness, game_id)).version == session.version + 1

    later, quiet = await position_with(harness, game_id, users, thread, None)
    await type_move(harness, users[later.to_act], thread, game_id, quiet)
    nxt = await session_of(harness, game_id)
    while nxt.to_act == later.to_act:  # a fall to decide: still their turn
        await type_move(harness, users[nxt.to_act], thread, game_id, nxt.game.legal_moves(nxt.state)[0])
        nxt = await session_of(harness, game_id)
    await type_move(harness, users[nxt.to_act], thread, game_id, nxt.game.legal_moves(nxt.state)[0])
    late = await harness.slash(users[later.to_act], thread, "pyramid undo", game=game_id)
    assert "your own last move" in late.text, late.text
    third = next(seat for seat in users if seat not in (later.to_act, nxt.to_act))
    stranger = await harness.slash(users[third], thread, "pyramid undo", game=game_id)
    assert "your own last move" in stranger.text, stranger.text

    await UndoStore(harness.bot.services.db).set_mode(emulator.guild.id, "off")
    off = await harness.slash(users[nxt.to_act], thread, "pyramid undo", game=game_id)
    assert "turned off" in off.text, off.text


@pytest.mark.parametrize("killed", ["before-the-board", "after-the-post"])
async def test_a_kill_between_an_undo_and_its_board_loses_no_board_and_doubles_none(
        emulator: Any, harness: Harness, clock: FakeClock, killed: str) -> None:
    """The undo's transaction queues its card; the process dies before the card is posted (the
    outbox posts it after the restart), or after posting it but before its row was marked done
    (what a SIGKILL there leaves: the retry finds the card by its header and records it)."""
    (ana, ben, cy), thread, game_id = await flaming_game_of(emulator, harness, "ana", "ben", "cy")
    await allow_undo_everywhere(harness, emulator.guild.id)
    users = {0: ana, 1: ben, 2: cy}
    before, move = await position_with(harness, game_id, users, thread, None)
    await type_move(harness, users[before.to_act], thread, game_id, move)
    services = harness.bot.services
    await Undos(services.store, services.sessions).take_back(game_id, users[before.to_act].id)  # the command's write
    if killed == "after-the-post":
        await harness.bot.client.host.delivery.deliver_due()
        await harness.settle()
        async with services.db.transaction() as conn:  # as the kill left it: posted, its row not yet done
            await conn.execute("UPDATE outbox SET done_at = NULL, outcome = NULL WHERE game_id = ? AND version = ?"
                               " AND kind = 'board'", (game_id, before.version))
    await harness.restart_bot()
    clock.advance(seconds=30)
    await harness.bot.client.host.delivery.deliver_due()
    await harness.settle()
    undo_cards = [b for b in boards(harness, thread) if "took back their move" in card_text(b)]
    assert len(undo_cards) == 1, [card_text(b)[:80] for b in boards(harness, thread)]
    assert f"move {before.version}" in card_text(undo_cards[0])
    assert (await harness.bot.services.outbox.backlog()).pending == 0
    assert (await session_of(harness, game_id)).version == before.version


async def test_take_back_on_the_hand_card_after_a_move_that_showed_nothing(
        emulator: Any, harness: Harness) -> None:
    """The mover's hand card offers ↩ Take back after a move the engine lets them take back (not
    after one that drew); its click goes the same way as ``/pyramid undo``."""
    (ana, ben, cy), thread, game_id = await flaming_game_of(emulator, harness, "ana", "ben", "cy")
    await allow_undo_everywhere(harness, emulator.guild.id)
    users = {0: ana, 1: ben, 2: cy}
    drawing, move = await position_with(harness, game_id, users, thread, Revealed.HIDDEN)
    played = await harness.slash(users[drawing.to_act], thread, "pyramid play", move=move, game=game_id)
    await harness.settle()
    assert not [m for m in played.messages if "↩ Take back" in m.button_labels], "not after a draw"

    before, move = await position_with(harness, game_id, users, thread, None)
    mover = users[before.to_act]
    played = await harness.slash(mover, thread, "pyramid play", move=move, game=game_id)
    await harness.settle()
    cards = [m for m in [*played.messages, *harness.dm(mover)] if "↩ Take back" in m.button_labels]
    assert cards, [m.button_labels for m in played.messages]
    done = await harness.click(mover, cards[-1], label="↩ Take back")
    assert "↩ You took back" in done.text, done.text
    await harness.settle()
    assert (await session_of(harness, game_id)).version == before.version
    again = await harness.click(mover, cards[-1], label="↩ Take back")
    assert "❌" in again.text, "the button names the move taken back: no second undo from it"


async def test_a_private_card_shown_before_an_undo_is_out_of_date_when_its_move_number_comes_again(
        emulator: Any, harness: Harness) -> None:
    """The mover's hand card after a move (its fall buttons, private: the bot cannot take them
    off) names move N; taken back and made again, the game is at move N once more, but the old
    card's buttons are answered as out of date, not played on the new position."""
    (ana, ben, cy), thread, game_id = await flaming_game_of(emulator, harness, "ana", "ben", "cy")
    await allow_undo_everywhere(harness, emulator.guild.id)
    users = {0: ana, 1: ben, 2: cy}
    before, move = await position_with(harness, game_id, users, thread, None)
    mover = users[before.to_act]
    played = await harness.slash(mover, thread, "pyramid play", move=move, game=game_id)
    await harness.settle()
    old = [m for m in played.messages if "↩ Take back" in m.button_labels]  # the mover's hand card: its chooser
    assert old, [m.button_labels for m in played.messages]
    done = await harness.slash(mover, thread, "pyramid undo", game=game_id)
    assert "↩ You took back" in done.text, done.text
    await type_move(harness, mover, thread, game_id, move)  # move N again
    again = await session_of(harness, game_id)
    assert again.version == before.version + 1
    button = next(b for b in old[-1].buttons() if "Fall" in (b.get("label") or ""))
    clicked = await harness.click(mover, old[-1], custom_id=button["custom_id"])
    said = [card_text(m) for m in clicked.messages]
    assert any("This board is out of date" in text for text in said), said
    assert (await session_of(harness, game_id)).version == again.version, "nothing played from the old card"


async def test_a_game_only_the_user_install_reaches_takes_no_move_back(emulator: Any, harness: Harness) -> None:
    """A group-DM game lives in one card its players' clicks update (``bot.posting.in_place``): an undo
    would leave that card showing a move the game no longer has, so it is refused there, plainly, and
    nothing changes (the play-anywhere property test found the stale card)."""
    table = await group_dm_game(harness, "flaming-pyramids", turn_limit=3)
    users = {0: table.ana, 1: table.ben}
    session, move = await position_with(harness, table.game_id, users, table.channel, None)
    mover = users[session.to_act]
    played = await harness.slash(mover, table.channel, "pyramid play", move=move, game=table.game_id)
    assert "✅" in played.text, played.text
    version = (await session_of(harness, table.game_id)).version
    refused = await harness.slash(mover, table.channel, "pyramid undo", game=table.game_id)
    assert refused.text.startswith("❌") and "user install" in refused.text, refused.text
    assert (await session_of(harness, table.game_id)).version == version
    shown = HEADER.search(card_text(harness.message(table.card.id)))
    assert shown is not None and int(shown.group(2)) == version
