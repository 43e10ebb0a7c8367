"""``pyramid-bot``: start the bot (or, with ``play``, a terminal game)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from bot.settings import SettingsError, load_settings


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "play":
        from bot.terminal import main as play_main

        return play_main(args[1:])
    try:
        settings = load_settings()
    except SettingsError as exc:
        print(exc, file=sys.stderr)
        return 2
    from bot.app import run

    return run(settings)


if __name__ == "__main__":
    raise SystemExit(main())
