"""Move and cell notation: ``place R 2:1,0``, ``end``, ``discard R G`` (solo/coop);
``take R 1:2,3``, ``reserve R``, ``build R 1:2,3``, ``pass`` (competitive).

Parsing is lenient about case and spacing and strict about everything else, with a
reason a player can act on.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.errors import IllegalMove
from engine.core.notation import cell_parts, refuse_oversize
from engine.core.text import N_
from engine.pyramido.geometry import Cell, format_cell
from engine.pyramido.stones import COLOURS

_VERBS = ("place", "end", "discard", "take", "reserve", "build", "pass")
_PLACING = ("place", "take", "build")


@dataclass(frozen=True, slots=True)
class Move:
    verb: str
    stones: tuple[str, ...] = ()
    cell: Cell | None = None

    def __str__(self) -> str:
        parts = [self.verb, *self.stones]
        if self.cell is not None:
            parts.append(format_cell(self.cell))
        return " ".join(parts)


def parse_cell(text: str) -> Cell:
    parts = cell_parts(text)
    if parts is None or parts[0] is None:
        raise IllegalMove(N_("{text} is not a cell; write level:x,y, e.g. 1:0,2."), text=repr(shorten(text.strip())))
    return parts[0], parts[1], parts[2]


def shorten(text: str, limit: int = 24) -> str:
    """``text`` as quoted back to a player: long input is cut, not echoed whole."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def parse_colour(text: str) -> str:
    colour = text.strip().upper()
    if colour not in COLOURS:
        raise IllegalMove(N_("{text} is not a stone colour; the colours are R, Y, G, B and W."),
                          text=repr(shorten(text.strip())))
    return colour


def parse_move(text: str) -> Move:
    refuse_oversize(text, "'place R 1:0,1'")
    words = text.strip().split()
    if not words:
        raise IllegalMove(N_("That is an empty move."))
    verb = words[0].lower()
    rest = words[1:]
    if verb not in _VERBS:
        raise IllegalMove(N_("{text} is not a Pyramido move; the moves are {moves}."), text=repr(shorten(words[0])),
                          moves=", ".join(_VERBS))
    if verb in ("end", "pass"):
        if rest:
            raise IllegalMove(N_("'{verb}' takes nothing after it."), verb=verb)
        return Move(verb)
    if verb in _PLACING:
        if len(rest) < 2:
            raise IllegalMove(N_("Write it as '{verb} R 1:0,1': a colour, then the cell as level:x,y."), verb=verb)
        return Move(verb, (parse_colour(rest[0]),), parse_cell(" ".join(rest[1:])))
    if verb == "reserve":
        if len(rest) != 1:
            raise IllegalMove(N_("Write it as 'reserve R': one colour from the quarry."))
        return Move(verb, (parse_colour(rest[0]),))
    # discard: colours may be written apart ("R G") or together ("RG").
    letters = [ch for word in rest for ch in word]
    if not letters:
        raise IllegalMove(N_("Name the stones to put out of the game, e.g. 'discard R G'."))
    return Move(verb, tuple(parse_colour(ch) for ch in letters))
