"""``pyramid-bot``: start the bot; ``play`` a terminal game; or the operator's
``backup``, ``restore``, ``health`` and ``migrate-db`` commands (``pyramid-bot --help``)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from bot.settings import SettingsError, load_settings


def main(argv: Sequence[str] | None = None) -> int:
    """Each branch imports what it runs, when it runs: ``pyramid-bot health`` is
    Docker's HEALTHCHECK, run every few seconds, and must not load discord.py, the
    engines and the renderer that only the bot itself needs."""
    args = list(sys.argv[1:] if argv is None else argv)
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
        return 2
    from bot.app import run

    return run(settings)


if __name__ == "__main__":
    raise SystemExit(main())
