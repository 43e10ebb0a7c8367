"""``pyramid-bot replay RECORD --out DIR``: a game record drawn again, one picture per position.

``move-000.png`` is the deal, ``move-001.png`` the board after move 1, and so on to
the last move: the public board as the channel saw it (the public view, with the
players' names and the game's number, and the move's public events ringed), without
the button letters, which only meant something while the game ran. The record is
checked first (:func:`bot.records.verify.check`): pictures of a record that does not
hold would show a game that was never played.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import render
from bot.records.format import Record
from bot.records.verify import Games, check, positions
from engine.core import Game, get_game

#: Finds a game's pictures by its kind (the renderer's registry, or a test's own).
Arts = Callable[[str], render.Art]


def picture_name(number: int) -> str:
    return f"move-{number:03d}.png"


def public_view(record: Record, game: Game[Any], state: Any) -> dict[str, Any]:
    """What everyone could see, as ``bot.cards.boards.public_view`` gives it to the board."""
    view = dict(game.view(state, None))
    view["names"] = [p.name for p in record.players]
    view["game_number"] = record.number
    return view


def draw(record: Record, out: Path, *, games: Games = get_game, arts: Arts = render.art_for) -> list[Path]:
    """Check ``record``, then write one PNG per position into ``out`` (made if
    missing); the paths, in order. Raises :class:`RecordProblem` when the record
    does not check out, and OSError when ``out`` cannot be written."""
    check(record, games)
    game = games(record.game)
    art = arts(record.game)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for position in positions(record, games):
        png = render.render_board(public_view(record, game, position.state), labels={},
                                  events=[e for e in position.events if e.visible(None)], art=art)
        path = out / picture_name(position.number)
        path.write_bytes(png)
        written.append(path)
    return written
