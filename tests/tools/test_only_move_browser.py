"""Issue #43, finding 1, in a real browser (``pyramid-bot demo`` with headless Chromium, as
``tests/tools/test_demo_browser.py``): a player who only clicks plays Pyramido solo (the small
pyramid, size 4) and is never stuck. Once every stone of the hand is placed, "End turn" is the
only legal move: ▶ Your move opens a chooser that offers it as a button, and clicking it ends the
turn (the chooser once showed "So far: ✅ End turn / Choose a stone:" with no button, and only a
typed ``/pyramid play move:end`` got out). Screenshots at 1280 and 400 px in
``out/screenshots/<test>/``; "This interaction failed" on the page fails the test
(``Person.idle``), as does any rule of Discord's the bot broke (the ``playground`` fixture)."""

from __future__ import annotations

import json

import pytest

from tests.tools.test_demo_browser import browser, person, playground, shots_for  # noqa: F401 (fixtures)
from tools.browser import Browser, BrowserError
from tools.demo import Playground
from tools.page_player import Person, Shown, next_board

pytestmark = pytest.mark.slow

#: Stones placed before the test gives up looking for an emptied hand (a solo hand holds six).
MOST_PLACES = 24


async def shot(who: Person, what: str) -> None:
    """A screenshot at the desktop's width with the newest message in view, then the same at a phone's."""
    await who.page.evaluate("(() => { const b = document.querySelector('#messages'); "
                            "b.scrollTop = b.scrollHeight; })()")
    await who.shot(what)
    await who.shot_at_phone_width(what)


async def open_chooser(who: Person, board: Shown) -> Shown:
    """▶ Your move on ``board``: the private chooser, with its buttons."""
    before = json.dumps(sorted(m.id for m in await who.messages()))
    await who.click_button(board, "Your move")
    return await who.wait_message(f"m.ephemeral && !{before}.includes(m.id) && m.buttons.length > 0",
                                  "the private move chooser")


async def next_step(who: Person, step: Shown) -> Shown:
    """The chooser as the bot's edit of it after a click (not what the click showed at once)."""
    return await who.wait_message(f"m.id === {json.dumps(step.id)} && m.edited !== {json.dumps(step.edited)}",
                                  "the chooser's next step")


async def place_a_stone(who: Person, chooser: Shown) -> None:
    """Place the first stone offered on the first cell offered, by the chooser's buttons alone."""
    step = chooser
    for _ in range(6):
        if "✅ You played" in step.text:
            return
        if "⏳" in step.text:  # "Playing…": the move is on its way, the chooser's last edit follows
            step = await next_step(who, step)
            continue
        offers = [label for label in step.enabled() if "Back" not in label]
        assert offers, f"a chooser step without a button to click: {step.text!r}"
        place = next((label for label in offers if "Place" in label), offers[0])
        await who.click_button(step, place)
        step = await next_step(who, step)
    raise BrowserError(f"placing a stone did not end in a move: {step.text!r}")


async def test_a_click_only_player_ends_the_turn_when_it_is_the_only_move(
    playground: Playground, browser: Browser, request: pytest.FixtureRequest  # noqa: F811
) -> None:
    shots = shots_for(request)
    you = await person(browser, playground, "sam", shots)
    await you.slash("/pyramid new", game="Pyramido", size="4")
    thread = str(await you.page.wait_for(
        "(() => { const t = document.querySelector('.chan.thread .name'); return t && t.textContent; })()",
        what="the game's thread in the sidebar"))
    await you.open_channel(thread)
    board = await next_board(you, -1)
    assert "Pyramido" in board.text and board.images >= 1, board.text
    await shot(you, "the solo game's first board")

    # Place stones until the hand is empty: then ending the turn is the only legal move.
    only: Shown | None = None
    for _ in range(MOST_PLACES):
        chooser = await open_chooser(you, board)
        offers = [label for label in chooser.enabled() if "Back" not in label]
        if not any("Place" in label for label in offers):
            only = chooser
            break
        await place_a_stone(you, chooser)
        board = await next_board(you, board.move or 0)
    assert only is not None, f"the hand never emptied within {MOST_PLACES} stones"
    await shot(you, "the chooser with the only legal move")
    assert only.enabled() == ["✅ End turn"], (only.text, only.enabled())
    assert "Choose a stone" not in only.text, only.text
    # 🂠 My hand comes with the same chooser under the hand: the only move is a button there too
    before = json.dumps(sorted(m.id for m in await you.messages()))
    await you.click_button(board, "My hand")
    hand = await you.wait_message(f"m.ephemeral && !{before}.includes(m.id) && m.buttons.length > 0",
                                  "the hand with its chooser")
    assert hand.enabled() == ["✅ End turn"], (hand.text, hand.enabled())
    await shot(you, "my hand with the only legal move")

    turn_before = board.move or 0
    await you.click_button(only, "End turn")
    done = await next_step(you, only)
    while "⏳" in done.text:
        done = await next_step(you, done)
    assert "✅ You played" in done.text or "ended the turn" in done.text, done.text
    await shot(you, "the turn ended by its button")
    after = await next_board(you, turn_before)
    assert "ended the turn after placing" in after.text, after.text
    assert any("Your move" in label for label in after.enabled()), after.enabled()
    chooser = await open_chooser(you, after)
    assert any("Place" in label for label in chooser.enabled()), "the hand was refilled: stones to place again"
    await shot(you, "the next turn's chooser")
    assert you.page.errors == []
