"""``pyramid-bot demo``: the real bot in a local playground, played in the browser, without Discord.

On this machine only (loopback), it starts

- the Discord emulator (``emulator/``) with a server, its #general and #games channels, and a few people:
  you and named friends;
- the bot exactly as deployed, ``python -m bot`` in its own process (``tools.bot_process.BotProcess``), its
  API base pointed at the emulator and its games in a SQLite file in a temporary folder (or ``--dir``);
- the emulator's web client (``emulator/web/``), a page that looks and behaves like Discord's client; its empty
  channels welcome a newcomer with commands to click (``WELCOME``).

It prints one address per person and opens nothing unless ``--open`` asks it to. One browser tab per person
(``?user=<name>``) lets one person play a multi-player game from several tabs.

    python -m tools.demo [--friends ana,ben] [--name you] [--port 0] [--dir FOLDER] [--open]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import secrets
import shutil
import signal
import sys
import tempfile
import webbrowser
from collections.abc import Sequence
from pathlib import Path

from emulator.server import Emulator
from emulator.web import WebClient
from tools.bot_process import BotProcess

GUILD_NAME = "Pyramid Playground"
#: You, by a name the bot's sentences read well with ("sam wins", "sam's hand"; "you" would not).
DEFAULT_NAME = "sam"
DEFAULT_FRIENDS = ("ana", "ben")
#: What an empty channel suggests to a newcomer (the page's welcome card): a game of each kind (``*``: one
#: suggestion per choice the bot offers for ``game``), today's daily deal and the rules.
WELCOME = (
    {"command": "/pyramid new", "options": {"game": "*"}, "note": "open a lobby; add an AI or ask a friend to join"},
    {"command": "/pyramid daily", "note": "today's deal, the same for everyone"},
    {"command": "/pyramid rules", "note": "how each game is played"},
)


class Playground:
    """The emulator, the bot's process and the web client, started and stopped together."""

    def __init__(self, folder: Path, *, name: str = DEFAULT_NAME, friends: Sequence[str] = DEFAULT_FRIENDS,
                 port: int = 0, ai_delay_seconds: float = 1.0, workers: int = 1) -> None:
        names = [name, *friends]
        if len(set(names)) != len(names):
            raise ValueError(f"every person needs a name of their own, got {names}")
        self.folder = folder
        self.names = names
        self.port = port
        self.ai_delay_seconds = ai_delay_seconds
        self.workers = workers
        self.emulator: Emulator | None = None
        self.bot: BotProcess | None = None
        self.web: WebClient | None = None
        self._bot_task: asyncio.Task[None] | None = None

    @property
    def database(self) -> Path:
        return self.folder / "pyramid-bot.db"

    @property
    def bot_log(self) -> Path:
        return self.folder / "bot.log"

    async def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        # A token of its own: the emulator's well-known default would let any web page the visitor opens
        # (WebSockets know no same-origin rule) connect to its gateway as the bot and read every message.
        emu = self.emulator = await Emulator.start(guild_name=GUILD_NAME, token=secrets.token_urlsafe(32))
        world = emu.world
        world.add_channel(emu.guild, "games", topic="Start a game with /pyramid new")
        for person in self.names:
            world.add_member(emu.guild, world.add_user(person))
        self.bot = BotProcess(emu.base_url, self.database, emu, workers=self.workers,
                              env={"PYRAMID_AI_DELAY_SECONDS": str(self.ai_delay_seconds),
                                   "PYRAMID_LOG_LEVEL": "WARNING"},
                              log_path=self.bot_log)
        self._bot_task = asyncio.create_task(self.bot.start(emu.token), name="playground-bot")
        ready = asyncio.create_task(self.bot.wait_until_ready())
        done, _ = await asyncio.wait({ready, self._bot_task}, return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            self._bot_task.result()  # raises why it stopped
            raise RuntimeError(f"the bot stopped before it connected; see {self.bot_log}")
        ready.result()
        self.web = await WebClient.start(emu, port=self.port, welcome=WELCOME)

    def url_for(self, person: str) -> str:
        assert self.web is not None
        return self.web.url_for(person)

    async def close(self) -> None:
        if self.web is not None:
            await self.web.close()
        if self.bot is not None:
            await self.bot.close()
        if self._bot_task is not None:
            with contextlib.suppress(Exception):
                await self._bot_task
        if self.emulator is not None:
            await self.emulator.close()

    def violations(self) -> list[str]:
        """Discord rules the bot broke while it ran (the emulator refused those requests)."""
        return [str(v) for v in self.emulator.violations] if self.emulator is not None else []

    async def __aenter__(self) -> Playground:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="pyramid-bot demo",
        description="Try Pyramid Bot without Discord: the real bot and a Discord-like page, on this machine only.")
    parser.add_argument("--name", default=DEFAULT_NAME, help=f"your name in the playground (default: {DEFAULT_NAME})")
    parser.add_argument("--friends", default=",".join(DEFAULT_FRIENDS),
                        help="comma-separated names of friends to play as in other tabs (default: ana,ben)")
    parser.add_argument("--port", type=int, default=0, help="the page's port on 127.0.0.1 (default: any free one)")
    parser.add_argument("--dir", type=Path, default=None,
                        help="keep the bot's database and log in this folder (default: a temporary one, removed)")
    parser.add_argument("--ai-delay", type=float, default=1.0, help="seconds an AI 'thinks' before it moves")
    parser.add_argument("--open", action="store_true", help="open your page in the default web browser")
    return parser.parse_args(list(argv))


async def serve(args: argparse.Namespace) -> int:
    friends = [f.strip() for f in args.friends.split(",") if f.strip()]
    temporary = args.dir is None
    folder = Path(tempfile.mkdtemp(prefix="pyramid-demo-")) if temporary else args.dir
    playground = Playground(folder, name=args.name, friends=friends, port=args.port, ai_delay_seconds=args.ai_delay)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        print("Starting the Discord emulator and the bot…", flush=True)
        await playground.start()
        print(f"\nPyramid Bot playground (a Discord stand-in on this machine; nothing goes to Discord)\n"
              f"  {args.name} (you): {playground.url_for(args.name)}", flush=True)
        for friend in friends:
            print(f"  {friend}: {playground.url_for(friend)}", flush=True)
        print("\nOpen a tab per person; in #general type /pyramid new to start a game (add an AI player in the"
              f" lobby),\nor /pyramid daily for the daily deal. The bot's database and log: {folder}\n"
              "Press Ctrl+C to stop.", flush=True)
        if args.open:
            webbrowser.open(playground.url_for(args.name))
        assert playground._bot_task is not None
        stopped = asyncio.ensure_future(stop.wait())
        await asyncio.wait({stopped, playground._bot_task}, return_when=asyncio.FIRST_COMPLETED)
        if playground._bot_task.done() and not stop.is_set():
            print(f"The bot stopped; see {playground.bot_log}", file=sys.stderr)
            return 1
        return 0
    except RuntimeError as exc:
        print(f"The playground could not start: {exc}", file=sys.stderr)
        return 1
    finally:
        broken = playground.violations()
        await playground.close()
        if broken:
            print(f"The emulator refused {len(broken)} request(s) of the bot as Discord would:", file=sys.stderr)
            for line in broken[:20]:
                print("  " + line, file=sys.stderr)
        if temporary:
            shutil.rmtree(folder, ignore_errors=True)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    return asyncio.run(serve(args))


if __name__ == "__main__":
    raise SystemExit(main())
