"""A board half posted when the bot died (or the network failed) is finished, not taken for done.

A move's board goes out as the click's follow-up in two requests (``send_card`` in
``bot.posting.interaction_posts``: the card without its picture, then an edit that
adds it). A follow-up has no nonce, so a retry looks for the board among the channel's
latest messages (``Announcer._posted_before``). A SIGKILL between the two requests, or a
connection dropped on the second, leaves a card with the board's header and no picture;
the retry used to take it for the board and mark the row done: the game's newest board
was then missing for good (``test_sigkill`` saw it: 17 moves stored, the newest board
showed move 16, the outbox said all was delivered).
"""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest

from bot.cards.cards import card
from emulator.harness import Harness
from emulator.messages import delete_message
from tests.bot.clock import FakeClock
from tests.bot.e2e.driver import HEADER, card_text, flaming_game_of, session_of, versions

#: Editing a follow-up: the request that adds the board's picture to its card.
EDIT_FOLLOWUP = "PATCH /webhooks/{webhook_id}/{token}/messages/{message_id}"


#: Editing a message with the bot's token: how a half-posted board gets its picture on the retry.
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


async def play_first_legal(harness: Harness, thread: Any, game_id: int, users: dict[int, Any]) -> None:
    session = await session_of(harness, game_id)
    await harness.slash(users[session.to_act], thread, "pyramid play", move=session.game.legal_moves(session.state)[0],
                        game=game_id, check=False)


def cards_of_move(harness: Harness, thread: Any, move: int) -> list[Any]:
    return [m for m in harness.messages(thread) if (h := HEADER.search(card_text(m))) and h.group(2) == str(move)]


@pytest.mark.parametrize("restarted", [True, False], ids=["killed", "connection-dropped"])
async def test_a_board_whose_picture_never_went_up_is_completed_on_the_retry(
    emulator: Any, harness: Harness, clock: FakeClock, restarted: bool
) -> None:
    (ana, ben), thread, game_id = await flaming_game_of(emulator, harness, "ana", "ben")
    users = {0: ana, 1: ben}
    await play_first_legal(harness, thread, game_id, users)
    assert versions(harness, thread) == [0, 1] and not emulator.requests_to(EDIT), "a whole board: nothing to finish"

    # The card goes up; the edit that adds its picture never arrives (the click's own answer is left alone).
    emulator.cut(EDIT_FOLLOWUP, where=lambda path: not path.endswith("/@original"))
    await play_first_legal(harness, thread, game_id, users)
    await harness.settle()
    assert [m.png_attachments() for m in cards_of_move(harness, thread, 2)] == [[]], "move 2's card, no picture"
    if restarted:  # the bot was killed right there; a new process takes over
        await harness.restart_bot()
    clock.advance(seconds=30)  # the retry is due
    await harness.bot.client.host.delivery.deliver_due()
    await harness.settle()

    rows = [tuple(r) for r in await harness.bot.services.store.db.read_all(
        "SELECT version, kind, seat, outcome FROM outbox WHERE game_id = ? ORDER BY id", (game_id,))]
    assert versions(harness, thread) == [0, 1, 2], f"the board of move 2, with its picture (outbox: {rows})"
    assert len(cards_of_move(harness, thread, 2)) == 1, "one card for move 2: the half-posted one, completed"
    assert len(emulator.requests_to(EDIT)) == 1, "its picture edited in: one request, nobody pinged twice"
    assert (await harness.bot.services.outbox.backlog()).pending == 0


async def test_a_half_posted_board_deleted_before_its_picture_goes_in_is_posted_anew(
    emulator: Any, harness: Harness, clock: FakeClock
) -> None:
    """The card is found, then deleted (a moderator) before the edit: the edit's "Unknown Message"
    would mark the row done with nothing shown, so the board is posted anew instead."""
    (ana, ben), thread, game_id = await flaming_game_of(emulator, harness, "ana", "ben")
    emulator.cut(EDIT_FOLLOWUP, where=lambda path: not path.endswith("/@original"))
    await play_first_legal(harness, thread, game_id, {0: ana, 1: ben})
    await harness.settle()
    [bare] = cards_of_move(harness, thread, 1)
    found = await harness.bot.client.get_partial_messageable(thread.id).fetch_message(bare.id)  # as the retry saw it
    await delete_message(emulator, bare)
    picture = discord.File(io.BytesIO(b"\x89PNG\r\n\x1a\n"), filename="board.png", description="the board")
    announcer = harness.bot.client.host.announcer
    assert await announcer._picture_in(found, card(["x"], files=[picture]), picture,
                                       discord.AllowedMentions.none()) is None
    clock.advance(seconds=30)
    await harness.bot.client.host.delivery.deliver_due()
    await harness.settle()
    assert versions(harness, thread) == [0, 1]
    assert (await harness.bot.services.outbox.backlog()).pending == 0
