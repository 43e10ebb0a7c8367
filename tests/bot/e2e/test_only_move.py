"""Issue #43, finding 1: when a single move is legal (Pyramido's "End turn" after the last
stone in solo, "Pass" in a competitive game), ▶ Your move and 🂠 My hand opened a chooser
with no button at all, and only a typed ``/pyramid play`` got the player out. The chooser
must offer that move as a button that plays it."""

from __future__ import annotations

import random
from typing import Any

from bot.games.presenter import ENGLISH
from emulator.harness import Harness, InteractionResult
from emulator.model import Channel, Message, User
from tests.bot.e2e.driver import boards, latest_game_id, session_of

#: The most moves typed to reach the position sought (a competitive game reaches "only Pass"
#: after a few dozen random moves; the deal is the harness's first, so this never varies).
MAX_MOVES = 300


async def type_move(harness: Harness, user: User, thread: Channel, game_id: int, move: str) -> None:
    res = await harness.slash(user, thread, "pyramid play", move=move, game=game_id)
    assert "✅" in res.text, res.text


async def play_until_only(harness: Harness, game_id: int, users: dict[int, User], thread: Channel, only: str,
                          choose: Any) -> Any:
    """Type moves (``choose(moves)`` picks one) until ``only`` is the one legal move of the seat
    to act; returns that position."""
    for _ in range(MAX_MOVES):
        session = await session_of(harness, game_id)
        assert not session.over, "the game ended before the position was reached"
        moves = session.game.legal_moves(session.state)
        if moves == [only]:
            return session
        await type_move(harness, users[session.to_act], thread, game_id, choose(moves))
    raise AssertionError(f"no position where only {only!r} is legal within {MAX_MOVES} moves")


def the_only_button(message: Message) -> dict[str, Any]:
    """The chooser's one button, which must name the whole move (a ``move`` id)."""
    buttons = message.buttons()
    assert len(buttons) == 1, f"the chooser should offer the one legal move: {message.text!r} {buttons}"
    assert buttons[0]["custom_id"].startswith("pb:move:"), buttons
    return buttons[0]


async def assert_click_plays(harness: Harness, user: User, shown: InteractionResult, game_id: int,
                             move: str) -> None:
    before = await session_of(harness, game_id)
    button = the_only_button(shown.last)
    assert button["custom_id"].endswith(f":{move}"), button
    done = await harness.click(user, shown.last, custom_id=button["custom_id"])
    told = before.presenter.move_words(move, {}, ENGLISH)  # told in words ("End turn"), not its notation (#43)
    assert any(f"You played {told}." in m.text for m in [*done.messages, shown.last]), done.messages
    after = await session_of(harness, game_id)
    assert after.version == before.version + 1


async def test_pyramido_solo_end_turn_after_the_last_stone_is_a_button(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    res = await harness.slash(ana, emulator.general, "pyramid new", game="pyramido", mode="solo", size=4)
    assert "started" in res.text
    game_id = await latest_game_id(harness)
    thread = harness.threads(emulator.general)[0]

    def place(moves: list[str]) -> str:
        return next(m for m in moves if m.startswith("place"))

    await play_until_only(harness, game_id, {0: ana}, thread, "end", place)
    board = boards(harness, thread)[-1]
    hand = await harness.click(ana, board, label="🂠 My hand")
    the_only_button(hand.last)
    chooser = await harness.click(ana, board, label="▶ Your move")
    assert chooser.ephemeral and "End turn" in chooser.last.text
    await assert_click_plays(harness, ana, chooser, game_id, "end")


async def test_pyramido_competitive_only_pass_is_a_button(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    ben = await harness.add_user("ben")
    await harness.start_bot()
    res = await harness.slash(ana, emulator.general, "pyramid new", game="pyramido", mode="competitive")
    await harness.click(ben, res.message, label="Join")
    await harness.click(ana, res.message, label="Start")
    game_id = await latest_game_id(harness)
    thread = harness.threads(emulator.general)[0]
    rng = random.Random(43)

    def anything_but_pass(moves: list[str]) -> str:
        return rng.choice([m for m in moves if m != "pass"] or moves)

    users = {0: ana, 1: ben}
    session = await play_until_only(harness, game_id, users, thread, "pass", anything_but_pass)
    player = users[session.to_act]
    board = boards(harness, thread)[-1]
    hand = await harness.click(player, board, label="🂠 My hand")
    the_only_button(hand.last)
    chooser = await harness.click(player, board, label="▶ Your move")
    assert chooser.ephemeral and "Pass" in chooser.last.text
    await assert_click_plays(harness, player, chooser, game_id, "pass")
