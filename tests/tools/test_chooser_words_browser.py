"""Issue #43, finding 5, in a real browser (``pyramid-bot demo`` with headless Chromium, as
``tests/tools/test_demo_browser.py``): the private chooser shows what the player sees, at a
desktop's width and a phone's. Continuous Pyramid offers its reserve tiles at once beside
↩ Undo, with the board its spot letters are on; Flaming Pyramids names the hand's tiles by
colour and weight and the spots by their letters, and the move is told in words. Screenshots
of every step in ``out/screenshots/<test>/``."""

from __future__ import annotations

import json
import re

import pytest

from tests.tools.test_demo_browser import browser, person, playground, shots_for  # noqa: F401 (fixtures)
from tools.browser import Browser
from tools.demo import Playground
from tools.page_player import Person, Shown, next_board, take_turn, whose_turn

pytestmark = pytest.mark.slow

#: A cell as the notation writes it; a Flaming Pyramids tile code.
CELL = re.compile(r"-?\d+\s*,\s*-?\d+")
FP_CODE = re.compile(r"\b[RGBYM]\d+\b")


async def open_chooser(who: Person, board: Shown) -> Shown:
    before = json.dumps(sorted(m.id for m in await who.messages()))
    await who.click_button(board, "Your move")
    return await who.wait_message(f"m.ephemeral && !{before}.includes(m.id) && m.buttons.length > 0",
                                  "the private move chooser")


#: The chooser's next step is shown: a step that draws a picture is answered "thinking…" first, with its
#: buttons held until the picture is there, so the edit to wait for is the one that offers buttons again.
OFFERS = "m.buttons.some((b) => b.enabled)"

async def test_continuous_pyramid_chooser_offers_tiles_and_its_board(
    playground: Playground, browser: Browser, request: pytest.FixtureRequest  # noqa: F811
) -> None:
    shots = shots_for(request)
    you = await person(browser, playground, "sam", shots)
    await you.slash("/pyramid new", game="Continuous Pyramid")
    thread = str(await you.page.wait_for(
        "(() => { const t = document.querySelector('.chan.thread .name'); return t && t.textContent; })()",
        what="the game's thread in the sidebar"))
    await you.open_channel(thread)
    board = await next_board(you, -1)
    await take_turn(you, board)  # one play: ↩ Undo is legal now too
    for _ in range(6):  # until the board asks for the chooser (a few plays are the board's own buttons)
        board = await next_board(you, board.move or 0)
        if any("Your move" in label for label in board.enabled()):
            break
        assert not any(CELL.search(label) for label in board.enabled()), board.enabled()
        await take_turn(you, board)
    chooser = await open_chooser(you, board)
    await you.shot("chooser")
    await you.shot_at_phone_width("chooser")
    labels = chooser.enabled()
    assert "Play a tile" not in labels and "↩ Undo" in labels, labels
    assert chooser.images >= 1, "the board its letters are on comes with the chooser"
    await you.click_button(chooser, labels[0])
    step = await you.wait_message(f"m.id === {json.dumps(chooser.id)} && m.edited !== {json.dumps(chooser.edited)}"
                                  f" && {OFFERS}", "the chooser's next step")
    await you.shot("spots")
    await you.shot_at_phone_width("spots")
    spots = [label for label in step.enabled() if label.startswith("Spot ")]
    assert spots == sorted(spots, key=lambda s: (len(s), s)) and not any(CELL.search(s) for s in step.enabled())
    assert you.page.errors == []


async def test_flaming_pyramids_chooser_reads_as_the_hand_picture(
    playground: Playground, browser: Browser, request: pytest.FixtureRequest  # noqa: F811
) -> None:
    shots = shots_for(request)
    you = await person(browser, playground, "sam", shots)
    ana = await person(browser, playground, "ana", shots)
    await you.slash("/pyramid new", game="Flaming Pyramids", turn_limit="8")
    lobby = await you.newest(button="Join")
    assert "Turn limit: 8" in lobby.text and "none" not in lobby.text, lobby.text
    await ana.click_button(await ana.newest(button="Join"), "Join")
    await you.click_button(await you.newest(button="Start"), "Start")
    thread = str(await you.page.wait_for(
        "(() => { const t = document.querySelector('.chan.thread .name'); return t && t.textContent; })()",
        what="the game's thread in the sidebar"))
    for p in (you, ana):
        await ana.page.wait_for("!!document.querySelector('.chan.thread')", what="the thread in the sidebar")
        await p.open_channel(thread)
    after = -1
    for _turn in range(6):  # a tile that fits one spot only is played at once: the next turn tries again
        board = await next_board(you, after)
        mover = await whose_turn([you, ana], board)
        assert mover is not None
        board = await next_board(mover, after)
        before = json.dumps(sorted(m.id for m in await mover.messages()))
        chooser = await open_chooser(mover, board)
        await mover.shot("chooser")
        await mover.shot_at_phone_width("chooser")
        tiles = [label for label in chooser.enabled() if "Back" not in label and "Forecast" not in label]
        assert tiles and not any(FP_CODE.search(t) for t in tiles), tiles
        assert all(re.search(r"(Red|Green|Blue|Yellow|Millstone) \d+$", t) for t in tiles), tiles
        await mover.click_button(chooser, tiles[0])
        this, edited = json.dumps(chooser.id), json.dumps(chooser.edited)
        step = await mover.wait_message(
            f"(m.id === {this} && m.edited !== {edited} && {OFFERS}) || (m.text.includes('✅ You played')"
            f" && (m.id === {this} ? m.edited !== {edited} : !{before}.includes(m.id)))", "the chooser's next step")
        if "✅ You played" in step.text:  # its one spot: played at once, and told in words all the same
            assert "`play" not in step.text and not CELL.search(step.text), step.text
            after = board.move if board.move is not None else after
            continue
        await mover.shot("spots")
        await mover.shot_at_phone_width("spots")
        spots = [label for label in step.enabled() if label.startswith("Spot ")]
        assert spots, step.enabled()
        await mover.click_button(step, spots[0])
        done = await mover.wait_message(f"m.text.includes('✅ You played {tiles[0]} to spot')",
                                        "the move told in words")
        await mover.shot("played")
        await mover.shot_at_phone_width("played")
        assert "`play" not in done.text and not CELL.search(done.text), done.text
        break
    else:
        raise AssertionError("six turns in a row, every first tile fitted one spot only")
    assert you.page.errors == [] and ana.page.errors == []
