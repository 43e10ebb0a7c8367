"""A person at the playground page (``emulator/web``), for the browser tests and the browser gallery: they
read what the page shows and act only by clicking and typing in it, as a player does.

    person = Person(await browser.new_page(), "ana", playground.url_for("ana"), shots)
    await person.open()
    await person.slash("/pyramid new", game="Flaming Pyramids")
    lobby = await person.newest(has_button="Join")
    await person.click_button(lobby, "Join")

``Shots`` numbers a screenshot of every step into one folder, so the steps read in order.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tools.browser import BrowserError, Page

#: What the page shows of each of its newest messages (older ones are history no step looks at, and reading
#: them all at every check would slow the page): id, text, buttons (label, enabled), selects, and flags.
SNAPSHOT_JS = """
[...document.querySelectorAll('#messages .msg')].slice(-16).map((m) => ({
  id: m.dataset.id,
  edited: m.dataset.edited,
  text: m.innerText,
  mentioned: m.classList.contains('mentioned'),
  addressed: ((m.querySelector('.mention[data-user]') || {}).textContent || ''),
  ephemeral: m.classList.contains('ephemeral'),
  images: m.querySelectorAll('img').length,
  buttons: [...m.querySelectorAll('.btn')].filter((b) => !b.classList.contains('sel-apply'))
    .map((b) => ({label: b.textContent.trim(), enabled: !b.disabled})),
  selects: [...m.querySelectorAll('.select')].map((s) => ({id: s.dataset.customId || '',
    disabled: s.classList.contains('disabled')})),
}))
"""

BOARD = re.compile(r"game #(\d+) · move (\d+)")


@dataclass
class Shown:
    """A message as the page shows it."""

    id: str
    edited: str
    text: str
    mentioned: bool
    #: The first user the message mentions ("@ana"): on a board, the player to act (it pings them only as
    #: their notification settings and the hourly cap allow, so a live game's boards often don't).
    addressed: str
    ephemeral: bool
    images: int
    buttons: list[dict[str, Any]]
    selects: list[dict[str, Any]]

    def enabled(self) -> list[str]:
        return [b["label"] for b in self.buttons if b["enabled"]]

    @property
    def move(self) -> int | None:
        found = BOARD.search(self.text)
        return int(found[2]) if found else None


@dataclass
class Shots:
    """Numbered screenshots of every step, in one folder."""

    folder: Path
    taken: list[Path] = field(default_factory=list)

    async def take(self, page: Page, who: str, what: str) -> Path:
        slug = re.sub(r"[^a-z0-9]+", "-", what.lower()).strip("-")[:60]
        path = self.folder / f"{len(self.taken) + 1:03d}-{who}-{slug}.png"
        self.taken.append(await page.screenshot(path))
        return path


class Person:
    """One browser tab, one user."""

    def __init__(self, page: Page, name: str, url: str, shots: Shots | None = None) -> None:
        self.page = page
        self.name = name
        self.url = url
        self.shots = shots

    async def shot(self, what: str) -> None:
        if self.shots is not None:
            await self.shots.take(self.page, self.name, what)

    async def open(self) -> None:
        await self.page.goto(self.url)
        await self.page.wait_for("document.body.dataset.ready === '1'", what="the page to load")

    async def idle(self) -> None:
        """Until no interaction of this tab is waiting for the bot's answer; an answer that never came in
        Discord's 3 seconds ("This interaction failed" under a message) fails the walk at once, with a
        screenshot (the emulator records it as an ``interaction-deadline`` violation too)."""
        await self.page.wait_for("(document.body.dataset.busy || '0') === '0'", what="the bot's answer")
        failed = await self.page.evaluate("[...document.querySelectorAll('.msg .failed')].map((e) => e.textContent)")
        if failed:
            await self.shot("interaction failed")
            raise BrowserError(f"the page says {failed[0]!r}: the bot did not answer a click within 3 seconds")

    async def messages(self) -> list[Shown]:
        return [Shown(**m) for m in await self.page.evaluate(SNAPSHOT_JS)]

    async def wait_message(self, js_test: str, what: str, timeout: float = 60.0) -> Shown:
        """The newest message for which ``js_test`` (an expression of ``m``, as in ``SNAPSHOT_JS``) holds."""
        found = await self.page.wait_for(
            f"(() => {{ const all = {SNAPSHOT_JS}; const hit = all.filter((m) => {js_test}); "
            "return hit.length ? hit[hit.length - 1] : null; })()", timeout, what=what)
        return Shown(**found)

    async def newest(self, *, text: str | None = None, button: str | None = None, ephemeral: bool | None = None,
                     timeout: float = 60.0) -> Shown:
        tests = ["true"]
        if text is not None:
            tests.append(f"m.text.includes({json.dumps(text)})")
        if button is not None:
            tests.append(f"m.buttons.some((b) => b.enabled && b.label.includes({json.dumps(button)}))")
        if ephemeral is not None:
            tests.append("m.ephemeral" if ephemeral else "!m.ephemeral")
        what = f"a message{' with ' + repr(text) if text else ''}{' with a button ' + repr(button) if button else ''}"
        return await self.wait_message(" && ".join(tests), what, timeout)

    async def _click_marked(self, find_js: str, what: str) -> None:
        """Click, with the mouse, the element ``find_js`` gives."""
        await self.page.click_found(find_js, what=what)

    async def open_channel(self, name: str) -> None:
        """Click a channel, thread or DM by its name in the sidebar (opening the channel list first on a phone,
        and the DM list for a DM)."""
        narrow = await self.page.evaluate("getComputedStyle(document.querySelector('#menu')).display !== 'none'")
        if narrow:
            await self.page.click("#menu")
        row = (f"[...document.querySelectorAll('#channels .chan')].find((c) => "
               f"c.querySelector('.name').textContent === {json.dumps(name)})")
        if not await self.page.evaluate(f"!!({row})"):
            await self.page.click(".rail-icon[data-view='dms']")
            if not await self.page.evaluate(f"!!({row})"):
                await self.page.click(".rail-icon[data-view='guild']")
        opened = f"document.querySelector('#chat-name').textContent.endsWith({json.dumps(name)})"
        # A live update may redraw the sidebar between finding the row and the click landing (a new thread, a ping
        # badge): that click opens nothing, so it is made again on the row as it is now (the gallery met it).
        for attempt in range(3):
            await self._click_marked(row, f"the channel {name!r} in the sidebar")
            try:
                await self.page.wait_for(opened, 10.0 if attempt < 2 else 30.0, what=f"the channel {name!r} to open")
                break
            except BrowserError:
                if attempt == 2:
                    raise
        await self.page.wait_for("document.body.dataset.ready === '1'")

    async def click_button(self, message: Shown, label: str) -> None:
        """Click the enabled button on ``message`` whose label contains ``label``; wait for the bot's answer."""
        find = (f"[...document.querySelectorAll('.msg[data-id=\"{message.id}\"] .btn')]"
                f".find((b) => !b.disabled && b.textContent.includes({json.dumps(label)}))")
        try:
            await self._click_marked(find, f"the button {label!r}")
        except BrowserError as exc:
            await self.shot(f"no button {label}")  # what the page showed when the click could not be made
            raise BrowserError(f"{exc} on message {message.id} ({message.text[:120]!r}, buttons "
                               f"{message.enabled()})") from exc
        await self.idle()

    async def choose(self, message: Shown, option: str | None = None, select: int = 0) -> str:
        """Open the ``select``-th dropdown of ``message`` and pick ``option`` (by its text; the first when None).
        Returns the text of what was picked."""
        head = f"document.querySelectorAll('.msg[data-id=\"{message.id}\"] .select')[{select}]"
        await self._click_marked(f"{head} && {head}.querySelector('.sel-head')", "the dropdown")
        pick = (f"[...{head}.querySelectorAll('.sel-opt')]"
                + (f".find((o) => o.textContent.toLowerCase().includes({json.dumps(option.lower())}))"
                   if option else "[0]"))
        picked = str(await self.page.evaluate(f"(() => {{ const o = {pick}; return o ? o.textContent : ''; }})()"))
        await self._click_marked(pick, f"the option {option!r}")
        await self.idle()
        return picked

    async def slash(self, command: str, **options: str) -> None:
        """Type ``/``, pick ``command`` in the list, fill in each option (picking from its choices or the
        bot's autocomplete where it has them, typing otherwise) and press Enter."""
        await self.page.click("#input")
        await self.page.type("/")
        await self._click_marked(f"document.querySelector('.cmd-item[data-command={json.dumps(command)}]')",
                                 f"the command {command} in the list")
        for name, value in options.items():
            if not await self.page.evaluate(f"!!document.querySelector('#cmd-form .opt[data-option=\"{name}\"]')"):
                await self.page.click(f"#cmd-form .add-opt[data-option=\"{name}\"]")
            await self.page.click(f"#cmd-form .opt[data-option=\"{name}\"] input")
            has_list = await self.page.evaluate(
                f"!!document.querySelector('#cmd-form .opt[data-option=\"{name}\"] .opt-list')")
            if not has_list:
                await self.page.type(value)
            listed = (f"[...document.querySelectorAll('#cmd-form .opt[data-option=\"{name}\"] .opt-list .sel-opt')]"
                      f".find((o) => o.textContent.includes({json.dumps(value)}))")
            if has_list or await self._autocompletes(name):
                await self._click_marked(listed, f"{value!r} among the choices of {name}")
        await self.page.press("Enter")
        await self.idle()

    async def _autocompletes(self, option: str) -> bool:
        spec = await self.page.evaluate(
            "(() => { const e = CMD.entry; const o = (e.spec.options || []).find((x) => x.name === "
            f"{json.dumps(option)}); return !!(o && o.autocomplete); }})()")
        return bool(spec)

    async def shot_at_phone_width(self, what: str) -> None:
        """The same moment at a phone's width (400 px), then back to the desktop size."""
        size = await self.page.evaluate("[window.innerWidth, window.innerHeight]")
        await self.set_width(400, 860)
        await self.page.evaluate("(() => { const b = document.querySelector('#messages'); "
                                 "b.scrollTop = b.scrollHeight; })()")
        await self.shot(what + " (phone)")
        await self.set_width(int(size[0]), int(size[1]))

    async def set_width(self, width: int, height: int) -> None:
        await self.page.resize(width, height, mobile=width < 500)
        await self.page.wait_for("document.body.dataset.ready === '1'")

    async def notification_count(self) -> int:
        """The number the page's title shows for unread pings (``(2) …``), 0 without one."""
        title = str(await self.page.evaluate("document.title"))
        found = re.match(r"\((\d+)\)", title)
        return int(found[1]) if found else 0


async def take_turn(person: Person, board: Shown, *, prefer: tuple[str, ...] = ()) -> Shown:
    """Play one move from ``board`` with its buttons and the private chooser it opens, picking the first offer
    (or the first of ``prefer`` found on a button) at each step. Returns the chooser's last state."""
    direct = [label for label in board.enabled() if "Your move" not in label and "hand" not in label.lower()
              and "Latest" not in label]
    if not any("Your move" in label for label in board.enabled()) and direct:
        await person.click_button(board, direct[0])
        await person.shot(f"move {direct[0]}")
        return board
    before = {m.id for m in await person.messages()}
    await person.click_button(board, "Your move")
    known = json.dumps(sorted(before))
    # with its buttons: a chooser that comes with a picture is deferred first ("thinking…", no buttons yet)
    step = await person.wait_message(f"m.ephemeral && !{known}.includes(m.id) && (m.buttons.length > 0 "
                                     "|| m.selects.length > 0)", "the private move chooser")
    await person.shot("chooser")
    for _ in range(12):
        offers = [label for label in step.enabled() if "Back" not in label and "Cancel" not in label]
        if "✅" in step.text or (not offers and not any(not s["disabled"] for s in step.selects)):
            return step
        preferred = next((label for want in prefer for label in offers if want in label), None)
        if preferred or offers:
            label = preferred or offers[0]
            await person.click_button(step, label)
            what = f"chose {label}"
        else:
            what = "chose " + await person.choose(step)
        # the bot answers by editing the chooser: wait for its edit, not for what the click showed at once
        step = await person.wait_message(
            f"m.id === {json.dumps(step.id)} && m.edited !== {json.dumps(step.edited)}", "the chooser's next step")
        await person.shot(what)
    raise BrowserError(f"the chooser did not end in a move: {step.text!r}")


async def acting_board(people: list[Person]) -> tuple[Person, Shown] | None:
    """Who is to move, as the page shows it: the newest board pings its player and offers them a move."""
    for person in people:
        shown = [m for m in await person.messages() if not m.ephemeral and m.move is not None]
        if not shown or not addresses(shown[-1], person):
            continue
        moves = [label for label in shown[-1].enabled() if "Latest" not in label and "hand" not in label.lower()]
        if moves:
            return person, shown[-1]
    return None


def addresses(board: Shown, person: Person) -> bool:
    """Whether ``board`` asks ``person`` to move: it pinged them, or (a ping the hourly cap or the minute's batch
    held back) names them first, as its "🎯 @name, it's your turn" line does."""
    return board.mentioned or board.addressed.lstrip("@") == person.name


NEWEST_BOARD_JS = ("(() => { const boards = " + SNAPSHOT_JS.strip() + """
  .filter((m) => !m.ephemeral && /game #\\d+ · move \\d+/.test(m.text));
  return boards.length ? boards[boards.length - 1] : null;
})()""")


async def next_board(person: Person, after: int, timeout: float = 120.0) -> Shown:
    """The newest board once it is past move ``after`` (a finished game's last board shows "Game over")."""
    found = await person.page.wait_for(
        f"(() => {{ const b = {NEWEST_BOARD_JS}; if (!b) return null; const n = Number(/move (\\d+)/.exec(b.text)[1]);"
        f" return (n > {after} || b.text.includes('Game over')) ? b : null; }})()", timeout,
        what=f"a board after move {after}")
    return Shown(**found)


async def whose_turn(people: list[Person], board: Shown, timeout: float = 60.0) -> Person | None:
    """The person ``board`` pings and offers a move to, as each one's page shows it; None when it is over or
    when nobody of ``people`` is to move (an AI is)."""
    if "Game over" in board.text:
        return None
    for person in people:
        shown = await person.wait_message(f"m.id === {json.dumps(board.id)}", "the board in every tab", timeout)
        moves = [label for label in shown.enabled() if "Latest" not in label and "hand" not in label.lower()]
        if addresses(shown, person) and moves:
            return person
    return None


async def play(people: list[Person], *, moves: int | None = None, prefer: tuple[str, ...] = (),
               max_moves: int = 400) -> Shown:
    """Play the game whose boards the people's pages show, each move by the person the newest board pings,
    until its last board ("Game over") or ``moves`` moves; returns the newest board then."""
    board = await next_board(people[0], -1)
    for _ in range(max_moves if moves is None else moves):
        if "Game over" in board.text:
            return board
        person = await whose_turn(people, board)
        if person is not None:
            await take_turn(person, board, prefer=prefer)
        board = await next_board(people[0], board.move or 0)  # the player's move, or an AI's
    if moves is None:
        raise BrowserError(f"the game did not end within {max_moves} moves")
    return board
