"""A self-play run's failures: every exception in a game is a bug, so each is counted
and the run goes on; only the first traceback goes to stderr, since the rest would
bury it."""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


class Failures:
    def __init__(self) -> None:
        self.count = 0

    def attempt(self, what: str, play: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T | None:
        """``play(*args, **kwargs)``, or None when it raised: counted, and the first
        failure's traceback printed under ``what`` (the game, its seed and set-up)."""
        try:
            return play(*args, **kwargs)
        except Exception:  # noqa: BLE001 - every exception is a bug to count and show
            self.count += 1
            if self.count == 1:
                print(f"{what} failed:", file=sys.stderr)
                traceback.print_exc()
            return None
