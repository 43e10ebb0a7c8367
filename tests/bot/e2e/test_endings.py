"""How games end, through the emulator: every kind of ending leaves one final card that says who won
and how, with 🔁 Rematch and 🔐 Fair deal, and nothing on it still says whose turn it is.

The kinds of ending the code has (``Game.play`` reaching a result, and
``bot.resignations.resignations``, the only other writer of a finished status):
- a final move (a win, a loss, a draw; Continuous Pyramid's give-up is its ``resign`` move);
- ``/pyramid resign`` in a two-player or solo game (bigger games go on with an AI in the seat);
- a timeout on a server whose timeout action is ``forfeit`` (the same path, "timed out and forfeits");
- a timeout whose action is an AI ends later by the AI's final move (a final move again).
The daily deal is a solo Continuous Pyramid game of a shared deal: it ends by one of those.
"""

from __future__ import annotations

import re
from typing import Any

from emulator.harness import Harness
from emulator.model import Channel, Message
from tests.bot.clock import FakeClock
from tests.bot.e2e.driver import (
    boards,
    bot_of,
    card_text,
    flaming_game_of,
    group_dm_game,
    latest_game_id,
    play_out,
    session_of,
)
from tests.bot.e2e.test_hardening_access import forged
from tests.paths import REPO

SEAL = re.compile(r"sha256:[0-9a-f]{64}")
REVEAL = re.compile(r"🔓 Deal revealed: seed `(\d+)` · salt `([0-9a-f]{32})`")


def labels(message: Message) -> list[str]:
    return [str(b.get("label") or "") for b in message.buttons()]


def final_card(harness: Harness, channel: Channel) -> Message:
    """The game's last board, which must be its final card."""
    last = boards(harness, channel)[-1]
    text = card_text(last)
    assert "Game over" in text, text
    assert "your turn" not in text and "🎯" not in text, text
    assert not SEAL.search(text) and "salt" not in text, text  # the fair deal is behind its button
    assert "🔁 Rematch" in labels(last) and "🔐 Fair deal" in labels(last), labels(last)
    assert not any(b in labels(last) for b in ("▶ Your move", "🂠 My hand", "🏳️ Give up")), labels(last)
    return last


async def first_move(harness: Harness, game_id: int, users: dict[int, Any], channel: Channel) -> None:
    session = await session_of(harness, game_id)
    await harness.slash(users[session.to_act], channel, "pyramid play",
                        move=session.game.legal_moves(session.state)[0])


async def test_a_resignation_leaves_a_final_card_with_the_result(emulator: Any, harness: Harness) -> None:
    (alice, bob), thread, game_id = await flaming_game_of(emulator, harness, "alice", "bob")
    first = boards(harness, thread)[0]
    assert not SEAL.search(card_text(first)) and "🔐 Fair deal" in labels(first)
    await first_move(harness, game_id, {0: alice, 1: bob}, thread)
    answer = await harness.slash(bob, thread, "pyramid resign")
    await harness.settle()
    assert answer.ephemeral
    last = final_card(harness, thread)
    text = card_text(last)
    assert f"<@{bob.id}> resigned. <@{alice.id}> wins." in text, text
    # a forfeit is not scored (Game.forfeit: every other seat wins); the picture shows how it stood
    assert "Score:" not in text and last.png_attachments(), text
    # told once: the last board became the final card, no second notice
    public = [m for m in harness.messages(thread) if not m.ephemeral and "resigned" in m.text]
    assert public == [last], [m.text for m in public]
    harness.assert_no_bot_errors()


async def test_a_forfeit_on_timeout_leaves_a_final_card(emulator: Any, harness: Harness, clock: FakeClock) -> None:
    (alice, bob), thread, game_id = await flaming_game_of(emulator, harness, "alice", "bob")
    await harness.slash(alice, emulator.general, "pyramid-admin settings", on_timeout="forfeit")
    await first_move(harness, game_id, {0: alice, 1: bob}, thread)
    clock.advance(days=30)
    done = await bot_of(harness).client.host.reminders.sweep()
    assert f"timeout:{game_id}:forfeit" in done, done
    await harness.settle()
    assert (await session_of(harness, game_id)).record.status == "finished"
    text = card_text(final_card(harness, thread))
    assert "timed out and forfeits" in text and "wins." in text, text
    harness.assert_no_bot_errors()


async def test_a_final_move_leaves_a_final_card_and_the_fair_deal_checks_out(emulator: Any,
                                                                           harness: Harness) -> None:
    (alice, bob), thread, game_id = await flaming_game_of(emulator, harness, "alice", "bob", turn_limit=4)
    sealed = (await harness.click(alice, boards(harness, thread)[0], label="🔐 Fair deal"))
    assert sealed.ephemeral and "revealed when the game ends" in sealed.text, sealed.text
    seal = SEAL.search(sealed.text)
    assert seal and "salt `" not in sealed.text
    await play_out(harness, game_id, {0: alice, 1: bob}, thread)
    await harness.settle()
    last = final_card(harness, thread)
    told = await harness.click(bob, last, label="🔐 Fair deal")
    assert told.ephemeral and seal[0] in told.text and REVEAL.search(told.text), told.text
    assert "sha256sum" in told.text and "pyramid-bot verify" in told.text
    harness.assert_no_bot_errors()


async def test_rematch_opens_a_lobby_through_pyramid_new(emulator: Any, harness: Harness) -> None:
    (alice, bob, eve), thread, game_id = await flaming_game_of(emulator, harness, "alice", "bob", "eve",
                                                              turn_limit=4)
    await harness.slash(bob, thread, "pyramid resign")  # three players: an AI takes bob's seat
    await play_out(harness, game_id, {0: alice, 2: eve}, thread)
    await harness.settle()
    last = final_card(harness, thread)
    stranger = await harness.add_user("stranger")
    refused = await harness.click(stranger, last, label="🔁 Rematch")
    assert refused.ephemeral and "Only the players of game" in refused.text
    opened = await harness.click(eve, last, label="🔁 Rematch")
    assert opened.message is not None and not opened.ephemeral
    lobby = opened.message
    new_id = await latest_game_id(harness)
    assert new_id != game_id
    text = card_text(lobby)
    assert f"A rematch of game #{game_id}" in text and f"<@{alice.id}>" in text and f"<@{bob.id}>" in text, text
    record = await bot_of(harness).services.store.game_record(new_id)
    old = await bot_of(harness).services.store.game_record(game_id)
    assert record is not None and old is not None and record.options == old.options and record.kind == old.kind
    seats = await bot_of(harness).services.store.seats(new_id)
    assert [s.user_id for s in seats] == [eve.id]  # the others are invited: each clicks Join
    await harness.click(alice, lobby, label="Join")
    assert [s.user_id for s in await bot_of(harness).services.store.seats(new_id)] == [eve.id, alice.id]
    harness.assert_no_bot_errors()


async def test_rematch_respects_the_cap_on_open_games(emulator: Any, harness: Harness) -> None:
    (alice, bob), thread, _ = await flaming_game_of(emulator, harness, "alice", "bob")
    await harness.slash(bob, thread, "pyramid resign")
    await harness.settle()
    last = final_card(harness, thread)
    await harness.slash(alice, emulator.general, "pyramid-admin settings", max_open_games=1)
    opened = await harness.slash(alice, emulator.general, "pyramid new", game="flaming-pyramids")
    assert not opened.ephemeral, opened.text
    before = len(await bot_of(harness).services.store.all_games())
    refused = await harness.click(alice, last, label="🔁 Rematch")
    assert refused.ephemeral and "/pyramid-admin settings max_open_games" in refused.text, refused.text
    assert len(await bot_of(harness).services.store.all_games()) == before
    harness.assert_no_bot_errors()


async def test_a_stuck_solitaire_has_a_give_up_button(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    await harness.slash(ana, emulator.general, "pyramid new", game="continuous-pyramid")
    game_id = await latest_game_id(harness)
    thread = harness.threads(emulator.general)[0]
    for _ in range(400):  # play until stuck (undo is on by default, so a stuck game waits for a decision)
        session = await session_of(harness, game_id)
        pending = session.game.pending(session.state)
        if (pending is not None and pending.kind == "stuck") or session.over:
            break
        moves = [m for m in session.game.legal_moves(session.state) if m.startswith("play")]
        await harness.slash(ana, thread, "pyramid play", move=moves[0], game=game_id)
    session = await session_of(harness, game_id)
    assert not session.over and session.game.pending(session.state).kind == "stuck"
    await harness.settle()
    stuck = boards(harness, thread)[-1]
    assert "you are stuck" in card_text(stuck) and "🏳️ Give up" in labels(stuck), labels(stuck)
    await harness.click(ana, stuck, label="🏳️ Give up")
    await harness.settle()
    final = await session_of(harness, game_id)
    assert final.over and final.record.status == "finished"
    final_card(harness, thread)
    harness.assert_no_bot_errors()


async def test_a_solo_resignation_leaves_a_final_card_with_its_score(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    await harness.slash(ana, emulator.general, "pyramid new", game="continuous-pyramid")
    game_id = await latest_game_id(harness)
    thread = harness.threads(emulator.general)[0]
    for _ in range(3):
        await first_move(harness, game_id, {0: ana}, thread)
    await harness.slash(ana, thread, "pyramid resign")
    await harness.settle()
    text = card_text(final_card(harness, thread))
    assert f"<@{ana.id}> resigned. <@{ana.id}> left the game with 3 of 144 tiles placed." in text, text
    harness.assert_no_bot_errors()


async def test_the_daily_deal_given_up_leaves_a_final_card_that_keeps_its_deal_sealed(emulator: Any,
                                                                                      harness: Harness) -> None:
    sam = await harness.add_user("sam")
    await harness.start_bot()
    await harness.slash(sam, emulator.general, "pyramid daily")
    game_id = await latest_game_id(harness)
    dm = harness.dm_channel(sam)
    for _ in range(2):
        await first_move(harness, game_id, {0: sam}, dm)
    # The day's deal is new in every run (its secret is the database's): after one play it may leave
    # only ↩ Undo, so the tiles placed are read from the game, not assumed.
    placed = (await session_of(harness, game_id)).state.placed
    await harness.slash(sam, dm, "pyramid resign")
    await harness.settle()
    last = boards(harness, dm)[-1]
    text = card_text(last)
    assert "Game over" in text and "your turn" not in text and f"{placed} of 144 tiles placed" in text, text
    assert labels(last) == ["🔐 Fair deal"]  # a shared deal's game has no rematch
    told = await harness.click(sam, last, label="🔐 Fair deal")
    assert "stays sealed" in told.text and "a shared deal" in told.text and "challenge's deal" not in told.text
    assert not REVEAL.search(told.text)
    harness.assert_no_bot_errors()


def test_every_writer_of_a_finished_game_is_a_path_these_tests_cover() -> None:
    """A game becomes finished in two places: a move that reaches a result (``SessionService``, whose last
    board is the final card) and a leaving (``bot.store.leaving``, for ``Resignations``: /pyramid resign and a
    timeout's forfeit, whose last board ``FinalCards`` turns into the final card). A new writer must give its
    ending a final card too, and a test here."""
    writers = set()
    for path in (REPO / "bot").rglob("*.py"):
        if path.parent.name == "records":  # the game record file copies the status; it writes no game's
            continue
        text = path.read_text(encoding="utf-8")
        if re.search(r"set_status\([^)]*\"finished\"|\"status\": \"finished\"|status=\"finished\""
                     r"|SET status = 'finished'", text):
            writers.add(path.relative_to(REPO).as_posix())
    assert writers == {"bot/core/session_service.py", "bot/store/leaving.py"}, writers


async def test_forged_fair_deal_and_rematch_clicks_are_refused_and_change_nothing(emulator: Any,
                                                                                  harness: Harness) -> None:
    (alice, bob), thread, game_id = await flaming_game_of(emulator, harness, "alice", "bob")
    store = bot_of(harness).services.store
    games = len(await store.all_games())
    # from another channel than the game's: nothing told, no lobby opened
    other = await harness.add_channel("elsewhere")
    await harness.sync_gateway()
    here = await forged(harness, other, f"pb:fair:{game_id}:0", f"pb:again:{game_id}:0",
                        "pb:fair:999:0")
    for label in ("b0", "b1"):
        refused = await harness.click(alice, here, label=label)
        assert refused.ephemeral and "❌" in refused.text, refused.text
    assert "no longer exists" in (await harness.click(alice, here, label="b2")).text
    # in the thread, while the game runs: the seal only, and no rematch
    there = await forged(harness, thread, f"pb:fair:{game_id}:0", f"pb:again:{game_id}:0")
    sealed = await harness.click(bob, there, label="b0")
    assert SEAL.search(sealed.text) and not REVEAL.search(sealed.text), sealed.text
    early = await harness.click(bob, there, label="b1")
    assert early.ephemeral and "is not over yet" in early.text, early.text
    assert len(await store.all_games()) == games
    harness.assert_no_bot_errors()


async def test_a_rematch_where_only_a_user_install_reaches(emulator: Any, harness: Harness) -> None:
    """In a group DM the card the players click is the game: a resignation shows on it at the next click,
    finished, and its 🔁 Rematch opens the new lobby there, as /pyramid new does."""
    table = await group_dm_game(harness, "flaming-pyramids", turn_limit=3)
    await harness.slash(table.ben, table.channel, "pyramid resign", game=table.game_id)
    await harness.click(table.ana, table.card, label="🔄 Latest board")
    card = harness.message(table.card.id)
    assert "Game over" in card_text(card) and labels(card) == ["🔁 Rematch", "🔐 Fair deal"], labels(card)
    opened = await harness.click(table.ben, card, label="🔁 Rematch")
    assert opened.message is not None and not opened.ephemeral, opened.text
    assert f"A rematch of game #{table.game_id}" in card_text(opened.message)
    assert f"<@{table.ana.id}>" in card_text(opened.message)
    new_id = await latest_game_id(harness)
    record = await bot_of(harness).services.store.game_record(new_id)
    assert new_id != table.game_id and record is not None and record.in_place and record.status == "lobby"
    harness.assert_no_bot_errors()
