"""``python -m tools.selfplay GAME [options]``: play many games with simulated
players and print one JSON summary line. Each game's own ``selfplay`` module does
the work; this only dispatches, so adding a game never touches the others.

With ``--ai LEVEL,LEVEL,...`` (one AI level per seat) the games are played by the AI
players instead, in :mod:`tools.arena`, which prints per-level wins with 95%
confidence intervals."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib import import_module
from importlib.util import find_spec

from engine.core import game_ids
from tools import arena


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    games = game_ids()
    if not args or args[0] not in games:
        print(f"usage: python -m tools.selfplay {{{','.join(games)}}} [options]", file=sys.stderr)
        return 2
    if any(a == "--ai" or a.startswith("--ai=") for a in args[1:]):
        return arena.main(args[0], args[1:])
    name = "tools.selfplay." + args[0].replace("-", "_")
    if find_spec(name) is None:
        print(f"{args[0]} has no simulated players of its own: play it with AI players, "
              f"python -m tools.selfplay {args[0]} --ai LEVEL,LEVEL,...", file=sys.stderr)
        return 2
    code: int = import_module(name).main(args[1:])
    return code

