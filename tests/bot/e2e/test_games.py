"""Every game from /pyramid new to its final result, through the emulator."""

from __future__ import annotations

from typing import Any

import pytest

from emulator.harness import Harness
from engine.pyramido.stones import COLOUR_NAMES
from tests.bot.e2e.driver import boards, challenge_of, latest_game_id, play_out, session_of


@pytest.mark.slow  # two whole Continuous Pyramid games (about 35 s on 2 cores): in CI's -m slow run
async def test_continuous_pyramid_challenge_two_players_and_leaderboard(emulator: Any, harness: Harness) -> None:
    (ana, ben), board_msg = await challenge_of(emulator, harness, "ana", "ben")
    assert "challenge" in board_msg.text and "No results yet" in board_msg.text
    for user in (ana, ben):
        joined = await harness.click(user, board_msg, label="▶ Play this deal")
        assert joined.ephemeral
    again = await harness.click(ana, board_msg, label="▶ Play this deal")
    assert "already have a game" in again.text
    games = [g for g in await harness.bot.services.store.all_games() if g.challenge_id is not None]
    assert len(games) == 2 and games[0].seed == games[1].seed
    threads = harness.threads(emulator.general)
    assert len(threads) == 2
    for record, user in zip(games, (ana, ben), strict=True):
        thread = next(t for t in threads if t.id == record.thread_id)
        # Play through the board's buttons for one move, then type the rest.
        board = [m for m in harness.messages(thread) if m.png_attachments()][-1]
        picker = await harness.click(user, board, label="▶ Your move")
        assert picker.ephemeral
        final = await play_out(harness, record.id, {0: user}, thread, give_up_when_stuck=True)
        assert final.record.status == "finished"
        if not final.result.winners:  # lost: it was stuck first, and could still undo then
            assert any("you are stuck" in m.text for m in harness.messages(thread))
    lines = harness.messages(emulator.general)[0].text
    assert ("Leaderboard" in lines and "ana" in lines.lower()) or "<@" in lines


async def test_continuous_pyramid_solo_starts_at_once(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    res = await harness.slash(ana, emulator.general, "pyramid new", game="continuous-pyramid", undo=False)
    assert "started" in res.text
    game_id = await latest_game_id(harness)
    session = await session_of(harness, game_id)
    assert session.record.status == "active" and session.to_act == 0


async def test_pyrinoes_against_an_ai_to_the_target(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    res = await harness.slash(ana, emulator.general, "pyramid new", game="pyrinoes", target=10)
    await harness.select(ana, res.message, None, ["normal"])
    await harness.click(ana, res.message, label="Start")
    game_id = await latest_game_id(harness)
    thread = harness.threads(emulator.general)[0]
    dms = harness.dm(ana)
    session = await session_of(harness, game_id)
    if session.to_act == 0:
        assert dms and dms[-1].png_attachments(), "the player's dominoes come by DM"
    final = await play_out(harness, game_id, {0: ana}, thread)
    assert final.result is not None
    assert "Game over" in boards(harness, thread)[-1].text


async def test_pyramido_solo_to_the_end(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    res = await harness.slash(ana, emulator.general, "pyramid new", game="pyramido", mode="solo", size=4)
    assert "started" in res.text
    game_id = await latest_game_id(harness)
    thread = harness.threads(emulator.general)[0]
    final = await play_out(harness, game_id, {0: ana}, thread, prefer=("place", "discard", "end"))
    assert final.result is not None
    assert "Game over" in boards(harness, thread)[-1].text


async def test_pyramido_coop_two_people_share_one_pyramid(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    ben = await harness.add_user("ben")
    await harness.start_bot()
    res = await harness.slash(ana, emulator.general, "pyramid new", game="pyramido", mode="coop", size=4)
    await harness.click(ben, res.message, label="Join")
    await harness.click(ana, res.message, label="Start")
    game_id = await latest_game_id(harness)
    thread = harness.threads(emulator.general)[0]
    session = await session_of(harness, game_id)
    # PD-4 (second edition): co-op hands lie open, so the public view shows them all.
    hands = session.game.view(session.state, None).get("hands")
    assert hands == [list(h) for h in session.state.hands]
    await assert_board_lists_every_hand(harness, thread, game_id)
    # One move later the caption follows the new hands.
    seat = session.to_act
    move = next(m for m in session.game.legal_moves(session.state) if m.startswith("place"))
    res = await harness.slash((ana, ben)[seat], thread, "pyramid play", move=move, game=game_id)
    assert "✅" in res.text, res.text
    await assert_board_lists_every_hand(harness, thread, game_id)
    final = await play_out(harness, game_id, {0: ana, 1: ben}, thread, prefer=("place", "discard", "end"))
    assert final.result is not None


async def assert_board_lists_every_hand(harness: Harness, thread: Any, game_id: int) -> None:
    """The latest board message names every teammate with the stones they hold."""
    session = await session_of(harness, game_id)
    board = [m for m in harness.messages(thread) if m.png_attachments()][-1]
    assert f"move {session.version}" in board.text
    for seat in session.seats:
        # Stones by their colours' words (#43: words, not notation): "red, white, yellow".
        stones = ", ".join(str(COLOUR_NAMES[s]) for s in session.state.hands[seat.seat]) or "—"
        assert f"{seat.plain_name}: {stones}" in board.text, board.text


async def test_pyramido_competitive_against_an_ai(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    res = await harness.slash(ana, emulator.general, "pyramid new", game="pyramido", mode="competitive")
    await harness.select(ana, res.message, None, ["easy"])
    await harness.click(ana, res.message, label="Start")
    game_id = await latest_game_id(harness)
    thread = harness.threads(emulator.general)[0]
    final = await play_out(harness, game_id, {0: ana}, thread, prefer=("take", "build", "reserve", "pass"))
    assert final.result is not None
    assert "Game over" in boards(harness, thread)[-1].text
