"""The pictures of a terminal game, written where an image viewer can show them.

Every position is kept as ``move-NNNN.png``; ``board.png`` is always the latest board
(lettered as the moves are typed) and ``hand.png`` the hand of the player to move, so
a viewer that reloads a changed file follows the game. Without ``--out`` they go to a
new folder under the system's temporary directory, which the game names at the start.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bot.games.presenter import Presenter
from engine.core import Event
from render import render_board, render_hand


class Pictures:
    def __init__(self, presenter: Presenter, out: Path | None) -> None:
        self.presenter = presenter
        self.folder = out if out is not None else Path(tempfile.mkdtemp(prefix="pyramid-bot-play-"))
        self.folder.mkdir(parents=True, exist_ok=True)

    @property
    def board(self) -> Path:
        return self.folder / "board.png"

    @property
    def hand(self) -> Path:
        return self.folder / "hand.png"

    def draw(self, number: int, view: Mapping[str, Any], labels: Mapping[str, str], events: Sequence[Event]) -> Path:
        """The board after move ``number``, kept as its own file and as ``board.png``."""
        png = render_board(dict(view), labels=dict(labels), events=list(events), art=self.presenter.art)
        path = self.folder / f"move-{number:04d}.png"
        path.write_bytes(png)
        self.board.write_bytes(png)
        return path

    def draw_hand(self, view: Mapping[str, Any]) -> Path | None:
        if not self.presenter.has_hand:
            return None
        self.hand.write_bytes(render_hand(dict(view), art=self.presenter.art))
        return self.hand
