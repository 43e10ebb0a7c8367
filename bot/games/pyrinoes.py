"""Pyrinoes in Discord."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from bot.games.presenter import Presenter
from bot.games.rating import Counting, RatingRules
from engine.core.text import Phrase
from engine.pyrinoes import GAME, pyrino
from engine.pyrinoes.pieces import piece_name
from i18n import N_, Lang
from render import art_for

#: The first step of a build: the spot counts of the pyrino's two ends (a path token,
#: so it stays the same in every language; :func:`spots_words` labels it "6–3 spots").
#: No whitespace: a click carries its path as the steps joined by spaces.
SPOTS = "{high}–{low}"
#: The step before it: the spot count of the higher end alone ("6–"), so that the 27 or so
#: spot-count pairs come as a few buttons (at most 7 each) instead of a paged menu.
HIGH = "{high}–"
_SPOTS = re.compile(r"^(\d+)–(\d+)$")
_HIGH = re.compile(r"^(\d+)–$")


def pyrino_steps(move: str) -> tuple[str, ...]:
    """Builds are many (135 at the start): group them by the spot count of their higher end,
    then by both ends' counts, then the pyrino itself."""
    parts = move.split()
    if parts and parts[0] == "build" and len(parts) == 2:
        parsed = pyrino(parts[1])
        if parsed is not None:
            high, low = parsed[0].group
            return ("build", HIGH.format(high=high), SPOTS.format(high=high, low=low), parts[1])
    return tuple(parts)


def typed_pyrino_steps(move: str) -> tuple[str, ...]:
    """Typed, a build goes "build 4–1 Y1|R22": the clicks' first step ("4–…") only shortens a row of buttons."""
    steps = pyrino_steps(move)
    return tuple(s for s in steps if not _HIGH.match(s)) if steps[:1] == ("build",) else steps


def spots_words(token: str, lang: Lang) -> str | None:
    """The label of a build's spot-count steps ("6–… spots", then "6–3 spots") and of a pyrino (its
    ends in words, "Blue 3+2 · black 3+1", never ``B32|K31``) in the reader's language."""
    if "|" in token and pyrino(token) is not None:
        name = piece_name(token)
        words = name.fill([], lang.gettext) if isinstance(name, Phrase) else str(name)
        return words[:1].upper() + words[1:]
    found = _SPOTS.match(token)
    if found is not None:
        return lang.tr("{high}–{low} spots", high=int(found.group(1)), low=int(found.group(2)))
    high = _HIGH.match(token)
    if high is not None:
        return lang.tr("{high}–… spots", high=int(high.group(1)))
    return None


#: The AI levels against each other, two seats, every deal once in each seat order
#: (``bot.games.rating.Pairing``). Measured 2026-11-27, seed 25, hard at 200 iterations a move:
#: ``python -m tools.ai_ratings --games 8 --kind pyrinoes``.
PAIRINGS = (("easy", "normal", 0.0, 8), ("easy", "hard", 0.0, 8), ("normal", "hard", 1.0, 8))
#: The fewest moves of its own a losing seat made, per pairing of levels, two seats (Pyrinoes is played
#: by two). Measured 2026-11-29, seed 25, hard at 100 iterations, 8 games a pairing:
#: ``python -m tools.rated_moves --games 8 --hard-iterations 100``.
FEWEST_LOSER_MOVES = (("easy", "easy", 104, 8), ("easy", "normal", 60, 8), ("easy", "hard", 36, 8),
                      ("normal", "normal", 122, 8), ("normal", "hard", 107, 8), ("hard", "hard", 69, 8))


def counting(options: Mapping[str, Any], seats: int) -> Counting:
    """Rated; each side scores the points it made: more is better (``engine/pyrinoes/game.py``)."""
    return Counting(rated=True, better="higher")


PRESENTER = Presenter(
    game=GAME,
    art=art_for(GAME.id),
    emoji="🎲",  # a domino tile (U+1F063) is no emoji: common fonts draw a box
    rules=N_(
        "Dominoes with Looney pyramids for two. On your turn play a domino or a pyrino from your hand "
        "onto an open end of the line, or build a pyrino from your pyramids (Fire: red and yellow; Ice: "
        "blue and black; green is shared and counts 0 spots), or draw if you can do neither, or pass "
        "when the boneyard is empty. A round ends when someone runs out; the lower hand scores the "
        "difference plus bonuses. First to the target (100) wins."
    ),
    verbs={"play": N_("Play"), "build": N_("Build a pyrino"), "draw": N_("Draw"), "pass": N_("Pass"),
           "left": N_("⬅ Left end"), "right": N_("Right end ➡")},
    prompts=(N_("Choose a move"), N_("Choose"), N_("Choose"), N_("Choose")),
    steps=pyrino_steps,
    typed_steps=typed_pyrino_steps,
    explain={"build": N_("A pyrino is built from two of your pyramids, one for each end (Fire: red and yellow; "
                         "Ice: blue and black; green is shared and counts 0). Pick the spots of its higher end, "
                         "then of both ends, then the pyramids.")},
    token_words=spots_words,
    cells=N_("Pyrinoes has no cells: a domino or pyrino goes to the left or the right open end of the line "
             "(play 6-4 right); a pyrino is built from two pyramids (build Y21|R1)."),
    rating=RatingRules(count=counting, pairings=PAIRINGS, fewest_loser_moves=FEWEST_LOSER_MOVES),
)
