"""A board half posted when the bot died (or the network failed) is finished, not taken for done.

A move's board goes out as the click's follow-up in two requests (``send_card`` in
``bot.play.posting.interaction_posts``: the card without its picture, then an edit that
adds it). A follow-up has no nonce, so a retry looks for the board among the channel's
latest messages (``Announcer._posted_before``). A SIGKILL between the two requests, or a
connection dropped on the second, leaves a card with the board's header and no picture;
the retry used to take it for the board and mark the row done: the game's newest board
was then missing for good (``test_sigkill`` saw it: 17 moves stored, the newest board
showed move 16, the outbox said all was delivered).
"""

from __future__ import annotations

from typing import Any

import pytest

from emulator.harness import Harness
from tests.bot.clock import FakeClock
from tests.bot.e2e.driver import HEADER, card_text, flaming_game_of, session_of, versions

#: Editing a follow-up: the request that adds the board's picture to its card.
EDIT_FOLLOWUP = "PATCH /webhooks/{webhook_id}/{token}/messages/{message_id}"


@pytest.mark.parametrize("restarted", [True, False], ids=["killed", "connection-dropped"])
async def test_a_board_whose_picture_never_went_up_is_completed_on_the_retry(
    emulator: Any, harness: Harness, clock: FakeClock, restarted: bool
) -> None:
    (ana, ben), thread, game_id = await flaming_game_of(emulator, harness, "ana", "ben")
    session = await session_of(harness, game_id)
    mover = {0: ana, 1: ben}[session.to_act]
    # The card goes up; the edit that adds its picture never arrives (the click's own answer is left alone).
    emulator.cut(EDIT_FOLLOWUP, where=lambda path: not path.endswith("/@original"))
    await harness.slash(mover, thread, "pyramid play", move=session.game.legal_moves(session.state)[0],
                        game=game_id, check=False)
    await harness.settle()
    headed = [m for m in harness.messages(thread) if (h := HEADER.search(card_text(m))) and h.group(2) == "1"]
    assert [m.png_attachments() for m in headed] == [[]], "the card of move 1 is there, without its picture"
    if restarted:  # the bot was killed right there; a new process takes over
        await harness.restart_bot()
    clock.advance(seconds=30)  # the retry is due
    await harness.bot.client.host.delivery.deliver_due()
    await harness.settle()

    rows = [tuple(r) for r in await harness.bot.services.store.db.read_all(
        "SELECT version, kind, seat, outcome FROM outbox WHERE game_id = ? ORDER BY id", (game_id,))]
    assert versions(harness, thread) == [0, 1], f"the board of move 1, with its picture (outbox: {rows})"
    headed = [m for m in harness.messages(thread) if (h := HEADER.search(card_text(m))) and h.group(2) == "1"]
    assert len(headed) == 1, "one card for move 1: the half-posted one completed, or replaced"
    assert (await harness.bot.services.store.outbox.backlog()).pending == 0
