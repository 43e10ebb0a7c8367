"""Move text: ``play R40 1,0`` and ``fall left`` / ``fall right``.

Parsing is lenient about case and spacing (``PLAY r40 1, 0``) and strict about
everything else, with a reason a player can act on. Parsed moves are cached because
search AIs feed back the very strings :func:`play_move` produced.
"""

from __future__ import annotations

from engine.core.errors import IllegalMove
from engine.core.notation import refuse_oversize
from engine.flaming_pyramids.geometry import Cell, cell_text, parse_cell
from engine.flaming_pyramids.tiles import normalise_code

FALL_LEFT = "fall left"
FALL_RIGHT = "fall right"
FALLS = (FALL_LEFT, FALL_RIGHT)

#: ("play", tile, cell) or ("fall", "left" | "right", None)
Parsed = tuple[str, str, Cell | None]

_CACHE: dict[str, Parsed] = {}
_CACHE_LIMIT = 50_000



def shorten(text: str, limit: int = 24) -> str:
    """``text`` as quoted back to a player: long input is cut, not echoed whole."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def play_move(tile: str, cell: Cell) -> str:
    return f"play {tile} {cell_text(cell)}"


def parse_move(text: str) -> Parsed:
    parsed = _CACHE.get(text)
    if parsed is None:
        parsed = _parse(text)
        if len(_CACHE) < _CACHE_LIMIT:
            _CACHE[text] = parsed
    return parsed


def _parse(text: str) -> Parsed:
    refuse_oversize(text, "`play R40 1,0`")
    words = text.replace(",", " , ").split()
    if not words:
        raise IllegalMove("That move is empty: write e.g. `play R40 1,0` or `fall left`.")
    verb = words[0].lower()
    if verb == "fall":
        if len(words) == 2 and words[1].lower() in ("left", "right"):
            return ("fall", words[1].lower(), None)
        raise IllegalMove("A fall is `fall left` or `fall right`.")
    if verb != "play":
        raise IllegalMove(f"{shorten(text.strip())!r} is not a move: write e.g. `play R40 1,0` or `fall left`.")
    if len(words) < 2:
        raise IllegalMove("Say which tile and where: e.g. `play R40 1,0`.")
    tile = normalise_code(words[1])
    if tile is None:
        raise IllegalMove(f"There is no tile called {shorten(words[1])!r}; tiles are written like R40, G1, B7 or M200.")
    where = "".join(words[2:])
    if not where:
        raise IllegalMove(f"Say where to play {tile}: e.g. `play {tile} 1,0` (row,column).")
    cell = parse_cell(where)
    if cell is None:
        raise IllegalMove(f"{shorten(where)!r} is not a cell: write it as row,column, e.g. 1,0 or 0,-1.")
    if cell[0] < 0:
        raise IllegalMove(f"There is no row {cell[0]}: row 0 is the base.")
    return ("play", tile, cell)
