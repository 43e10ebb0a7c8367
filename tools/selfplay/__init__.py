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

from engine.core.registry import GAME_MODULES
from tools import arena


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] not in GAME_MODULES:
        print(f"usage: python -m tools.selfplay {{{','.join(GAME_MODULES)}}} [options]", file=sys.stderr)
        return 2
    if any(a == "--ai" or a.startswith("--ai=") for a in args[1:]):
        return arena.main(args[0], args[1:])
    module = import_module("tools.selfplay." + args[0].replace("-", "_"))
    code: int = module.main(args[1:])
    return code

