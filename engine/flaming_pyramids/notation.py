"""Move text: ``play R40 1,0`` and ``fall left`` / ``fall right``.

Parsing is lenient about case and spacing (``PLAY r40 1, 0``) and strict about
everything else, with a reason a player can act on. Parsed moves are cached because
search AIs feed back the very strings :func:`play_move` produced.
"""

from __future__ import annotations

from engine.core.errors import IllegalMove
from engine.core.notation import refuse_oversize
from engine.core.text import N_
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
        raise IllegalMove(N_("That move is empty: write e.g. `play R40 1,0` or `fall left`."))
    verb = words[0].lower()
    if verb == "fall":
        if len(words) == 2 and words[1].lower() in ("left", "right"):
            return ("fall", words[1].lower(), None)
        raise IllegalMove(N_("A fall is `fall left` or `fall right`."))
    if verb != "play":
        raise IllegalMove(N_("{text} is not a move: write e.g. `play R40 1,0` or `fall left`."),
                          text=repr(shorten(text.strip())))
    if len(words) < 2:
        raise IllegalMove(N_("Say which tile and where: e.g. `play R40 1,0`."))
    tile = normalise_code(words[1])
    if tile is None:
        raise IllegalMove(N_("There is no tile called {tile}; tiles are written like R40, G1, B7 or M200."),
                          tile=repr(shorten(words[1])))
    where = "".join(words[2:])
    if not where:
        raise IllegalMove(N_("Say where to play {tile}: e.g. `play {tile} 1,0` (row,column)."), tile=tile)
    cell = parse_cell(where)
    if cell is None:
        raise IllegalMove(N_("{text} is not a cell: write it as row,column, e.g. 1,0 or 0,-1."),
                          text=repr(shorten(where)))
    if cell[0] < 0:
        raise IllegalMove(N_("There is no row {row}: row 0 is the base."), row=cell[0])
    return ("play", tile, cell)
