"""Headless Chromium for tests and screenshots, driven over the DevTools protocol with aiohttp's websocket client
(no WebDriver, no new dependency).

    python -m tools.browser --ensure     # apt-installs Debian's chromium (and an emoji font) when missing

    async with Browser.launch() as browser:
        page = await browser.new_page(width=1280, height=900)
        await page.goto("http://127.0.0.1:8080/?user=ana")
        await page.wait_for("document.body.dataset.ready === '1'")
        await page.click("button[data-custom-id='...']")      # a real mouse click at the element's centre
        await page.screenshot(Path("out/screenshots/step.png"))

Waiting is always for a condition in the page (``wait_for``), never for a fixed time.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiohttp

#: Debian's packages: the browser, its driver (for WebDriver users) and a colour emoji font, since the bot's
#: buttons and messages speak in emoji.
PACKAGES = ("chromium", "chromium-driver", "fonts-noto-color-emoji")
CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio", "--disable-breakpad",
         "--disable-crash-reporter",
         # every tab is a player at their own screen: none is a throttled background tab
         "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
         "--disable-backgrounding-occluded-windows")
LISTENING = re.compile(r"DevTools listening on (ws://\S+)")


class BrowserError(RuntimeError):
    """The browser is missing, would not start, or the page did not do what was waited for."""


def find_chromium() -> str | None:
    found = os.environ.get("CHROMIUM") or next((c for c in CANDIDATES if Path(c).exists()), None)
    return found or shutil.which("chromium")


def missing_packages() -> list[str]:
    missing = []
    if find_chromium() is None:
        missing.append("chromium")
    if not Path("/usr/bin/chromedriver").exists():
        missing.append("chromium-driver")
    if not Path("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf").exists():
        missing.append("fonts-noto-color-emoji")
    return missing


def ensure() -> int:
    """Install what is missing with apt-get (through sudo unless root), like ``tools.postgres_server --ensure``."""
    missing = missing_packages()
    if not missing:
        print(f"chromium is installed: {find_chromium()}")
        return 0
    prefix = [] if os.geteuid() == 0 else ["sudo"]
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    print(f"installing {' '.join(missing)} with apt-get…", flush=True)
    subprocess.run([*prefix, "apt-get", "update", "-q"], check=True, env=env)
    subprocess.run([*prefix, "apt-get", "install", "-y", "-q", *missing], check=True, env=env)
    still = missing_packages()
    if still:
        print(f"still missing after apt-get: {' '.join(still)}", file=sys.stderr)
        return 1
    print(f"chromium is installed: {find_chromium()}")
    return 0


class Page:
    """One tab, over its own DevTools websocket."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, target_id: str) -> None:
        self.ws = ws
        self.target_id = target_id
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._reader = asyncio.create_task(self._read(), name="devtools-page-reader")
        self.console: list[str] = []
        self.errors: list[str] = []

    async def _read(self) -> None:
        async for msg in self.ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            fut = self._pending.pop(data.get("id", -1), None)
            if fut is not None and not fut.done():
                if "error" in data:
                    fut.set_exception(BrowserError(str(data["error"])))
                else:
                    fut.set_result(data.get("result", {}))
            elif data.get("method") == "Runtime.exceptionThrown":
                details = data["params"]["exceptionDetails"]
                self.errors.append(str((details.get("exception") or {}).get("description") or details.get("text")))
            elif data.get("method") == "Runtime.consoleAPICalled":
                args = data["params"].get("args") or []
                self.console.append(" ".join(str(a.get("value", a.get("description", ""))) for a in args))
        for fut in self._pending.values():
            if not fut.done():
                fut.set_exception(BrowserError("the browser closed the page"))

    async def send(self, method: str, **params: Any) -> Any:
        call_id = next(self._ids)
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[call_id] = fut
        await self.ws.send_str(json.dumps({"id": call_id, "method": method, "params": params}))
        return await asyncio.wait_for(fut, 60)

    async def setup(self, width: int, height: int, mobile: bool) -> None:
        await self.send("Runtime.enable")
        await self.send("Page.enable")
        await self.send("Emulation.setFocusEmulationEnabled", enabled=True)
        await self.resize(width, height, mobile=mobile)

    async def resize(self, width: int, height: int, *, mobile: bool = False) -> None:
        await self.send("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1,
                        mobile=mobile)

    async def goto(self, url: str) -> None:
        await self.send("Page.navigate", url=url)
        await self.wait_for("document.readyState === 'complete'")

    async def evaluate(self, expression: str) -> Any:
        result = await self.send("Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise BrowserError(f"{expression!r} failed: {(details.get('exception') or {}).get('description')}")
        return result.get("result", {}).get("value")

    async def wait_for(self, expression: str, timeout: float = 30.0, what: str | None = None) -> Any:
        """Until ``expression`` is truthy in the page (checked each time the page could have changed)."""
        loop = asyncio.get_running_loop()
        limit = loop.time() + timeout
        while True:
            value = await self.evaluate(expression)
            if value:
                return value
            if loop.time() > limit:
                errors = "; ".join(self.errors[-3:])
                raise BrowserError(f"waited {timeout:.0f}s for {what or expression}" + (f" (page errors: {errors})"
                                                                                          if errors else ""))
            # a turn of the page's event loop: it had the chance to take in what changed
            await self.evaluate("new Promise((ok) => setTimeout(ok, 50))")

    async def click(self, selector: str, timeout: float = 30.0) -> None:
        """A real mouse click at the centre of the last visible, enabled element ``selector`` names."""
        await self.click_found(f"[...document.querySelectorAll({json.dumps(selector)})]"
                               ".filter((x) => x.offsetParent !== null && !x.disabled).pop()", timeout, selector)

    async def click_found(self, find_js: str, timeout: float = 30.0, what: str = "") -> None:
        """A real mouse click (moved, pressed, released) at the centre of the element the expression ``find_js``
        gives, scrolled into view, once the pictures in view have loaded (they move what is below them) and the
        element is the one at that point; waits until it is. A click the page saw land elsewhere (the page
        moved in between) is made again."""
        token = f"t{next(self._ids)}"
        # Only pictures in view must have loaded: the page loads the others lazily, and those
        # never complete while they stay out of view.
        locate = (f"(() => {{ const e = {find_js}; if (!e) return null;"
                  " e.scrollIntoView({block: 'center'});"
                  " if (![...document.images].every((i) => { if (i.complete) return true;"
                  " const b = i.getBoundingClientRect(); return b.bottom < 0 || b.top > innerHeight; })) return null;"
                  " const r = e.getBoundingClientRect();"
                  " const x = r.x + r.width / 2, y = r.y + r.height / 2; const hit = document.elementFromPoint(x, y);"
                  " if (!hit || !(hit === e || e.contains(hit))) return null;"
                  f" e.dataset.pbTarget = '{token}'; window.__pbClicked = null; return [x, y]; }})()")
        if not await self.evaluate("!!window.__pbListening"):
            await self.evaluate(
                "window.__pbListening = true; document.addEventListener('mousedown', (ev) => {"
                " const t = ev.target.closest && ev.target.closest('[data-pb-target]');"
                " window.__pbClicked = t ? t.dataset.pbTarget : 'elsewhere'; }, true)")
        for _ in range(3):
            x, y = await self.wait_for(locate, timeout, what=f"something to click: {what or find_js}")
            for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
                await self.send("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)
            if await self.evaluate("window.__pbClicked") == token:
                return
        raise BrowserError(f"the page kept moving under the mouse: {what or find_js}")

    async def type(self, text: str) -> None:
        """Type into the focused element, one key event per character (the page's input handlers run)."""
        for ch in text:
            await self.send("Input.insertText", text=ch)

    async def press(self, key: str) -> None:
        """Press and release Enter or Escape on the focused element."""
        code = {"Enter": 13, "Escape": 27}[key]
        down: dict[str, Any] = {"type": "keyDown", "key": key, "code": key, "windowsVirtualKeyCode": code}
        if key == "Enter":
            down["text"] = "\r"
        await self.send("Input.dispatchKeyEvent", **down)
        await self.send("Input.dispatchKeyEvent", type="keyUp", key=key, code=key, windowsVirtualKeyCode=code)

    async def screenshot(self, path: Path, *, full_page: bool = False) -> Path:
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            size = await self.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
            params.update(captureBeyondViewport=True, clip={"x": 0, "y": 0, "width": size[0], "height": size[1],
                                                            "scale": 1})
        data = await self.send("Page.captureScreenshot", **params)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data["data"]))
        return path

    async def close(self) -> None:
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader
        await self.ws.close()


class Browser:
    """A headless Chromium with a fresh profile, its tabs reached over DevTools."""

    def __init__(self, process: asyncio.subprocess.Process, endpoint: str, profile: Path) -> None:
        self.process = process
        self.endpoint = endpoint  # ws://127.0.0.1:PORT/devtools/browser/…
        self.profile = profile
        self.session = aiohttp.ClientSession()
        self.pages: list[Page] = []
        self._drain: asyncio.Task[None] | None = None

    @classmethod
    async def launch(cls, executable: str | None = None) -> Browser:
        path = executable or find_chromium()
        if path is None:
            raise BrowserError("Chromium is not installed: run `python -m tools.browser --ensure`")
        profile = Path(tempfile.mkdtemp(prefix="pyramid-chromium-"))
        process = await asyncio.create_subprocess_exec(
            path, *FLAGS, f"--user-data-dir={profile}", "--remote-debugging-port=0", "about:blank",
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        assert process.stderr is not None
        seen: list[str] = []
        try:
            while True:
                line = (await asyncio.wait_for(process.stderr.readline(), 60)).decode(errors="replace")
                if not line:
                    raise BrowserError("Chromium exited at start: " + " ".join(seen[-5:]))
                seen.append(line.strip())
                match = LISTENING.search(line)
                if match:
                    break
        except BaseException:
            process.kill()
            await process.wait()
            shutil.rmtree(profile, ignore_errors=True)
            raise
        browser = cls(process, match[1], profile)
        browser._drain = asyncio.create_task(browser._drain_stderr(), name="chromium-stderr")
        return browser

    async def _drain_stderr(self) -> None:
        assert self.process.stderr is not None
        while await self.process.stderr.readline():
            pass

    @property
    def http(self) -> str:
        return "http://" + self.endpoint.split("/")[2]

    async def new_page(self, width: int = 1280, height: int = 900, *, mobile: bool = False) -> Page:
        async with self.session.put(f"{self.http}/json/new?about:blank") as resp:
            target = await resp.json(content_type=None)
        ws = await self.session.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0)
        page = Page(ws, target["id"])
        await page.setup(width, height, mobile)
        self.pages.append(page)
        return page

    async def close(self) -> None:
        for page in self.pages:
            with contextlib.suppress(Exception):
                await page.close()
        await self.session.close()
        if self.process.returncode is None:
            self.process.terminate()
            try:
                await asyncio.wait_for(self.process.wait(), 10)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
        if self._drain is not None:
            self._drain.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._drain
        shutil.rmtree(self.profile, ignore_errors=True)

    async def __aenter__(self) -> Browser:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.browser", description=__doc__.split("\n\n")[0])
    parser.add_argument("--ensure", action="store_true", help="apt-get install chromium when it is missing")
    args = parser.parse_args(argv)
    if args.ensure:
        return ensure()
    missing = missing_packages()
    print(f"chromium: {find_chromium() or 'missing'}" + (f"; missing packages: {' '.join(missing)}" if missing else ""))
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
