"""Issue #43, finding 10: the small slips a newcomer reads in a lobby and a first game: "there
are 1", "a easy AI", an AI named "normal AI" in one place and "Normal AI" in another, the board
saying move 0 while its chooser says move 1, and Join offered on a full lobby."""

from __future__ import annotations

import re
from typing import Any

from bot.store import SeatRecord
from emulator.harness import Harness
from tests.bot.e2e.driver import boards, card_text


def join_button(message: Any) -> dict[str, Any]:
    return next(b for b in message.buttons() if b.get("label") == "Join")


async def test_a_lobby_reads_right_from_alone_to_full(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    lobby = await harness.slash(ana, emulator.general, "pyramid new", game="pyrinoes")
    alone = await harness.click(ana, lobby.message, label="Start")
    assert "needs at least 2 players" in alone.text and "there are 1" not in alone.text, alone.text
    assert "1 joined so far" in alone.text, alone.text
    assert not join_button(lobby.message).get("disabled")

    await harness.select(ana, lobby.message, None, ["easy"])
    said = card_text(harness.world.messages[lobby.message.id])
    assert "a easy" not in said and "ana added an AI (easy)." in said, said
    # Pyrinoes seats two: the lobby is full, and Join says so by being off.
    assert join_button(harness.world.messages[lobby.message.id]).get("disabled") is True


def test_an_ai_seat_has_one_name() -> None:
    """Narration (mentions' place) and pictures name an AI seat alike: "Normal AI"."""
    seat = SeatRecord(game_id=1, seat=1, user_id=None, ai_level="normal", name="", joined_at="")
    assert seat.display == "🤖 Normal AI" and seat.plain_name == "Normal AI"


async def test_the_chooser_counts_moves_as_its_board_does(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    await harness.slash(ana, emulator.general, "pyramid new", game="pyramido", mode="solo", size=4)
    thread = harness.threads(emulator.general)[0]
    board = boards(harness, thread)[-1]
    on_board = re.search(r"· move (\d+)", card_text(board))
    chooser = await harness.click(ana, board, label="▶ Your move")
    in_chooser = re.search(r"· move (\d+)", chooser.text)
    assert on_board and in_chooser and on_board.group(1) == in_chooser.group(1) == "0", (card_text(board),
                                                                                         chooser.text)
