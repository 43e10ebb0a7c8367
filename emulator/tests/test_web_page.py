"""The web client's page in headless Chromium, with the toy bot: what it renders from a message's JSON
(Components V2, embeds, markdown, mentions, timestamps, pictures with alt text) and the slash-command box,
autocomplete and modals, used by clicking and typing. Screenshots go to ``out/screenshots/<test>/``."""

from __future__ import annotations

import asyncio
import json
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from emulator import Emulator, Harness, User
from emulator.limits import LABEL_CHILDREN
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
        person = Person(await browser.new_page(1280, 800), "alice", web.url_for("alice"), Shots(folder))
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


async def test_a_keystroke_left_in_an_autocomplete_when_the_command_is_dropped_breaks_nothing(
    emulator: Emulator, bot: Harness, tab: Person
) -> None:
    """The autocomplete asks the bot 200 ms after the last keystroke; a command dropped (Escape) or sent
    meanwhile must leave that late question unasked, not throw in the page (a fresh clone's CI met it)."""
    page = tab.page
    await page.click("#input")
    await page.type("/")
    await page.click(".cmd-item[data-command='/toy pick']")
    await page.click("#cmd-form .opt[data-option='fruit'] input")
    await page.type("Apr")
    await page.press("Escape")  # within the 200 ms
    await asyncio.sleep(0.5)
    assert page.errors == []


async def both_widths(tab: Person, what: str) -> None:
    """A screenshot at desktop width (1280 px) and one at a phone's (400 px)."""
    await tab.shot(what)
    await tab.shot_at_phone_width(what)


async def test_every_input_a_modal_holds_is_shown_and_submitted_as_discord_does(
    emulator: Emulator, bot: Harness, tab: Person
) -> None:
    """A Label-wrapped checkbox, radio group, checkbox group and select, and a text display: each shown as an
    input one can use (none as "an input of type N this client cannot show"), submitted with the values
    Discord's client sends (a checkbox's true/false, a radio group's value, a group's values, a select's)."""
    page = tab.page
    await tab.slash("/toy options")
    await page.wait_for("!!document.querySelector('.modal')", what="the modal")
    shown = await page.evaluate("""(() => { const m = document.querySelector('.modal'); return {
        unknown: [...m.querySelectorAll('.unknown-c')].map((u) => u.textContent),
        text: m.querySelector('.text-display').textContent,
        checkbox: m.querySelector("input[type=checkbox][data-custom-id='curse']").checked,
        radios: [...m.querySelectorAll("[data-custom-id='size'] input[type=radio]")].map((r) => [r.value, r.checked]),
        boxes: [...m.querySelectorAll("[data-custom-id='extras'] input[type=checkbox]")].map((r) => r.value),
        select: !!m.querySelector(".select[data-custom-id='colour']"),
    }; })()""")
    assert shown == {"unknown": [], "text": "Pick what the game plays with.", "checkbox": False,
                     "radios": [["small", True], ["large", False]], "boxes": ["jokers", "timer", "hints"],
                     "select": True}
    await page.click(".modal input[data-custom-id='curse']")
    await page.click(".modal [data-custom-id='size'] input[value='large']")
    await page.click(".modal [data-custom-id='extras'] input[value='jokers']")
    await page.click(".modal [data-custom-id='extras'] input[value='timer']")
    # max_values is 2: the third box waits until one of the others is unticked
    hints = "document.querySelector(\".modal [data-custom-id='extras'] input[value='hints']\")"
    assert await page.evaluate(f"{hints}.disabled")
    await page.click(".modal .select[data-custom-id='colour'] .sel-head")
    await tab._click_marked("[...document.querySelectorAll('.modal .sel-opt')].find((o) => o.textContent === 'Blue')",
                            "Blue")
    await both_widths(tab, "a modal of every input kind, filled in")
    await page.click(".modal footer .btn")
    answer = await tab.newest(text="options:")
    assert "options: curse=True size=large extras=jokers,timer colour=blue" in answer.text
    await page.wait_for("!document.querySelector('.modal')", what="the modal to close")


async def test_discord_links_to_a_dm_or_a_message_open_in_the_page(
    emulator: Emulator, bot: Harness, alice: User, tab: Person
) -> None:
    """Links to discord.com/channels/... (a DM, a jump to a message) navigate inside the client, as in Discord's
    own; other links still open a new tab."""
    dm = emulator.world.dm_channel(alice)
    assert dm is not None
    hand = create_message(emulator, dm, emulator.bot, {"content": "your hand: five tiles"}, [])
    await announce_create(emulator, hand)
    jump = f"https://discord.com/channels/@me/{dm.id}/{hand.id}"
    note = create_message(emulator, emulator.general, emulator.bot, {
        "content": f"Your hand is [in your DMs]({jump}); rules at https://example.com/rules",
        "flags": 0}, [])
    await announce_create(emulator, note)
    emulator.notify()
    shown = await tab.wait_message(f"m.id === {json.dumps(str(note.id))}", "the message with links")
    page = tab.page
    targets = await page.evaluate(f"""[...document.querySelectorAll(".msg[data-id='{note.id}'] a")]
        .map((a) => [a.textContent, a.target])""")
    assert targets == [["in your DMs", ""], ["https://example.com/rules", "_blank"]], shown.text
    await both_widths(tab, "a message linking to a DM")
    await tab._click_marked(f"document.querySelector(\".msg[data-id='{note.id}'] a\")", "the DM link")
    await page.wait_for("document.querySelector('#chat-name').textContent.startsWith('@')", what="the DM to open")
    assert await page.evaluate("location.href.startsWith(location.origin)")
    await page.wait_for(f"!!document.querySelector(\".msg.flash[data-id='{hand.id}']\")", what="the message jumped to")
    await both_widths(tab, "the DM the link led to")


async def test_pictures_keep_their_size_and_the_full_size_view_closes(
    emulator: Emulator, bot: Harness, tab: Person
) -> None:
    """A picture's box has its size (from the attachment's width and height) before its bytes load, so nothing
    moves under a click; its full-size view closes on Escape and on a click."""
    files = [UploadedFile(0, "board.png", "image/png", png_bytes(600, 300))]
    card = create_message(emulator, emulator.general, emulator.bot, {
        "content": "the board", "attachments": [{"id": 0, "filename": "board.png", "description": "the board"}]}, files)
    await announce_create(emulator, card)
    emulator.notify()
    await tab.wait_message(f"m.id === {json.dumps(str(card.id))}", "the picture")
    page = tab.page
    img = f"document.querySelector(\".msg[data-id='{card.id}'] figure.image img\")"
    size = await page.evaluate(f"(() => {{ const i = {img}; return [i.getAttribute('width'), i.getAttribute('height'),"
                               " i.style.aspectRatio]; })()")
    assert size == ["600", "300", "600 / 300"]
    await both_widths(tab, "a picture with its size reserved")
    await page.wait_for(f"{img}.complete && performance.now() > 1000", what="the picture to load")
    await page.evaluate("new Promise((r) => setTimeout(r, 500))")  # nothing moved since
    await tab._click_marked(img, "the picture")
    await page.wait_for("!document.querySelector('#lightbox').hidden", what="the full-size view")
    await both_widths(tab, "the full-size view")
    await page.press("Escape")
    await page.wait_for("document.querySelector('#lightbox').hidden", what="Escape to close it")
    await tab._click_marked(img, "the picture again")
    await page.wait_for("!document.querySelector('#lightbox').hidden", what="the full-size view")
    await tab._click_marked("document.querySelector('#lightbox')", "the full-size view")
    await page.wait_for("document.querySelector('#lightbox').hidden", what="a click to close it")


async def test_an_empty_channel_welcomes_with_commands_to_click(
    emulator: Emulator, bot: Harness, alice: User, request: pytest.FixtureRequest
) -> None:
    """The first page a newcomer sees is an empty channel: it says where they are and offers the suggested
    commands (one per choice where the suggestion asks for "*"); a click fills the command box, Enter runs it."""
    folder = SCREENSHOTS / request.node.name
    shutil.rmtree(folder, ignore_errors=True)
    welcome = [{"command": "/toy game new", "options": {"kind": "*"}}, {"command": "/toy nothing-such"}]
    web = await WebClient.start(emulator, welcome=welcome)
    try:
        async with await Browser.launch() as browser:
            tab = Person(await browser.new_page(1280, 800), "alice", web.url_for("alice"), Shots(folder))
            await tab.open()
            page = tab.page
            offered = await page.wait_for(
                "(() => { const s = [...document.querySelectorAll('.welcome .suggestion')].map((b) => b.textContent);"
                " return s.length ? s : null; })()", what="the welcome's suggestions")
            assert offered == ["/toy game new kind:flaming-pyramids", "/toy game new kind:sand-towers"]
            title = await page.evaluate("document.querySelector('.welcome h2').textContent")
            assert title == "Welcome to # general"
            await both_widths(tab, "the welcome card")
            await tab._click_marked("document.querySelectorAll('.welcome .suggestion')[1]", "a suggestion")
            assert await page.evaluate("document.querySelector('#cmd-form .opt[data-option=kind] input').value") \
                == "sand-towers"
            await tab.shot("a suggestion filled in the command box")
            await page.press("Enter")
            await tab.idle()
            assert "new sand-towers curse=False" in (await tab.newest(text="new sand-towers")).text
            await page.wait_for("!document.querySelector('.welcome')", what="the welcome to go")
            assert page.errors == []
    finally:
        await web.close()


async def test_the_page_shows_every_input_the_emulator_lets_a_modal_hold(tab: Person) -> None:
    """Every component type a Label may wrap (``limits.LABEL_CHILDREN``, from Discord's reference) becomes an
    input of its own in the page, never the "cannot show" placeholder: a type added to the emulator fails here
    until the page shows it."""
    options = [{"label": "One", "value": "1"}, {"label": "Two", "value": "2"}]
    for kind in sorted(LABEL_CHILDREN):
        comp = {"type": kind, "custom_id": f"c{kind}", "options": options}
        shown = await tab.page.evaluate(
            f"(() => {{ const f = modalField({json.dumps(comp)}, 'Label', 'a description');"
            " return {unknown: !!f.querySelector('.unknown-c'), input: !!f.querySelector('[data-custom-id]'),"
            " label: f.textContent.includes('Label')}; })()")
        assert shown == {"unknown": False, "input": True, "label": True}, kind


async def test_a_file_chosen_in_a_modal_is_sent_with_it(emulator: Emulator, bot: Harness, tab: Person) -> None:
    """A modal's file upload: the file the person picks (set here as the browser's file dialog would) goes with
    the submission, through the emulator's checks, and the bot reads it back from its URL."""
    page = tab.page
    await tab.slash("/toy upload")
    await page.wait_for("!!document.querySelector('.modal input[type=file]')", what="the modal's file picker")
    size = await page.evaluate("""(() => {
        const input = document.querySelector('.modal input[type=file]');
        const bytes = new Uint8Array(300).map((_, i) => i % 251);
        const picked = new DataTransfer();
        picked.items.add(new File([bytes], 'shot.png', {type: 'image/png'}));
        input.files = picked.files;
        input.dispatchEvent(new Event('change', {bubbles: true}));
        return input.files[0].size; })()""")
    assert size == 300
    note = await page.evaluate("document.querySelector('.modal .file-upload small').textContent")
    assert "does not send" not in note, note
    await both_widths(tab, "a modal with a file chosen")
    await page.click(".modal footer .btn")
    answer = await tab.newest(text="uploaded:")
    assert "uploaded: shot.png (image/png, 300 bytes, read 300)" in answer.text, answer.text
    await page.wait_for("!document.querySelector('.modal')", what="the modal to close")
