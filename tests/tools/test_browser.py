"""``tools.browser``: headless Chromium over the DevTools protocol, as the browser tests use it — a page, a
real mouse click, typing, waiting for a condition, a screenshot."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import pytest

from tools.browser import Browser, BrowserError, find_chromium, main

PAGE = """<!doctype html><meta name="viewport" content="width=device-width"><title>t</title>
<button id="b" onclick="document.body.dataset.clicks = (+(document.body.dataset.clicks || 0) + 1)">click me</button>
<input id="i" oninput="document.body.dataset.typed = this.value">"""


async def test_a_page_is_clicked_typed_into_waited_on_and_photographed(tmp_path: Path) -> None:
    assert find_chromium() is not None, "Chromium is missing: run `python -m tools.browser --ensure`"
    async with await Browser.launch() as browser:
        page = await browser.new_page(400, 300, mobile=True)
        await page.goto("data:text/html," + quote(PAGE))
        assert await page.evaluate("window.innerWidth") == 400
        await page.click("#b")
        await page.wait_for("document.body.dataset.clicks === '1'")
        await page.click("#i")
        await page.type("héllo")
        assert await page.wait_for("document.body.dataset.typed") == "héllo"
        with pytest.raises(BrowserError, match="waited"):
            await page.wait_for("false", timeout=0.2, what="nothing")
        shot = await page.screenshot(tmp_path / "page.png")
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_check_names_what_is_missing(capsys: pytest.CaptureFixture[str]) -> None:
    code = main([])
    out = capsys.readouterr().out
    assert out.startswith("chromium: ")
    assert code == (1 if "missing packages" in out else 0)
