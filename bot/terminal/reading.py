"""What a player typed, read as a move: the rules' notation, with the letters drawn on
the board picture in place of cells, and shorthand where only one move fits.

The letters are the ones the picture carries (``render.labels``, through the
presenter), so "play R4 A" is "play R4 0,-1" when the picture letters 0,-1 with A.
A letter may also be a piece's name (Pyramido's stone R), so every reading of each
token is tried and only legal moves count. Words may be left out as long as what is
typed still names one legal move, in order ("R4 A", "left"), and reaches its last word:
what stops before a move's end ("play R4") is its start, answered with the moves it
begins, as the picker's next buttons would be, even when only one move fits. A move's
words are the presenter's steps (the picker's: Pyrinoes' builds go "build 4–1 Y1|B11"),
so a step the move's text lacks may be typed too; a typographic dash is typed as "-".
Nothing here knows a rule: the legal moves are the engine's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import product

#: A move's words, as the presenter splits it into steps (``Presenter.steps``).
Steps = Callable[[str], tuple[str, ...]]

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


def words_of(move: str) -> tuple[str, ...]:
    """A move's words when the presenter names no steps: its text, split."""
    return tuple(move.split())


def shown(token: str, labels: Mapping[str, str]) -> str:
    """One word of a move as it is typed: a lettered cell as its letter, a dash as "-"."""
    return labels.get(token, token).replace("–", "-")


def lettered(move: str, labels: Mapping[str, str]) -> str:
    """``move`` with each lettered cell written as its letter ("play R4 A")."""
    return " ".join(shown(token, labels) for token in move.split())


def _fold(word: str) -> str:
    return word.casefold().replace("–", "-")


def read_move(text: str, legal: Sequence[str], labels: Mapping[str, str], steps: Steps = words_of) -> Reading:
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
    tokens = {move: steps(move) for move in legal}
    fitting = [move for move in legal if any(_in_order(s, tokens[move]) for s in spellings)]
    whole = [move for move in fitting if any(_reaches_the_end(s, tokens[move]) for s in spellings)]
    # A word may be a piece and a cell's letter at once (Pyramido's stone B, the picture's B): when one reading
    # stops before the move's end, the player may have typed its start, so they choose rather than it is played.
    begun = [move for move in fitting
             if any(_in_order(s, tokens[move]) and not _reaches_the_end(s, tokens[move]) for s in spellings)]
    if len(fitting) == 1 and whole and not begun:
        return Reading(fitting[0], tuple(fitting), spelled)
    return Reading(None, tuple(fitting), spelled)


def _reaches_the_end(typed: Sequence[str], tokens: Sequence[str]) -> bool:
    """The typed words fit the move in order and the last of them is its last word."""
    return bool(typed) and bool(tokens) and _fold(typed[-1]) == _fold(tokens[-1]) and _in_order(typed[:-1],
                                                                                              tokens[:-1])


def _in_order(typed: Sequence[str], tokens: Sequence[str]) -> bool:
    """Every typed word is one of the move's tokens, in the move's order."""
    position = 0
    for word in typed:
        folded = _fold(word)
        while position < len(tokens) and _fold(tokens[position]) != folded:
            position += 1
        if position == len(tokens):
            return False
        position += 1
    return True
