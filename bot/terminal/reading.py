"""What a player typed, read as a move: the rules' notation, with the letters drawn on
the board picture in place of cells, and shorthand where only one move fits.

The letters are the ones the picture carries (``render.labels``, through the
presenter), so "play R4 A" is "play R4 0,-1" when the picture letters 0,-1 with A.
A letter may also be a piece's name (Pyramido's stone R), so every reading of each
token is tried and only legal moves count. Words may be left out as long as what is
typed still names one legal move, in order ("R4 A", "left"); what names several is
answered with those moves, as the picker's next buttons would be. Nothing here knows
a rule: the legal moves are the engine's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import product

#: More typed words than any move has: not a move (and no product to blow up).
MAX_WORDS = 8


@dataclass(frozen=True)
class Reading:
    """``move``: the one legal move typed; else ``matches``: the legal moves that what was
    typed may mean (several: the player chooses; none: not a move), and ``spelled``: the
    text with letters replaced by their cells, for the engine to explain a refusal."""

    move: str | None
    matches: tuple[str, ...] = ()
    spelled: str = ""


def lettered(move: str, labels: Mapping[str, str]) -> str:
    """``move`` with each lettered cell written as its letter ("play R4 A")."""
    return " ".join(labels.get(token, token) for token in move.split())


def read_move(text: str, legal: Sequence[str], labels: Mapping[str, str]) -> Reading:
    words = text.split()
    if not words or len(words) > MAX_WORDS:
        return Reading(None, spelled=text.strip())
    cells = {letter.casefold(): cell for cell, letter in labels.items()}
    readings = [list(dict.fromkeys([word, *([cells[word.casefold()]] if word.casefold() in cells else [])]))
                for word in words]
    spellings = [tuple(choice) for choice in product(*readings)]
    by_text = {move.casefold(): move for move in legal}
    exact = list(dict.fromkeys(by_text[" ".join(s).casefold()] for s in spellings
                               if " ".join(s).casefold() in by_text))
    spelled = " ".join(reading[-1] for reading in readings)  # letters as cells, for the engine's reasons
    if len(exact) == 1:
        return Reading(exact[0], tuple(exact), spelled)
    if exact:
        return Reading(None, tuple(exact), spelled)
    fitting = [move for move in legal if any(_in_order(s, move.split()) for s in spellings)]
    if len(fitting) == 1:
        return Reading(fitting[0], tuple(fitting), spelled)
    return Reading(None, tuple(fitting), spelled)


def _in_order(typed: Sequence[str], tokens: Sequence[str]) -> bool:
    """Every typed word is one of the move's tokens, in the move's order."""
    position = 0
    for word in typed:
        folded = word.casefold()
        while position < len(tokens) and tokens[position].casefold() != folded:
            position += 1
        if position == len(tokens):
            return False
        position += 1
    return True
