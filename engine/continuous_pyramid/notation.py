"""Move notation: ``play B5 1:3,4``, ``undo`` and ``resign`` (also ``give up``).

Parsing is lenient about case and spacing (``PLAY b5 1 : 3 , 4``, an optional ``to``)
and strict about everything else, with a reason a player can act on."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.continuous_pyramid.geometry import NAMES, describe_missing_cell, parse_cell
from engine.continuous_pyramid.tiles import CODES, parse_code
from engine.core.errors import IllegalMove
from engine.core.notation import refuse_oversize
from engine.core.text import N_

_PLAY_RE = re.compile(r"^play\s+(\S+?)\s+(?:to\s+)?(.+)$", re.IGNORECASE)
_UNDO = {"undo"}
_RESIGN = {"resign", "give up", "giveup", "give-up"}


@dataclass(frozen=True, slots=True)
class Move:
    kind: str  # "play", "undo" or "resign"
    tile: int = -1
    cell: int = -1


def parse_move(text: str) -> Move:
    """The move ``text`` names; raises :class:`IllegalMove` if it names none."""
    refuse_oversize(text, "'play B5 1:4,4'")
    words = " ".join(text.split())
    lowered = words.lower()
    if lowered in _UNDO:
        return Move("undo")
    if lowered in _RESIGN:
        return Move("resign")
    m = _PLAY_RE.match(words)
    if m is None:
        raise IllegalMove(N_("{text} is not a move. Moves look like 'play B5 1:4,4', 'undo' or 'resign'."),
                          text=repr(text.strip()))
    tile = parse_code(m[1])
    if tile is None:
        raise IllegalMove(N_("There is no tile called {tile}. Tiles are like B5, C1, O9, WE, SP, DR."), tile=repr(m[1]))
    cell = parse_cell(m[2])
    if cell is None:
        raise IllegalMove(describe_missing_cell(m[2]))
    return Move("play", tile, cell)


def play_text(tile: int, cell: int) -> str:
    return f"play {CODES[tile]} {NAMES[cell]}"
