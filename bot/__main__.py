"""``pyramid-bot``: start the bot; ``play`` a terminal game; ``demo`` the bot in a local playground in the
browser; or the operator's ``backup``, ``restore``, ``health`` and ``migrate-db`` commands
(``pyramid-bot --help``)."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.config.settings import SettingsError, load_settings


def main(argv: Sequence[str] | None = None) -> int:
    """Each branch imports what it runs, when it runs: ``pyramid-bot health`` is
    Docker's HEALTHCHECK, run every few seconds, and must not load discord.py, the
    engines and the renderer that only the bot itself needs."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "demo":
        return demo(args[1:])
    if args and args[0] == "play":
        from bot.terminal import main as play_main

        return play_main(args[1:])
    if args:  # an operator command, --help, or a mistake that argparse explains
        from bot.ops.cli import main as ops_main

        return ops_main(args)
    try:
        settings = load_settings()
    except SettingsError as exc:
        print(exc, file=sys.stderr)
        if "DISCORD_TOKEN" in exc.missing:
            print(NO_TOKEN, file=sys.stderr)
        return 2
    from bot.app import run

    return run(settings)


#: What the first run without a token says after naming the missing setting.
NO_TOKEN = """
To run the bot on Discord it needs a bot token of its own:
  1. https://discord.com/developers/applications -> New Application -> Bot -> Reset Token;
  2. put it in .env as DISCORD_TOKEN=... and invite the bot to your server
     (README, "Creating the Discord application").

To try the bot at once, without Discord or a token:
  pyramid-bot demo
(the real bot on a local stand-in for Discord, played in your browser on this machine)."""


def demo(args: Sequence[str]) -> int:
    """``pyramid-bot demo``: the playground (``tools/demo.py``) lives beside the bot in the source tree, with the
    Discord emulator it runs on (``emulator/``); the bot does not import them. It is run as its own program in
    this process's place."""
    root = Path(__file__).resolve().parent.parent
    if not (root / "tools" / "demo.py").is_file() or not (root / "emulator" / "web").is_dir():
        print("pyramid-bot demo needs the project's source checkout (tools/ and emulator/ beside bot/): "
              "git clone it, then pip install -e . there.", file=sys.stderr)
        return 2
    path = os.pathsep.join(p for p in (str(root), os.environ.get("PYTHONPATH", "")) if p)
    os.execve(sys.executable, [sys.executable, "-m", "tools.demo", *args], {**os.environ, "PYTHONPATH": path})


if __name__ == "__main__":
    raise SystemExit(main())
