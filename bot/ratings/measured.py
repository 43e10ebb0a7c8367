"""What the AI levels did against each other: the data the AI seats' ratings are made of.

Written by ``python -m tools.ai_ratings`` (its ``pairings`` and ``turns``; the README's
"Ratings" section has the command and the figures). ``bot.ratings.model`` fits the
ratings from :data:`PAIRINGS` at import, and ``bot.ratings.rules`` takes the shortest
rated Flaming Pyramids ``turn_limit`` from :data:`FLAMING_PYRAMIDS_TURNS`, and the
minimum of play of every rated game from :data:`FEWEST_LOSER_MOVES` (written by
``python -m tools.rated_moves``), so a new measurement is pasted here and nothing else
changes.
"""

from __future__ import annotations

from collections.abc import Mapping

#: Per rated game: (first level, second level, wins of the first, games), two seats,
#: every deal played once in each seat order. Measured 2026-11-27, seed 25, hard at 200
#: iterations a move: ``python -m tools.ai_ratings --games 40 --kind flaming-pyramids``,
#: ``python -m tools.ai_ratings --games 8 --kind pyrinoes`` and (Pyramido in its
#: competitive mode, 18 deals each in both seat orders: a run with ``--minutes 40`` that
#: stopped there, which ``--games 36`` repeats exactly)
#: ``python -m tools.ai_ratings --games 36 --kind pyramido``.
PAIRINGS: Mapping[str, tuple[tuple[str, str, float, int], ...]] = {
    "flaming-pyramids": (("easy", "normal", 0.0, 40), ("easy", "hard", 0.0, 40), ("normal", "hard", 5.0, 40)),
    "pyrinoes": (("easy", "normal", 0.0, 8), ("easy", "hard", 0.0, 8), ("normal", "hard", 1.0, 8)),
    "pyramido": (("easy", "normal", 3.0, 36), ("easy", "hard", 0.0, 36), ("normal", "hard", 2.0, 36)),
}

#: Flaming Pyramids games between the normal and hard AIs played to their natural end
#: (the same run): the turns each took.
FLAMING_PYRAMIDS_TURNS: tuple[int, ...] = (
    54, 54, 64, 65, 65, 68, 69, 69, 73, 73, 73, 74, 74, 74, 79, 80,
    81, 89, 90, 95, 102, 102, 103, 104, 104, 107, 108, 112, 113, 117, 122, 142,
    144, 144, 169, 181, 185, 191, 201, 219,
)

#: Per rated game and pairing of AI levels (each level against itself too): (first level,
#: second level, the fewest moves of its own a losing seat made, losing seats measured).
#: Measured 2026-11-29, seed 25, hard at 100 iterations a move, 8 games a pairing (every deal
#: in both seat orders; Flaming Pyramids to its natural end; Pyramido competitive, one round):
#: ``python -m tools.rated_moves --games 8 --hard-iterations 100`` (898 s under ``nice -n 10``).
FEWEST_LOSER_MOVES: Mapping[str, tuple[tuple[str, str, int, int], ...]] = {
    "flaming-pyramids": (("easy", "easy", 88, 8), ("easy", "normal", 38, 8), ("easy", "hard", 38, 8),
                         ("normal", "normal", 40, 8), ("normal", "hard", 28, 8), ("hard", "hard", 46, 8)),
    "pyrinoes": (("easy", "easy", 104, 8), ("easy", "normal", 60, 8), ("easy", "hard", 36, 8),
                 ("normal", "normal", 122, 8), ("normal", "hard", 107, 8), ("hard", "hard", 69, 8)),
    "pyramido": (("easy", "easy", 35, 8), ("easy", "normal", 29, 8), ("easy", "hard", 29, 8),
                 ("normal", "normal", 30, 8), ("normal", "hard", 28, 8), ("hard", "hard", 32, 8)),
}

#: The same at bigger tables, where each seat makes fewer moves (six Flaming Pyramids
#: players share the turns): per rated game and number of seats, the fewest moves of its own
#: a losing seat made at any table of AI levels of that size (every mix of the levels, one
#: deal in each rotation of the seats). Measured 2026-11-29, seed 25, hard at 100 iterations:
#: ``python -m tools.rated_moves --games 0 --hard-iterations 100 --seats 3 --seats 4 --seats 5
#: --seats 6 --kind flaming-pyramids --kind pyramido`` (Pyrinoes is played by two; 802 s).
FEWEST_LOSER_MOVES_AT: Mapping[str, Mapping[int, int]] = {
    "flaming-pyramids": {3: 17, 4: 10, 5: 8, 6: 6},
    "pyramido": {3: 11, 4: 11},
}
