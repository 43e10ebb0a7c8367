"""Hand pictures cost a drawing per hand that changed, however often they are shown.

A game's hand DMs, its 🂠 My hand clicks and its ``/pyramid hand`` commands show a
seat's hand at some move; the renderer draws each such view once and shows the
same bytes again (``bot.workers.rendering``). Counted by the bot's own renderer;
every picture a player got is checked against a fresh drawing of their own view."""

from __future__ import annotations

import re
from typing import Any

from bot.cards.boards import player_view
from emulator.harness import Harness
from emulator.model import Message
from render import hand_view, render_hand
from tests.bot.e2e.driver import boards, bot_of, flaming_game_of, session_of

#: The move a hand picture shows, as its DM or private reply says.
HAND_MOVE = re.compile(r"your hand after move (\d+)|Your hand in game #\d+ \(move (\d+)\)")

Shown = tuple[int, int, bytes]  # seat, move, picture


def hand_picture(seat: int, message: Message) -> Shown:
    found = HAND_MOVE.search(message.text)
    assert found is not None, message.text
    picture = message.attachment("hand.png")
    return seat, int(found.group(1) or found.group(2)), picture.data


async def test_a_hand_is_drawn_once_per_move_however_often_it_is_shown(emulator: Any, harness: Harness) -> None:
    users, thread, game_id = await flaming_game_of(emulator, harness, "ana", "ben")
    renderer = bot_of(harness).services.renderer
    shown: list[Shown] = []
    for _ in range(6):
        session = await session_of(harness, game_id)
        for seat, user in enumerate(users):  # each looks at their hand twice, from the board
            for _ in range(2):
                looked = await harness.click(user, boards(harness, thread)[-1], label="🂠 My hand")
                shown.append(hand_picture(seat, looked.last))
        to_act = session.to_act
        looked = await harness.slash(users[to_act], thread, "pyramid hand")
        shown.append(hand_picture(to_act, looked.last))
        move = session.game.legal_moves(session.state)[0]
        played = await harness.slash(users[to_act], thread, "pyramid play", move=move, game=game_id)
        assert "✅" in played.text, played.text
    replies = {seat: [m for m in harness.visible_messages(user, thread)  # the mover's hand, with the move's reply
                      if m.ephemeral and m.png_attachments() and "your hand after move" in m.text]
               for seat, user in enumerate(users)}
    for seat, user in enumerate(users):
        shown += [hand_picture(seat, m) for m in harness.dm(user) + replies[seat] if m.png_attachments()]

    views = {(seat, move) for seat, move, _ in shown}
    session = await session_of(harness, game_id)
    art = session.presenter.art
    sessions = bot_of(harness).services.sessions
    # What a hand picture shows (Art.hand_view): the seat's tiles and pile, not whose turn it is. A seat's
    # hand is the same from its move until its next one, so its turn's DM shows the picture drawn after
    # its move again.
    content = {(seat, move): repr(hand_view(player_view(await sessions.load_at(game_id, move), seat), art))
               for seat, move in views}
    pictures = renderer.pictures()
    assert pictures["hand", "drawn"] == len(set(content.values())) < len(views), "one drawing per hand shown"
    assert pictures["hand", "reused"] == len(shown) - pictures["hand", "drawn"]
    dms = sum(1 for user in users for m in harness.dm(user) if m.png_attachments())
    assert dms + sum(map(len, replies.values())) >= 6, "every move still shows the hands it did"
    for seat, move in views:
        same = {picture for s, m, picture in shown if (s, m) == (seat, move)}
        at = await bot_of(harness).services.sessions.load_at(game_id, move)
        assert same == {render_hand(player_view(at, seat), art=art)}, "the very bytes a drawing gives"
    for move in {m for _, m, _ in shown}:
        mine, theirs = ({p for s, m, p in shown if (s, m) == (seat, move)} for seat in (0, 1))
        assert not mine & theirs, "no seat is ever shown another's picture"


async def test_after_a_restart_the_hand_is_drawn_again_alike(emulator: Any, harness: Harness) -> None:
    users, thread, game_id = await flaming_game_of(emulator, harness, "ana", "ben")
    session = await session_of(harness, game_id)
    seat = session.to_act
    dm = next(hand_picture(seat, m) for m in reversed(harness.dm(users[seat])) if m.png_attachments())
    assert dm[1] == session.version
    await harness.restart_bot()
    looked = await harness.click(users[seat], boards(harness, thread)[-1], label="🂠 My hand")
    assert hand_picture(seat, looked.last) == dm
    assert bot_of(harness).services.renderer.pictures()["hand", "drawn"] == 1, "a new bot starts with no pictures kept"
