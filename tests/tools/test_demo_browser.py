"""``pyramid-bot demo`` in a real browser: the emulator, the bot as its own process (``python -m bot``) and the
emulator's web client, with headless Chromium clicking in the page as the players do. Each step is saved as a
screenshot in ``out/screenshots/<test>/`` (numbered, in order), for anyone to look at.

Chromium comes from Debian's packages: ``python -m tools.browser --ensure`` installs it (CI does)."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.paths import REPO
from tools.browser import Browser, find_chromium
from tools.demo import Playground
from tools.page_player import Person, Shots, next_board, play, take_turn, whose_turn

SCREENSHOTS = REPO / "out" / "screenshots"

pytestmark = pytest.mark.slow  # each plays a whole game, a few minutes on a busy machine


@pytest.fixture
async def playground(tmp_path: Path) -> AsyncIterator[Playground]:
    async with Playground(tmp_path / "demo", ai_delay_seconds=0) as running:
        yield running
        assert running.violations() == [], "the bot broke Discord's rules"


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    assert find_chromium() is not None, "Chromium is missing: run `python -m tools.browser --ensure`"
    launched = await Browser.launch()
    try:
        yield launched
    finally:
        await launched.close()


def shots_for(request: pytest.FixtureRequest) -> Shots:
    folder = SCREENSHOTS / request.node.name
    shutil.rmtree(folder, ignore_errors=True)
    return Shots(folder)


async def person(browser: Browser, playground: Playground, name: str, shots: Shots) -> Person:
    page = await browser.new_page(1280, 900)
    who = Person(page, name, playground.url_for(name), shots)
    await who.open()
    return who


async def test_two_players_play_flaming_pyramids_to_the_end_by_clicking(
    playground: Playground, browser: Browser, request: pytest.FixtureRequest
) -> None:
    shots = shots_for(request)
    you = await person(browser, playground, "sam", shots)
    ana = await person(browser, playground, "ana", shots)

    # A short game (the turn limit is an option of /pyramid new): fewest tiles after 4 turns each wins.
    await you.slash("/pyramid new", game="Flaming Pyramids", turn_limit="8")
    lobby = await you.newest(button="Join")
    assert "Flaming Pyramids" in lobby.text and "Turn limit: 8" in lobby.text and "/pyramid" in lobby.text
    await you.shot("lobby")
    lobby = await ana.newest(button="Join")
    await ana.click_button(lobby, "Join")
    await ana.newest(text="@ana")
    await ana.shot("joined the lobby")
    await you.click_button(await you.newest(button="Start"), "Start")

    # The game's thread appears in both sidebars, live.
    thread = str(await you.page.wait_for(
        "(() => { const t = document.querySelector('.chan.thread .name'); return t && t.textContent; })()",
        what="the game's thread in the sidebar"))
    await ana.page.wait_for("!!document.querySelector('.chan.thread')", what="the thread in ana's sidebar")
    for p in (you, ana):
        await p.open_channel(thread)
    first = await next_board(you, -1)
    opener = await whose_turn([you, ana], first)
    assert opener is not None
    other = ana if opener is you else you
    await opener.shot("first board")
    await opener.shot_at_phone_width("first board")

    # The other player looks elsewhere; the opener's move pings them: a badge on the thread and in the title.
    await other.open_channel("general")
    await take_turn(opener, first)
    await other.page.wait_for("(document.querySelector('.chan.thread .badge') || {}).textContent === '1'",
                              what="a ping badge on the game's thread")
    assert await other.notification_count() == 1
    await other.shot("a ping badge on the thread")
    await other.open_channel(thread)
    await other.page.wait_for("!document.querySelector('.chan.thread .badge')", what="the badge to clear")
    assert await other.notification_count() == 0

    last = await play([you, ana])
    assert "Game over" in last.text
    assert last.enabled() == [], "a finished game's board keeps no buttons"
    replay = await you.newest(text="/pyramid replay")
    assert replay.images >= 1, "the replay's animated picture shows"
    await you.shot("game over with the replay")
    await ana.shot("game over with the replay")
    await ana.shot_at_phone_width("game over with the replay")
    assert you.page.errors == [] and ana.page.errors == []
    assert len(shots.taken) > 20


async def test_the_daily_deal_solo_in_the_dms_by_clicking(
    playground: Playground, browser: Browser, request: pytest.FixtureRequest
) -> None:
    shots = shots_for(request)
    you = await person(browser, playground, "sam", shots)
    ana = await person(browser, playground, "ana", shots)

    await you.slash("/pyramid daily")
    started = await you.newest(text="waiting in your DMs", ephemeral=True)
    assert "Only you can see this" in started.text
    await you.shot("the daily deal is waiting")
    assert not [m for m in await ana.messages() if "waiting in your DMs" in m.text], "ephemeral: only for you"

    await you.open_channel("PyramidBot")
    board = await next_board(you, -1)
    assert "Continuous Pyramid" in board.text and board.images == 1
    await you.shot("the deal in the DMs")
    await you.shot_at_phone_width("the deal in the DMs")
    await play([you], moves=4, prefer=("Play",))
    await you.slash("/pyramid resign")  # giving up ends the day's game: it counts as played
    await you.shot("/pyramid resign")
    await you.newest(text="🏳")
    done = await you.newest(text="is done")
    assert "Streak: 1 day" in done.text, done.text
    await you.shot("game over")
    await you.shot_at_phone_width("game over")
    assert you.page.errors == []
