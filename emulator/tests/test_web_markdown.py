"""The page's markdown, run by the real ``app.js`` in headless Chromium: text a user or bot wrote can make the
elements markdown stands for and nothing else, whatever it holds. Whatever a message says, every element the
renderer makes is one of a short list, with no attribute but a few whose values are checked (a link's ``href``
is ``http(s)://``), and no link inside a link.

Hypothesis writes the messages from markdown's own characters (brackets, parentheses, quotes, ``=``, stars,
underscores, backticks, angle brackets, ``http://``, ``onmouseover``…); each example is a batch of them rendered
in one call to the browser, which stays open for the whole module (its own event loop in a thread, since
Hypothesis calls the test synchronously)."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Coroutine, Iterator
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emulator import Emulator
from emulator.web import WebClient
from tools.browser import Browser, Page, find_chromium

T = TypeVar("T")

#: What the renderer may make, and which attributes (the value rule of each is in CHECK below).
TAGS = ("strong", "em", "u", "s", "span", "code", "pre", "a", "h1", "h2", "h3", "div", "blockquote", "ul", "ol",
        "li")
ATTRIBUTES = ("href", "target", "rel", "class", "title", "data-user", "data-channel", "data-r")

#: Runs in the page: renders each text with app.js's own ``md`` and lists what breaks the rule.
CHECK = """((texts, tags, attributes) => {
  const allowedTags = new Set(tags), allowedAttributes = new Set(attributes), found = [];
  for (const text of texts) {
    const root = md("", text);
    for (const e of root.querySelectorAll("*")) {
      const tag = e.tagName.toLowerCase();
      if (!allowedTags.has(tag)) found.push([text, "element <" + tag + ">"]);
      if (tag === "a" && e.parentElement.closest("a")) found.push([text, "a link inside a link"]);
      for (const a of e.attributes) {
        const bad = !allowedAttributes.has(a.name)
          || (a.name === "href" && (tag !== "a" || !/^https?:\\/\\/[^\\s]+$/i.test(a.value)
                                    || !/^https?:$/.test(e.protocol)))
          || (a.name === "target" && a.value !== "_blank")
          || (a.name === "rel" && a.value !== "noreferrer")
          || (a.name.startsWith("data-") && !/^-?\\d+$/.test(a.value))
          || (a.name === "title" && !e.classList.contains("ts"));
        if (bad) found.push([text, "<" + tag + " " + a.name + "=" + JSON.stringify(a.value) + ">"]);
      }
    }
  }
  return found;
})"""

FRAGMENTS = ("[", "]", "(", ")", "<", ">", '"', "'", "=", "*", "**", "_", "__", "`", "```", "~~", "||", "\\",
             "http://", "https://", "javascript:", "onmouseover", "onerror", " ", "\n", "x", "a.b", "/", "&", "#",
             ";", ":", "# ", "-# ", "> ", ">>> ", "- ", "1. ", "<t:1700000000:R>", "<t:", "<@1>", "<#1>", "<@&1>",
             "</toy:1>", "<:e:1>", "<t:99999999999999999999:R>", "9", "@", "%22", "&quot;", "alert(1)",
             "<img src=x onerror=alert(1)>")

markdownish = st.lists(st.sampled_from(FRAGMENTS), max_size=30).map("".join)


class Loop:
    """An event loop in a thread of its own, for a browser Hypothesis's synchronous test calls can use."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="markdown-browser", daemon=True)
        self.thread.start()

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 120) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


class Renderer:
    """The page, open as one user of a fresh emulator, rendering batches of markdown."""

    def __init__(self) -> None:
        self.emulator: Emulator | None = None
        self.web: WebClient | None = None
        self.browser: Browser | None = None
        self.page: Page | None = None

    async def open(self) -> None:
        self.emulator = emu = await Emulator.start()
        emu.world.add_member(emu.guild, emu.world.add_user("alice"))
        self.web = await WebClient.start(emu)
        self.browser = await Browser.launch()
        self.page = await self.browser.new_page(800, 600)
        await self.page.goto(self.web.url_for("alice"))
        await self.page.wait_for("document.body.dataset.ready === '1'", what="the page")

    async def problems(self, texts: list[str]) -> list[list[str]]:
        assert self.page is not None
        found = await self.page.evaluate(f"{CHECK}({json.dumps(texts)}, {json.dumps(TAGS)}, {json.dumps(ATTRIBUTES)})")
        return list(found)

    async def close(self) -> None:
        for part in (self.browser, self.web, self.emulator):
            if part is not None:
                await part.close()


@pytest.fixture(scope="module")
def renderer() -> Iterator[tuple[Loop, Renderer]]:
    assert find_chromium() is not None, "Chromium is missing: run `python -m tools.browser --ensure`"
    loop, rendering = Loop(), Renderer()
    try:
        loop.run(rendering.open())
        yield loop, rendering
        assert rendering.page is not None and rendering.page.errors == []
    finally:
        loop.run(rendering.close())
        loop.stop()


NESTED_LINKS = [
    '[a](http://x/(http://y/"/onmouseover=alert(1)//)',
    '[a](http://x/(http://y/"onmouseover="alert(1)")',
    "[see http://y/ too](http://x/)",
    '[x](http://a/[y](http://b/"onmouseover=alert(1)))',
    "[[a](http://x/)](http://y/)",
    '(http://x/"onmouseover=alert(1)//)',
    "[a](javascript:alert(1))",
]


def test_nested_link_markdown_makes_no_attribute_and_no_link_in_a_link(renderer: tuple[Loop, Renderer]) -> None:
    loop, rendering = renderer
    assert loop.run(rendering.problems(NESTED_LINKS)) == []
    # The links themselves still work: a link in markdown, and a bare URL.
    shown = loop.run(rendering.page.evaluate(  # type: ignore[union-attr]
        "[...md('', 'go [there](https://example.com/a_b) or http://example.org/x.').querySelectorAll('a')]"
        ".map((a) => [a.textContent, a.getAttribute('href')])"))
    assert shown == [["there", "https://example.com/a_b"], ["http://example.org/x.", "http://example.org/x."]]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(markdownish, min_size=1, max_size=40))
def test_any_markdown_renders_to_allowed_elements_and_attributes_only(
    renderer: tuple[Loop, Renderer], texts: list[str]
) -> None:
    loop, rendering = renderer
    assert loop.run(rendering.problems(texts)) == []
