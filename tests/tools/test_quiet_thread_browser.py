"""Issue #43, finding 4, in a real browser (``pyramid-bot demo`` with headless Chromium, as
``tests/tools/test_demo_browser.py``): Flaming Pyramids against an AI keeps its thread quiet. The
thread gets one card per turn of the human player: the AI's moves are told on the human's next card
(no card of its own, no "it's your turn" card for the AI's turn). An OLD card keeps its buttons and
its ▶ Your move opens the chooser for the game as it stands now (it once answered "out of date" with
a button-less copy). Screenshots at 1280 and 400 px in ``out/screenshots/<test>/``; "This interaction
failed" on the page fails the test (``Person.idle``), as does any rule of Discord's the bot broke
(the ``playground`` fixture)."""

from __future__ import annotations

import json
import re

import pytest

from tests.tools.test_demo_browser import browser, person, playground, shots_for  # noqa: F401 (fixtures)
from tools.browser import Browser, BrowserError
from tools.demo import Playground
from tools.page_player import BOARD, Person, Shown, next_board, take_turn, whose_turn

pytestmark = pytest.mark.slow

#: The player's turns before the old card is tried (the game has a turn limit of 8: four each).
TURNS = 3

#: Every card the open channel shows (not only the newest few): its id, move number and text.
CARDS_JS = """
[...document.querySelectorAll('#messages .msg')].filter((m) => !m.classList.contains('ephemeral'))
  .map((m) => ({id: m.dataset.id, text: m.innerText})).filter((m) => /game #\\d+ · move \\d+/.test(m.text))
"""


async def cards(who: Person) -> list[dict[str, str]]:
    return list(await who.page.evaluate(CARDS_JS))


async def shot(who: Person, what: str) -> None:
    """A screenshot at the desktop's width with the newest message in view, then the same at a phone's."""
    await who.page.evaluate("(() => { const b = document.querySelector('#messages'); "
                            "b.scrollTop = b.scrollHeight; })()")
    await who.shot(what)
    await who.shot_at_phone_width(what)


async def open_chooser(who: Person, card_id: str) -> Shown:
    """▶ Your move on the card ``card_id`` (scrolled to, wherever it is in the thread): the private chooser."""
    before = json.dumps(sorted(m.id for m in await who.messages()))
    await who.page.evaluate(f"document.querySelector(\".msg[data-id='{card_id}']\").scrollIntoView()")
    find = (f"[...document.querySelectorAll('.msg[data-id=\"{card_id}\"] .btn')]"
            ".find((b) => !b.disabled && b.textContent.includes('Your move'))")
    await who._click_marked(find, "▶ Your move on an old card")
    await who.idle()
    return await who.wait_message(f"m.ephemeral && !{before}.includes(m.id) && m.buttons.length > 0",
                                  "the private move chooser")


def move_of(text: str) -> int:
    found = re.search(r"· move (\d+)", text)
    assert found is not None, text
    return int(found[1])


async def test_one_card_per_turn_and_an_old_cards_your_move_opens_todays_chooser(
    playground: Playground, browser: Browser, request: pytest.FixtureRequest  # noqa: F811
) -> None:
    shots = shots_for(request)
    you = await person(browser, playground, "sam", shots)
    await you.slash("/pyramid new", game="Flaming Pyramids", turn_limit="8")
    await you.choose(await you.newest(button="Start"), "easy")
    await you.newest(text="AI")
    await you.click_button(await you.newest(button="Start"), "Start")
    thread = str(await you.page.wait_for(
        "(() => { const t = document.querySelector('.chan.thread .name'); return t && t.textContent; })()",
        what="the game's thread in the sidebar"))
    await you.open_channel(thread)

    # Every card in the thread is the player's turn: the AI's turns are told on the next one. Only the first
    # card (the deal and its seal) may come with the AI to act, when it opens: it says so, not "your turn".
    board = await next_board(you, -1)
    first = (await cards(you))[0]
    opening: list[str] = []
    if "🤖" in first["text"].split("· move 0")[-1].split("\n")[1]:  # the AI opens: the line under the header
        assert "moves first" in first["text"] and "your turn" not in first["text"], first["text"]
        opening.append(first["id"])
        await shot(you, "the AI opens")
        board = await next_board(you, 0)
    acted: list[str] = []  # the cards the player acted on: one per turn, and a fall's decision within a turn
    turns = 0
    while turns < TURNS:
        assert "Game over" not in board.text, board.text
        if await whose_turn([you], board) is not you:
            raise BrowserError(f"a card for a turn that is not the player's: {board.text[:300]!r}")
        falling = "Fall left" in " ".join(board.enabled())  # the player's own move asks where a tile falls
        if (acted or opening) and not falling:
            assert "🤖" in board.text, f"the AI's move is told on the player's next card: {board.text[:300]!r}"
        acted.append(board.id)
        await take_turn(you, board)
        board = await next_board(you, board.move or 0)
        if "Fall left" not in " ".join(board.enabled()):  # a fall to choose is the same turn going on
            turns += 1
    shown = await cards(you)
    assert [c["id"] for c in shown] == [*opening, *acted, board.id], [c["text"][:80] for c in shown]
    assert not [m for m in await you.messages() if not m.ephemeral and "it's your turn" in m.text.lower()
                and BOARD.search(m.text) is None], "no extra message per AI turn"
    await shot(you, "one card per turn")

    # The first card is old now: its buttons still work, and ▶ Your move opens the chooser of the game now.
    newest = await you.wait_message(f"m.id === {json.dumps(board.id)}", "the newest card")
    fresh = await open_chooser(you, newest.id)
    old = await open_chooser(you, acted[0])
    await shot(you, "the chooser from an old card")
    assert "out of date" not in old.text.lower(), old.text
    assert move_of(old.text) == move_of(fresh.text) == newest.move, (old.text, fresh.text, newest.move)
    assert old.enabled() == fresh.enabled(), (old.enabled(), fresh.enabled())
    step = old
    for _ in range(6):  # play the move from the old card's chooser, first offer at each step
        if "✅ You played" in step.text:
            break
        if "⏳" not in step.text:
            offers = [label for label in step.enabled() if "Back" not in label]
            assert offers, step.text
            await you.click_button(step, offers[0])
        step = await you.wait_message(f"m.id === {json.dumps(step.id)} && m.edited !== {json.dumps(step.edited)}",
                                      "the chooser's next step")
    assert "✅ You played" in step.text, step.text
    await shot(you, "played from the old card's chooser")
    after = await next_board(you, newest.move or 0)
    assert after.id not in acted and after.id != newest.id, "the move made from the old card goes on as any"
    assert [c["id"] for c in await cards(you)] == [*opening, *acted, newest.id, after.id]
    await shot(you, "the next card")
    assert you.page.errors == []
