"""``pyramid-bot demo`` in a real browser: the emulator, the bot as its own process (``python -m bot``) and the
emulator's web client, with headless Chromium clicking in the page as the players do. Each step is saved as a
screenshot in ``out/screenshots/<test>/`` (numbered, in order), for anyone to look at.

Chromium comes from Debian's packages: ``python -m tools.browser --ensure`` installs it (CI does)."""

from __future__ import annotations

import json
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
    assert last.enabled() == ["🔁 Rematch", "🔐 Fair deal"], "a finished game's card offers its ending's buttons"
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


async def test_a_newcomer_starts_from_the_welcome_card_sets_options_and_follows_links_in_the_page(
    playground: Playground, browser: Browser, request: pytest.FixtureRequest
) -> None:
    """Finding 9 of issue 43, clicked through: the first page suggests a game of each kind; the lobby's Options
    form shows checkboxes (not "an input of type 23"); links to a game or to the DMs open in the page."""
    shots = shots_for(request)
    you = await person(browser, playground, "sam", shots)
    page = you.page
    offered = await page.wait_for(
        "(() => { const s = [...document.querySelectorAll('.welcome .suggestion')].map((b) => b.textContent);"
        " return s.length ? s : null; })()", what="the welcome's suggestions")
    games = [s for s in offered if s.startswith("/pyramid new game:")]
    assert len(games) == 4 and "/pyramid new game:Flaming Pyramids" in games, offered
    await you.shot("the welcome card")
    await you.shot_at_phone_width("the welcome card")

    await you._click_marked("[...document.querySelectorAll('.welcome .suggestion')]"
                            ".find((b) => b.textContent === '/pyramid new game:Flaming Pyramids')", "a suggestion")
    await page.press("Enter")
    await you.idle()
    lobby = await you.newest(button="Options")
    await you.click_button(lobby, "Options")
    await page.wait_for("!!document.querySelector('.modal')", what="the Options form")
    unknown = await page.evaluate("[...document.querySelectorAll('.modal .unknown-c')].map((u) => u.textContent)")
    assert unknown == []
    boxes = await page.evaluate("[...document.querySelectorAll('.modal input[type=checkbox]')].map((b) => b.checked)")
    assert boxes and not any(boxes), "the game's yes/no options are checkboxes, unticked by default"
    await page.click(".modal input[type=checkbox]")
    await you.shot("the Options form with a checkbox ticked")
    await you.shot_at_phone_width("the Options form with a checkbox ticked")
    await page.click(".modal footer .btn")
    await you.idle()
    await page.wait_for("!document.querySelector('.modal')", what="the form to close")
    changed = await you.wait_message(f"m.id === {json.dumps(lobby.id)} && m.edited !== {json.dumps(lobby.edited)}",
                                     "the lobby with the option set")
    assert changed.text != lobby.text
    await you.shot("the lobby with the option set")

    await you.choose(changed, "easy")
    await you.click_button(await you.newest(button="Start"), "Start")
    thread = str(await page.wait_for(
        "(() => { const t = document.querySelector('.chan.thread .name'); return t && t.textContent; })()",
        what="the game's thread in the sidebar"))
    # /pyramid games links to the game: the link opens its thread here, not discord.com
    await you.slash("/pyramid games")
    listed = await you.newest(text="Flaming Pyramids", ephemeral=True)
    await you.shot("my games, with links")
    link = f"document.querySelector(\".msg[data-id='{listed.id}'] a[data-jump-channel]\")"
    await you._click_marked(link, "the link to the game")
    await page.wait_for(f"document.querySelector('#chat-name').textContent.endsWith({json.dumps(thread)})",
                        what="the game's thread to open")
    assert await page.evaluate("location.origin") in str(await page.evaluate("location.href"))
    await you.shot("the game's thread, opened from the link")
    await you.shot_at_phone_width("the game's thread, opened from the link")

    # the daily deal's "waiting in your DMs" links to the DM: it opens in the page too
    await you.open_channel("general")
    await you.slash("/pyramid daily")
    started = await you.newest(text="waiting in your DMs", ephemeral=True)
    await you._click_marked(f"document.querySelector(\".msg[data-id='{started.id}'] a[data-jump-channel]\")",
                            "the link to the DMs")
    await page.wait_for("document.querySelector('#chat-name').textContent === '@PyramidBot'", what="the DM to open")
    await you.shot("the DMs, opened from the link")
    await you.shot_at_phone_width("the DMs, opened from the link")
    assert you.page.errors == []


async def test_an_ending_by_resignation_its_final_card_fair_deal_and_rematch(
    playground: Playground, browser: Browser, request: pytest.FixtureRequest
) -> None:
    """Issue 43, finding 8: after a resignation the last board becomes the final card (who won, no "your
    turn", told once); 🔐 Fair deal answers privately (the card carries no hash); 🔁 Rematch opens a lobby
    with the other player invited. Screenshots at 1280 and 400 px."""
    shots = shots_for(request)
    you = await person(browser, playground, "sam", shots)
    ana = await person(browser, playground, "ana", shots)
    await you.slash("/pyramid new", game="Flaming Pyramids", turn_limit="8")
    lobby = await ana.newest(button="Join")
    await ana.click_button(lobby, "Join")
    await ana.newest(text="@ana")
    await you.click_button(await you.newest(button="Start"), "Start")
    thread = str(await you.page.wait_for(
        "(() => { const t = document.querySelector('.chan.thread .name'); return t && t.textContent; })()",
        what="the game's thread in the sidebar"))
    await ana.page.wait_for("!!document.querySelector('.chan.thread')", what="the thread in ana's sidebar")
    for p in (you, ana):
        await p.open_channel(thread)
    first = await next_board(you, -1)
    assert "sha256" not in first.text and "🔐 Fair deal" in first.enabled(), first.text
    await you.click_button(first, "🔐 Fair deal")
    sealed = await you.newest(text="Deal sealed", ephemeral=True)
    assert "sha256:" in sealed.text and "salt `" not in sealed.text, sealed.text
    await you.shot("the fair deal's seal, privately")
    await you.shot_at_phone_width("the fair deal's seal, privately")

    opener = await whose_turn([you, ana], first)
    assert opener is not None
    other = ana if opener is you else you
    await take_turn(opener, first)
    await other.slash("/pyramid resign")
    final = await opener.wait_message("m.text.includes('Game over') && m.buttons.some((b) => b.label.includes("
                                      "'Rematch'))", "the final card")
    assert f"@{other.name} resigned. @{opener.name} wins." in final.text, final.text
    assert "your turn" not in final.text and "sha256" not in final.text and final.images == 1, final.text
    assert final.enabled() == ["🔁 Rematch", "🔐 Fair deal"], final.enabled()
    told = [m for m in await opener.messages() if "resigned" in m.text and not m.ephemeral]
    assert len(told) == 1, [m.text for m in told]
    for p in (opener, other):
        await p.shot("the final card after a resignation")
        await p.shot_at_phone_width("the final card after a resignation")

    await opener.click_button(final, "🔐 Fair deal")
    revealed = await opener.newest(text="Deal revealed", ephemeral=True)
    assert "sha256sum" in revealed.text, revealed.text
    await opener.shot("the fair deal revealed, privately")
    await opener.shot_at_phone_width("the fair deal revealed, privately")

    await other.click_button(final, "🔁 Rematch")
    rematch = await opener.newest(text="A rematch of game", button="Join")
    assert f"@{opener.name}" in rematch.text and "Turn limit: 8" in rematch.text, rematch.text
    for p in (opener, other):
        await p.shot("the rematch lobby")
        await p.shot_at_phone_width("the rematch lobby")
    await opener.click_button(rematch, "Join")
    await opener.newest(text=f"{opener.name} joined")
    await other.shot("the rematch lobby, joined")
    assert you.page.errors == [] and ana.page.errors == []
