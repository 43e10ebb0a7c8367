"""The record commands of ``pyramid-bot``: ``verify RECORD`` and ``replay RECORD --out DIR``.

They read a file and need no settings, database or Discord token, so anyone who was
given a record can run them. Each answers in one paragraph or one sentence and exits
0 when the record checks out, 1 when it does not (the sentence names the first
problem).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from bot.ops.exit_codes import ExitCode
from bot.records.format import RecordProblem, read_record_file

#: The subcommands this module answers.
COMMANDS = ("verify", "replay")


def add_parsers(commands: Any) -> None:
    """Add ``verify`` and ``replay`` to ``pyramid-bot``'s subcommands (an argparse
    ``_SubParsersAction``)."""
    verify = commands.add_parser(
        "verify", help="re-play a /pyramid history file from scratch and check every move, the result and the seal",
        description="Make the deal again from the record's seed, check that the seal posted at the start is "
                    "SHA-256 of the game, seed and salt, that every move is legal for its seat and tells the story "
                    "recorded, and that the moves give the recorded result. See docs/game-record.md.",
    )
    verify.add_argument("record", type=Path, help="the game record (game-N.json from /pyramid history)")
    replay = commands.add_parser(
        "replay", help="draw a /pyramid history file again: one board picture per move",
        description="Check the record as `verify` does, then write move-000.png (the deal) to move-NNN.png "
                    "(after the last move) into DIR.",
    )
    replay.add_argument("record", type=Path, help="the game record (game-N.json from /pyramid history)")
    replay.add_argument("--out", type=Path, required=True, metavar="DIR", help="where to write the pictures")


def run(args: argparse.Namespace) -> int:
    """Run the record command ``args.command``."""
    from bot.records.verify import check

    try:
        record = read_record_file(args.record)
        if args.command == "verify":
            print(check(record).summary)
            return ExitCode.OK
        from bot.records.pictures import draw

        try:
            written = draw(record, args.out)
        except OSError as exc:
            print(f"The pictures cannot be written to {args.out}: {exc.strerror or exc}.", file=sys.stderr)
            return ExitCode.FAILED
        print(f"Drew game #{record.number}: {len(written)} pictures ({written[0].name} … {written[-1].name}) "
              f"in {args.out}.")
        return ExitCode.OK
    except RecordProblem as exc:
        print(exc, file=sys.stderr)
        return ExitCode.FAILED
