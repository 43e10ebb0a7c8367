"""The web client's page in headless Chromium, with the toy bot: what it renders from a message's JSON
(Components V2, embeds, markdown, mentions, timestamps, pictures with alt text) and the slash-command box,
autocomplete and modals, used by clicking and typing. Screenshots go to ``out/screenshots/<test>/``."""

from __future__ import annotations

import json
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from emulator import Emulator, Harness, User
from emulator.messages import UploadedFile, announce_create, create_message
from emulator.web import WebClient
from tools.browser import Browser, find_chromium
from tools.page_player import Person, Shots

from .toybot import png_bytes

SCREENSHOTS = Path(__file__).resolve().parents[2] / "out" / "screenshots"


@pytest.fixture
async def tab(web: WebClient, alice: User, request: pytest.FixtureRequest) -> AsyncIterator[Person]:
    assert find_chromium() is not None, "Chromium is missing: run `python -m tools.browser --ensure`"
    folder = SCREENSHOTS / request.node.name
    shutil.rmtree(folder, ignore_errors=True)
    async with await Browser.launch() as browser:
        person = Person(await browser.new_page(1000, 800), "alice", web.url_for("alice"), Shots(folder))
        await person.open()
        yield person
        assert person.page.errors == []


def v2_card(mention: str) -> list[dict[str, object]]:
    return [{"type": 17, "accent_color": 0xE67E22, "components": [
        {"type": 10, "content": f"## Game #7\n**Bold** and *italic*, for {mention}, ends <t:4102444800:R>"},
        {"type": 9, "components": [{"type": 10, "content": "Your hand: 5 tiles"}],
         "accessory": {"type": 11, "media": {"url": "attachment://hand.png"}, "description": "five tiles"}},
        {"type": 14, "divider": True, "spacing": 2},
        {"type": 12, "items": [{"media": {"url": "attachment://board.png"}, "description": "the pyramid, 3 rows"}]},
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "+1", "custom_id": "toy:inc"},
                                   {"type": 2, "style": 5, "label": "Rules", "url": "https://example.com"}]},
        {"type": 1, "components": [{"type": 3, "custom_id": "toy:fruit", "placeholder": "Pick a fruit",
                                    "options": [{"label": "Apple", "value": "apple", "description": "red"}]}]},
    ]}]


async def test_components_v2_embeds_and_markdown_render_from_the_message_json(
    emulator: Emulator, bot: Harness, alice: User, tab: Person
) -> None:
    files = [UploadedFile(0, "hand.png", "image/png", png_bytes(40, 20)),
             UploadedFile(1, "board.png", "image/png", png_bytes(80, 40))]
    card = create_message(emulator, emulator.general, emulator.bot, {
        "flags": 1 << 15, "components": v2_card(alice.mention),
        "attachments": [{"id": 0, "filename": "hand.png"}, {"id": 1, "filename": "board.png"}]}, files)
    await announce_create(emulator, card)
    embed = create_message(emulator, emulator.general, emulator.bot, {"embeds": [{
        "title": "Lobby", "description": "Waiting for `players`", "color": 0x5865F2, "footer": {"text": "in <#1>"},
        "fields": [{"name": "Players", "value": f"1. {alice.mention}", "inline": True}]}]}, [])
    await announce_create(emulator, embed)
    emulator.notify()

    shown = await tab.wait_message(f"m.id === {json.dumps(str(embed.id))}", "the embed")
    assert "Lobby" in shown.text and "@alice" in shown.text and "in <#1>" in shown.text  # footers stay raw
    page = tab.page
    selector = f".msg[data-id='{card.id}']"
    found = await page.evaluate(f"""(() => {{ const m = document.querySelector("{selector}"); return {{
        accent: getComputedStyle(m.querySelector('.container')).borderLeftColor,
        h2: m.querySelector('.text-display h2').textContent,
        bold: m.querySelector('.text-display strong').textContent,
        mention: m.querySelector('.mention').textContent,
        relative: m.querySelector('.ts[data-r]').textContent,
        thumb: m.querySelector('.section-c .accessory img').alt,
        gallery: [...m.querySelectorAll('.gallery img')].map((i) => i.alt),
        separator: !!m.querySelector('hr.separator.line.large'),
        buttons: [...m.querySelectorAll('.btn')].map((b) => b.textContent),
        select: m.querySelector('.select .sel-head').textContent,
    }}; }})()""")
    assert found == {"accent": "rgb(230, 126, 34)", "h2": "Game #7", "bold": "Bold", "mention": "@alice",
                     "relative": found["relative"], "thumb": "five tiles", "gallery": ["the pyramid, 3 rows"],
                     "separator": True, "buttons": ["+1", "Rules ↗"], "select": "Pick a fruit⌄"}
    assert found["relative"].startswith("in ")
    await tab.shot("a components v2 card and an embed")

    # Its select goes to the bot like any other: the toy bot answers privately.
    await tab.choose(await tab.wait_message(f"m.id === {json.dumps(str(card.id))}", "the card"), "Apple")
    reply = await tab.newest(text="you chose apple", ephemeral=True)
    assert "Only you can see this" in reply.text
    await tab.shot("the select answered privately")


async def test_the_command_box_autocomplete_and_a_modal(
    emulator: Emulator, bot: Harness, bob: User, tab: Person
) -> None:
    await tab.page.click("#me .who")  # the user switch lists the server's people, one tab each
    people = await tab.page.wait_for("[...document.querySelectorAll('#me .menu .item')].map((i) => i.dataset.user)")
    assert sorted(people) == ["alice", "bob"]
    await tab.shot("the user switch")
    await tab.page.click("#me .who")

    await tab.slash("/toy pick", fruit="Apricot")  # typed "Apricot", picked from the bot's autocomplete
    assert "picked apricot" in (await tab.newest(text="picked")).text
    await tab.shot("an autocompleted command")

    await tab.slash("/toy feedback")
    await tab.page.wait_for("!!document.querySelector('.modal')", what="the modal")
    await tab.page.click(".modal input[data-custom-id='comment']")
    await tab.page.type("nice game")
    await tab.shot("the modal")
    await tab.page.click(".modal footer .btn")
    assert "thanks: nice game (no mood)" in (await tab.newest(text="thanks")).text
    await tab.page.wait_for("!document.querySelector('.modal')", what="the modal to close")
    await tab.shot("the modal's answer")
